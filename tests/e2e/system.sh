# Sourced by tests/e2e/run (its helpers and the ui pane): the terminal, the
# files and the outputs under hostile conditions.

# Every signal that ends the program gives the terminal back (alternate
# screen left, mouse off, echo on) and ends it with 128+N.
for sig_rc in PIPE:141 USR1:138 USR2:140 ALRM:142 VTALRM:154 PROF:155 XCPU:152 XFSZ:153 QUIT:131; do
    sig=${sig_rc%:*} want=${sig_rc#*:}
    rm -f "$tmp/pid"
    keys "clear; sh -c 'echo \$\$ > $tmp/pid; exec $bin examples/csv-fix 2>/dev/null'; echo RC=\$?" Enter
    see "/15  ? help" "the interface before SIG$sig"
    if [ "$(pane '#{alternate_on} #{mouse_any_flag}')" = "1 1" ]; then ok; else
        bad "SIG$sig: the interface is not on the alternate screen with the mouse on"; fi
    kill -s "$sig" "$(cat "$tmp/pid")"
    see "RC=$want" "SIG$sig ends the interface with $want"
    shell_sane "after SIG$sig"
done
# the terminal going away without a SIGHUP ends the review (exit 129), no spin
if tests/e2e/terminal-gone "$bin" examples/csv-fix >"$tmp/gone" 2>&1; then ok; else
    bad "the terminal went away:"; cat "$tmp/gone"; fi
if tests/e2e/terminal-gone "$bin" tests/fixtures/runs >"$tmp/gone" 2>&1; then ok; else
    bad "the terminal went away from the runs list:"; cat "$tmp/gone"; fi

# -o and --to file: over a symlink, a FIFO and /dev/null: the link followed
# (it stays a link), the FIFO and the device written in place, never replaced.
mkdir -p "$tmp/out-kinds"
echo old > "$tmp/out-kinds/real.md"
ln -s real.md "$tmp/out-kinds/link.md"
expect_exit 0 "-o a symlink" "$bin" summary -f markdown -o "$tmp/out-kinds/link.md" examples/csv-fix
if [ -L "$tmp/out-kinds/link.md" ] && grep -q "### Agent run summary" "$tmp/out-kinds/real.md"; then ok; else
    bad "-o a symlink: the link was replaced or its file not written"; ls -l "$tmp/out-kinds"; fi
expect_exit 0 "--to file: a symlink" "$bin" export --to "file:$tmp/out-kinds/link.md" examples/csv-fix
if [ -L "$tmp/out-kinds/link.md" ]; then ok; else bad "--to file: replaced the symlink"; fi
ln -s loop-b "$tmp/out-kinds/loop-a"; ln -s loop-a "$tmp/out-kinds/loop-b"
expect_exit 2 "-o a symlink loop" "$bin" summary -o "$tmp/out-kinds/loop-a" examples/csv-fix
contains "$tmp/err" "a loop of symbolic links" "a symlink loop is named"
mkfifo "$tmp/out-kinds/fifo"
for how in "summary -f markdown -o" "export --to file:"; do
    rm -f "$tmp/out-kinds/from-fifo"
    (timeout 10 cat "$tmp/out-kinds/fifo" > "$tmp/out-kinds/from-fifo" &)
    if [ "$how" = "export --to file:" ]; then
        expect_exit 0 "$how a FIFO" timeout 10 "$bin" export --to "file:$tmp/out-kinds/fifo" examples/csv-fix
    else
        expect_exit 0 "$how a FIFO" timeout 10 "$bin" summary -f markdown -o "$tmp/out-kinds/fifo" examples/csv-fix
    fi
    await "$how a FIFO: the reader got the output" 'ls -l "$tmp/out-kinds"' grep -q "Agent run summary" "$tmp/out-kinds/from-fifo"
    if [ -p "$tmp/out-kinds/fifo" ]; then ok; else bad "$how a FIFO: replaced by a file"; fi
done
expect_exit 0 "-o /dev/null" "$bin" summary -o /dev/null examples/csv-fix
expect_exit 0 "--to file:/dev/null" "$bin" export --to file:/dev/null examples/csv-fix
"$bin" summary -f markdown -o /dev/stdout examples/csv-fix | cat > "$tmp/out-kinds/via-stdout"
contains "$tmp/out-kinds/via-stdout" "### Agent run summary" "-o /dev/stdout into a pipe writes the pipe"
if [ -c /dev/null ]; then ok; else bad "/dev/null is no longer a character device"; fi

# Write errors on standard output end with exit 2 and the reason, for every
# command that prints (summary did already).
for cmd in "check tests/fixtures/runtime-run" "check --format json tests/fixtures/runtime-run" \
    "--dump examples/csv-fix" "--dump --keys s examples/csv-fix" "--dump tests/fixtures/runs" \
    "export --dry-run --to file:out.md examples/csv-fix" \
    "export --dry-run --to github:owner/repo#1 examples/csv-fix" "summary examples/csv-fix" \
    "compare --format json tests/fixtures/runs/first tests/fixtures/runs/retry"; do
    # shellcheck disable=SC2086
    "$bin" $cmd >/dev/full 2>"$tmp/err"; rc=$?
    if [ "$rc" = 2 ]; then ok; else bad "$cmd >/dev/full: exit $rc, wanted 2"; fi
    contains "$tmp/err" "standard output: No space left on device" "$cmd >/dev/full: the reason"
done

# check and compare report every skipped line and every file not read, and
# check fails on them unless --allow skipped-lines.
mkdir -p "$tmp/broken-run"
cp tests/fixtures/runtime-run/* "$tmp/broken-run/"
allowed=account-change,removed-from-log,outside-wrapper,refused-host,secret
printf '{"at": "2026-01-01T00:00:00Z", "kind": "command", "command": "curl evil", broken\n' >> "$tmp/broken-run/agent-run.jsonl"
printf '\x00\x01binary' > "$tmp/broken-run/notes.bin"
: > "$tmp/broken-run/empty.log"
expect_exit 0 "check of a clean run" "$bin" check -q --allow "$allowed" tests/fixtures/runtime-run
expect_exit 1 "check of a run with a broken line and unread files" "$bin" check -q --allow "$allowed" "$tmp/broken-run"
contains "$tmp/out" "skipped-line        $tmp/broken-run/agent-run.jsonl:6: not JSON" "check names the broken line"
contains "$tmp/out" "unread-file         $tmp/broken-run/notes.bin: binary (NUL bytes)" "check names the binary file"
contains "$tmp/out" "unread-file         $tmp/broken-run/empty.log: empty file" "check names the empty file"
expect_exit 0 "check --allow skipped-lines" "$bin" check -q --allow "$allowed,skipped-lines" "$tmp/broken-run"
contains "$tmp/out" "skipped-line" "allowed, the skipped line is still listed"
expect_exit 1 "check --format json of the broken run" "$bin" check -q --format json --allow "$allowed" "$tmp/broken-run"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["skipped_lines_total"] == 1 and d["skipped_lines"][0]["line"] == 6, d
assert sorted(u["reason"] for u in d["unread_files"]) == ["binary (NUL bytes)", "empty file"], d
' "$tmp/out" && ok || bad "check --format json: skipped_lines and unread_files"
for fmt in text markdown; do
    "$bin" compare -q --format "$fmt" tests/fixtures/runtime-run "$tmp/broken-run" > "$tmp/cmp.$fmt" 2>"$tmp/err"
    contains "$tmp/cmp.$fmt" "agent-run.jsonl:6: not JSON" "compare --format $fmt names B's broken line"
    contains "$tmp/cmp.$fmt" "notes.bin: binary (NUL bytes)" "compare --format $fmt names B's unread file"
done
"$bin" compare -q --format json tests/fixtures/runtime-run "$tmp/broken-run" > "$tmp/cmp.json" 2>"$tmp/err"
contains "$tmp/cmp.text" "Unread B:  1 line skipped, 2 files not read" "compare's text counts what B did not read"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["a"]["skipped_lines_total"] == 0 and d["a"]["unread_files"] == [], d["a"]
assert d["b"]["skipped_lines_total"] == 1 and len(d["b"]["unread_files"]) == 2, d["b"]
' "$tmp/cmp.json" && ok || bad "compare --format json: each run's skipped_lines and unread_files"

# A run folder whose logs are symbolic links (and a FIFO): read, so the
# recorded commands are not "outside the wrapper"; loops and links to
# nothing named, with their reason.
mkdir -p "$tmp/linked-run" "$tmp/linked-src"
cp tests/fixtures/runtime-run/* "$tmp/linked-src/"
ln -s "$tmp/linked-src/agent-run.jsonl" "$tmp/linked-run/agent-run.jsonl"
for f in runtime-audit.jsonl runtime-commands.json runtime-metrics-a1b2c3d4.json; do
    ln -s "../linked-src/$f" "$tmp/linked-run/$f"
done
mkfifo "$tmp/linked-run/runtime-events.jsonl"
ln -s loop-b "$tmp/linked-run/loop-a"; ln -s loop-a "$tmp/linked-run/loop-b"
ln -s nowhere "$tmp/linked-run/dangling"
# the FIFO holds the events with no writer left: opened read-write, written,
# held open for reading, the writer closed
exec 5<>"$tmp/linked-run/runtime-events.jsonl"
cat "$tmp/linked-src/runtime-events.jsonl" >&5
exec 6<"$tmp/linked-run/runtime-events.jsonl"
exec 5>&-
expect_exit 1 "check of a run folder of symlinks and a FIFO" "$bin" check --allow skipped-lines "$tmp/linked-run"
exec 6<&-
"$bin" check tests/fixtures/runtime-run > "$tmp/check-direct" 2>/dev/null
sed "s|$tmp/linked-run|tests/fixtures/runtime-run|" "$tmp/out" | grep -v "^unread-file" > "$tmp/check-linked"
if cmp -s "$tmp/check-direct" "$tmp/check-linked"; then ok; else
    bad "symlinked logs: not the same findings as the logs themselves"; diff "$tmp/check-direct" "$tmp/check-linked"; fi
contains "$tmp/err" "loop-a: not read: a loop of symbolic links" "a loop of links is named"
contains "$tmp/err" "dangling: not read: a symbolic link to nothing" "a link to nothing is named"

# A followed log truncated (and written again) under the review: the loaded
# commands stay readable, never ^@^@^@, and the review says it was truncated;
# without -F the review goes on as it was.
cp examples/csv-fix/agent-run.jsonl "$tmp/follow.jsonl"
keys "clear; $bin -F $tmp/follow.jsonl 2>/dev/null; echo QUIT=\$?" Enter
see "/14  ? help" "the followed log opens"
see "following" "it says it follows"
: > "$tmp/follow.jsonl"
see "truncated" "the truncation is said"
keys g
see "cat prices.csv" "after the truncation, the commands still read"
unseen "^@" "no command turned into NULs"
cat examples/csv-fix/agent-run.jsonl examples/csv-fix/agent-run.jsonl > "$tmp/follow.jsonl"
keys G Enter
see "event 14 of 14" "the detail of the last command, after the log was written again"
unseen "^@" "the detail is not NULs either"
keys q q
see "QUIT=0" "the followed review quits normally"
shell_sane "after the truncated follow"
cp examples/csv-fix/agent-run.jsonl "$tmp/nofollow.jsonl"
keys "clear; $bin $tmp/nofollow.jsonl 2>/dev/null; echo QUIT=\$?" Enter
see "/14  ? help" "the review without -F opens"
truncate -s 10 "$tmp/nofollow.jsonl"
keys G Enter
see "event 14 of 14" "without -F, the review goes on after the truncation"
unseen "^@" "without -F, the detail is not NULs"
keys q g
see "cat prices.csv" "without -F, the commands still read"
keys q
see "QUIT=0" "the review without -F quits normally"
shell_sane "after the truncation without -F"

# A JSON summary far past the writer's 64 KiB pieces, written as it is made:
# standard output, a new file, a file replaced, /dev/stdout into a pipe all
# hold the same bytes; a full device or standard output fails once with the
# reason; a folder refused before anything is written.
mkdir -p "$tmp/spill"
for i in $(seq 1 3000); do
    printf '{"at": "2026-11-29T09:%02d:%02d.%06dZ", "sandbox": "s1", "kind": "files", "added": ["./d%d/new-%d.py"], "removed": ["./old/%d.txt"], "changed": []}\n' \
        $((i / 60 % 60)) $((i % 60)) "$i" $((i % 17)) "$i" "$i"
done > "$tmp/spill/big.jsonl"
"$bin" summary --format json "$tmp/spill/big.jsonl" > "$tmp/spill/stdout.json"
if [ "$(wc -c < "$tmp/spill/stdout.json")" -gt 300000 ]; then ok; else
    bad "the big JSON summary is only $(wc -c < "$tmp/spill/stdout.json") bytes"; fi
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); f = d["files"]
assert len(f["added"]) == len(f["removed"]) == 3000 and len(f["written_by"]) == 6000
assert d["runs_row"]["events"] == 3000' "$tmp/spill/stdout.json"; then ok; else
    bad "the big JSON summary is not whole: not JSON, or a list or part short"; fi
echo old > "$tmp/spill/replaced.json"
for target in new.json replaced.json; do
    expect_exit 0 "-o $target, a big JSON summary" "$bin" summary --format json -o "$tmp/spill/$target" "$tmp/spill/big.jsonl"
    if cmp -s "$tmp/spill/$target" "$tmp/spill/stdout.json"; then ok; else bad "-o $target: not the summary printed"; fi
done
"$bin" summary --format json -o /dev/stdout "$tmp/spill/big.jsonl" | cat > "$tmp/spill/piped.json"
if cmp -s "$tmp/spill/piped.json" "$tmp/spill/stdout.json"; then ok; else bad "-o /dev/stdout into a pipe: not the summary"; fi
if [ "$(ls -A "$tmp/spill" | tr '\n' ' ')" = "big.jsonl new.json piped.json replaced.json stdout.json " ]; then ok; else
    bad "a temporary file left beside the outputs:"; ls -A "$tmp/spill"; fi
"$bin" summary --format json "$tmp/spill/big.jsonl" >/dev/full 2>"$tmp/err"; rc=$?
if [ "$rc" = 2 ]; then ok; else bad "a big JSON summary >/dev/full: exit $rc, wanted 2"; fi
if [ "$(cat "$tmp/err")" = "sbxview summary: standard output: No space left on device" ]; then ok; else
    bad "a big JSON summary >/dev/full: not one line with the reason:"; cat "$tmp/err"; fi
expect_exit 2 "-o /dev/full, a big JSON summary" "$bin" summary --format json -o /dev/full "$tmp/spill/big.jsonl"
contains "$tmp/err" "/dev/full: No space left on device" "-o /dev/full: the reason"
expect_exit 2 "-o a folder, a big JSON summary" "$bin" summary --format json -o "$tmp/spill" "$tmp/spill/big.jsonl"
contains "$tmp/err" "is a folder" "-o a folder: the reason"
if [ ! -s "$tmp/out" ]; then ok; else bad "-o a folder: something was printed"; fi
