# Sourced by tests/e2e/run (its helpers and the ui pane): a big run's load
# progress shows on the status line at once, before the opening message,
# without a key pressed.
bench/gen-recorder-log --lines 20000 --seed 16 "$tmp/big-part.jsonl" > /dev/null
for i in 1 2 3 4 5 6; do cat "$tmp/big-part.jsonl"; done > "$tmp/big-ui.jsonl"
rm -f "$tmp/big-part.jsonl"
keys "clear; $bin $tmp/big-ui.jsonl 2>/dev/null; echo PROGRESS=\$?" Enter
if wait_for "loading " 10; then
    status_row=$(tail -n 1 "$tmp/ui")
    # the progress starts the status line; the preview's opening message follows it
    case "$status_row" in " loading "*) ok ;; *) bad "the progress does not start the status line: [$status_row]" ;; esac
else
    bad "no load progress on the screen before a key"; cat "$tmp/ui"
fi
see "? help" "the big run loads"
wait_gone "loading " || bad "the progress stays after the load"
keys q
see "PROGRESS=0" "q ends the review of the big run"
shell_sane "after the big run"
rm -f "$tmp/big-ui.jsonl"
