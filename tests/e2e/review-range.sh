# Sourced by tests/e2e/run: the review's interface part B — a time range
# (v, v; = and + note and tag it), copying out (Y, w, |) and the runs
# list's review columns — in the ui pane.

# A time range: the long runner started before it and was still running
# when it began, so it shows; what ended before or began after does not.
# ("at" is when a command ended; it began ms before.)
mkdir -p "$tmp/rr"
cat > "$tmp/rr/agent-run.jsonl" <<'LOG'
{"at": "2026-01-01T10:06:00Z", "sandbox": "s1", "kind": "command", "command": "sleep 420 # long-runner", "exit": 0, "ms": 420000}
{"at": "2026-01-01T10:01:00Z", "sandbox": "s1", "kind": "command", "command": "echo before-range", "exit": 0, "ms": 5}
{"at": "2026-01-01T10:02:00Z", "sandbox": "s1", "kind": "command", "command": "echo range-first", "exit": 0, "ms": 5}
{"at": "2026-01-01T10:03:00Z", "sandbox": "s1", "kind": "command", "command": "echo inside-range", "exit": 0, "ms": 5}
{"at": "2026-01-01T10:04:00Z", "sandbox": "s1", "kind": "command", "command": "echo range-last", "exit": 0, "ms": 5}
{"at": "2026-01-01T10:05:00Z", "sandbox": "s1", "kind": "command", "command": "echo after-range", "exit": 0, "ms": 5}
LOG
keys "clear; SBXVIEW_AUTHOR='Rae Range' $bin $tmp/rr; echo QUIT=\$?" Enter
see "6 events" "the range run opens"
keys g j j v
see "v on its last row" "v marks the range's first row"
keys j j v
see "4 events (Esc clears)" "v on the last row shows the range"
see "long-runner" "a command running when the range began is in it"
unseen "before-range" "what ended before the range is not"
unseen "after-range" "what began after the range is not"
keys =
see "note the range:" "= asks for the range's note"
keys "the exfil window" Enter
see "noted the range" "the range's note is written"
keys +
see "tag the range:" "+ asks for the range's tag"
keys "incident:window" Enter
see "tagged the range" "the range's tag is written"
keys Escape
see "range cleared" "Esc clears the range"
see "after-range" "every event shows again"
keys q
see "QUIT=0" "q after the range quits"
rf="$tmp/rr/sbxview-review.jsonl"
if [ "$(wc -l < "$rf" 2>/dev/null)" = 2 ]; then ok; else bad "two range operations, two lines"; cat "$rf"; fi
contains "$rf" '"to":"' "the range's operations name its last event"
expect_exit 0 "review show of the ranged run" "$bin" review show "$tmp/rr"
contains "$tmp/out" "Tag incident:window on " "review show lists the range's tag"
grep -F "Note on " "$tmp/out" | grep -F ".." | grep -qF "Rae Range: the exfil window" && ok ||
    { bad "review show: the note on the range (ID..ID)"; cat "$tmp/out"; }
expect_exit 0 "review show -f json of the ranged run" "$bin" review show -f json "$tmp/rr"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["notes"][0]; assert n["to"] and n["id"] != n["to"] and not n["orphaned"], n' "$tmp/out" && ok ||
    { bad "review show's JSON: the range's note with its to"; cat "$tmp/out"; }
expect_exit 0 "summary of the ranged run" "$bin" summary "$tmp/rr"
grep -F "note on " "$tmp/out" | grep -qF ".." && ok || { bad "the summary's Review part names the range"; cat "$tmp/out"; }

# The runs list: three runs in three review states, shown, filtered and
# sorted by them.
mkdir -p "$tmp/rl"
cp -r tests/fixtures/runs/first tests/fixtures/runs/retry tests/fixtures/runs/broken "$tmp/rl/"
ev=$("$bin" check -f json "$tmp/rl/first" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["findings"][0]["event"])')
expect_exit 0 "a note on one run of the list" "$bin" review note "$tmp/rl/first" "$ev" "looking"
expect_exit 0 "a verdict on another" "$bin" review verdict "$tmp/rl/retry" malicious --reason "it exfiltrated"
keys "clear; TERM=tmux-256color $bin $tmp/rl; echo QUIT=\$?" Enter
see "sorted by run, A-Z" "the runs list of three reviews opens"
all_read() { on_screen "sorted by" && ! grep -qE "runs, [0-9]+ read|reading" "$tmp/ui"; }
await "every run read" 'cat "$tmp/ui"' all_read
grep -E '^ +broken .* no *$' "$tmp/ui" >/dev/null && ok || { bad "a run without a review: not reviewed"; cat "$tmp/ui"; }
grep -E '^ +first .* open *$' "$tmp/ui" >/dev/null && ok || { bad "a run with a note: in progress"; cat "$tmp/ui"; }
grep -E '^ +retry .* done malicious$' "$tmp/ui" >/dev/null && ok || { bad "a run with a verdict: done"; cat "$tmp/ui"; }
keys '&'
keys "review:done" Enter
see "& review:done" "the list filtered by its review"
see "1 shown" "one run is done"
unseen "first" "a run in progress is not done"
keys '&'
keys "!verdict:none" Enter
see "& !verdict:none" "the list filtered by the verdict"
keys '&' Enter
see "sorted by run, A-Z" "& then Enter clears the filter"
keys '>' '>' '>' '>' '>' '>' '>' '>' '>' '>'
see "sorted by review, most first" "> sorts by the review"
# done, then in progress, then not reviewed
awk '/^  (broken|first|retry) /{print $1}' "$tmp/ui" | tr '\n' ' ' > "$tmp/rl/order"
if [ "$(cat "$tmp/rl/order")" = "retry first broken " ]; then ok; else
    bad "sorted by review: $(cat "$tmp/rl/order")"; cat "$tmp/ui"; fi
keys r
see "sorted by review, least first" "r reverses the review's sort"
awk '/^  (broken|first|retry) /{print $1}' "$tmp/ui" | tr '\n' ' ' > "$tmp/rl/order"
if [ "$(cat "$tmp/rl/order")" = "broken first retry " ]; then ok; else
    bad "sorted by review, reversed: $(cat "$tmp/rl/order")"; cat "$tmp/ui"; fi
# a run opened from the list: its command copied out
while t delete-buffer 2>/dev/null; do :; done
keys Enter
see "09:29:51" "Enter opens the run"
keys g Y c
see "copied to the clipboard" "Y c in a run opened from the list"
clip_any() { t show-buffer >/dev/null 2>&1; }
if await "the clipboard holds a command line" 't show-buffer' clip_any; then ok; fi
keys q
see "sorted by review" "q goes back to the list"
keys q
see "QUIT=0" "q leaves the runs list"

# Copying out: a command with a token and an escape in its output.
mkdir -p "$tmp/cp"
tok=ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8
printf '{"at": "2026-01-01T10:00:01Z", "sandbox": "s1", "kind": "command", "command": "curl -H %s https://api.example.com/copy-me", "exit": 0, "ms": 5, "stdout": "token=%s\\u001b]2;PWNED\\u0007 end-of-output\\n", "stderr": ""}\n' \
    "'Authorization: token $tok'" "$tok" > "$tmp/cp/agent-run.jsonl"
printf '#!/bin/sh\ncat > "%s"\n' "$tmp/cp/paged" > "$tmp/cp/pager"
chmod +x "$tmp/cp/pager"
while t delete-buffer 2>/dev/null; do :; done
# a terminal whose terminfo has Ms: the clipboard escape is sent
keys "clear; cd $tmp/cp; TERM=tmux-256color PAGER=$tmp/cp/pager $bin agent-run.jsonl; echo QUIT=\$?; cd - >/dev/null" Enter
see "1 events" "the copy run opens"
keys Y
see "copy what?" "Y asks what to copy"
keys c
see "command line copied to the clipboard" "Y c copies the command line"
clip_has() { t show-buffer 2>/dev/null | grep -qF -- "$1"; }
if await "the clipboard holds the command" 't show-buffer' clip_has "api.example.com/copy-me"; then ok; fi
if t show-buffer | grep -qF "$tok"; then bad "the token reached the clipboard"; else ok; fi
keys Y o
see "output copied to the clipboard" "Y o copies the output"
if await "the clipboard holds the output" 't show-buffer' clip_has "end-of-output"; then ok; fi
if t show-buffer | grep -qF "$tok"; then bad "the output's token reached the clipboard"; else ok; fi
if t show-buffer | grep -q $'\033'; then bad "an escape reached the clipboard"; else ok; fi
if [ "$(pane '#{pane_title}')" = PWNED ]; then bad "the output's title escape acted"; else ok; fi
# to a file: 0600, never over one without y
keys w o
see "write to:" "w o asks for a path"
keys "out.txt" Enter
see "output written to out.txt" "w writes the file"
if [ "$(stat -c %a "$tmp/cp/out.txt" 2>/dev/null)" = 600 ]; then ok; else bad "the file is not 0600"; ls -l "$tmp/cp"; fi
contains "$tmp/cp/out.txt" "end-of-output" "the file holds the output"
if grep -qF "$tok" "$tmp/cp/out.txt"; then bad "the token reached the file"; else ok; fi
keys w c "out.txt" Enter
see "out.txt exists: y overwrites it" "a file that is there is not overwritten unasked"
keys n
see "kept out.txt" "any other key keeps it"
contains "$tmp/cp/out.txt" "end-of-output" "the kept file is as it was"
keys w c "out.txt" Enter
see "exists: y overwrites it" "asked again"
keys y
see "command line written to out.txt" "y overwrites it"
contains "$tmp/cp/out.txt" "api.example.com/copy-me" "the file now holds the command line"
# the pager: the text on its input, the screen back after it
keys '|' o
see "output shown in the pager" "| o pages the output"
contains "$tmp/cp/paged" "end-of-output" "the pager got the output"
if grep -qF "$tok" "$tmp/cp/paged"; then bad "the token reached the pager"; else ok; fi
see "1 events" "the screen is back after the pager"
keys q
see "QUIT=0" "q after copying quits"
# a terminal whose terminfo has no Ms: nothing is sent, and why is said
while t delete-buffer 2>/dev/null; do :; done
keys "clear; TERM=screen $bin $tmp/cp/agent-run.jsonl; echo QUIT=\$?" Enter
see "1 events" "the copy run opens on a terminal without Ms"
keys Y c
see "has no Ms" "Y c says why nothing was sent"
if t show-buffer >/dev/null 2>&1; then bad "a clipboard escape was sent to a terminal without Ms"; t show-buffer; else ok; fi
keys q
see "QUIT=0" "q quits"
# the setting overrides the terminal's word
keys "clear; TERM=screen SBXVIEW_CLIPBOARD=on $bin $tmp/cp/agent-run.jsonl; echo QUIT=\$?" Enter
see "1 events" "the copy run opens with SBXVIEW_CLIPBOARD=on"
keys Y c
see "copied to the clipboard" "SBXVIEW_CLIPBOARD=on sends it anyway"
if await "the clipboard holds the command" 't show-buffer' clip_has "api.example.com/copy-me"; then ok; fi
keys q
see "QUIT=0" "q quits"
shell_sane "after copying out"
