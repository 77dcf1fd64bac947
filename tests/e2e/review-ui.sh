# Sourced by tests/e2e/run: the review from the interface (docs/review-file.md,
# "What the interface writes"), in the ui pane, on a copy of a real run:
# mark, a note typed inline, a note from $EDITOR, a tag, a triage and the
# verdict; quit; move the run folder and add a source; reopen: everything is
# back on the same events. A note holding a token is never shown raw.
rvt="ghp_Ui5Kp7Wq2Zx9Lm4Np6Rt1Vw3Xy5Za7BcDe9Q"
mkdir -p "$tmp/rvui/one"
cp tests/fixtures/story-run/* "$tmp/rvui/one/"
rvf="$tmp/rvui/one/sbxview-review.jsonl"
# the editor: writes two lines into the file it is given, as a person would
cat > "$tmp/rvui/editor" <<'SH'
#!/bin/sh
# (while the hold file is there it waits on the terminal instead, for ^C)
if [ -e "${0%/*}/hold" ]; then echo EDITOR-HOLDING; read -r line; exit 0; fi
printf 'from the editor\nsecond line of it\n\n' > "$1"
SH
chmod +x "$tmp/rvui/editor"
keys "clear; unset VISUAL; SBXVIEW_AUTHOR='Eve Ui' EDITOR='$tmp/rvui/editor' $bin $tmp/rvui/one 2>/dev/null; echo RQUIT=\$?" Enter
see "the heaviest finding" "the review opens on the story run's heaviest finding"
if [ -e "$rvf" ]; then bad "opening the run wrote its review file"; else ok; fi
# the event the run opened on, by its id (the detail names it)
keys Enter
see "Id    " "the detail of the opening event"
first=$(sed -n 's/^Id  *\([0-9a-z.]*\).*/\1/p' "$tmp/ui" | head -1)
keys q
step "/21  ? help" "back in the timeline"
keys m a
see "marked a" "m then a letter marks"
see "a  !" "the mark's letter shows in the review column"
keys a
see "note (Enter saves" "a opens the note editor in the status line"
keys -l "inline note $rvt here"
see "inline note ghp_" "the typed note shows"
unseen "$rvt" "the token typed into a note is masked on screen"
keys Enter
see "note written to the review" "Enter saves the note"
keys Enter
see "Note         by Eve Ui," "the detail gives the note, after the id"
see "by Eve Ui," "the note with its author and time"
unseen "$rvt" "the detail masks the note's token"
keys q
step "/21  ? help" "back in the timeline"
# the next row: a note from $EDITOR and a tag
keys j
keys A
see "note written to the review" "the note from the editor is written"
keys t
see "tags (-tag" "t opens the tag editor"
keys -l "e2e:tagged"
keys Enter
see "1 tag added" "the tag is written"
# ^C in the editor is the editor's: it ends, nothing is written, sbxview goes on
touch "$tmp/rvui/hold"
keys A
see "EDITOR-HOLDING" "the editor runs on the terminal"
keys C-c
see "rvui/editor) failed" "^C ends the editor, not sbxview: it failed, nothing written"
rm "$tmp/rvui/hold"
# back to the mark: triage its first finding, then the verdict
keys "'" a
keys T
see "triage which finding?" "an event with two findings asks which"
keys 1
see "benign, e expected" "then the state"
keys b
see "benign, because:" "then why"
keys -l "the allow list change was ours"
keys Enter
see "triaged benign" "the triage is written"
keys V
see "the run's verdict:" "V asks for the verdict"
keys s
keys -l "paste host reached after the change"
keys Enter
see "verdict suspicious written" "the verdict is written"
keys R
see "Review: done" "R: the review view"
see "Verdict: suspicious by Eve Ui" "the verdict with its author"
see "Notes (2)" "both notes"
unseen "$rvt" "the review view masks the token"
keys q
step "/21  ? help" "back in the timeline"
keys q
see "RQUIT=0" "q quits"
shell_sane "after the review"
n=$(wc -l < "$rvf")
if [ "$n" = 6 ]; then ok; else bad "six operations written, $n lines"; cat "$rvf"; fi
if grep -q "\"op\":\"mark\",.*\"item\":\"$first\"" "$rvf"; then ok; else bad "the mark names the opening event $first"; cat "$rvf"; fi
if grep -q "\"text\":\"from the editor\\\\nsecond line of it\"" "$rvf"; then ok; else
    bad "the editor's note (its trailing blank line dropped)"; cat "$rvf"; fi
# move the folder, rename its files, add a source: the same review, on the
# same events, none orphaned
expect_exit 0 "review show before the move" "$bin" review show -f json "$tmp/rvui/one"
cp "$tmp/out" "$tmp/rvui/before.json"
mkdir -p "$tmp/rvui/moved"
mv "$tmp/rvui/one" "$tmp/rvui/moved/elsewhere"
for f in "$tmp"/rvui/moved/elsewhere/*; do
    case "$f" in *sbxview-review.jsonl) ;; *) mv "$f" "$(dirname "$f")/renamed-$(basename "$f")" ;; esac
done
printf '1780392601.000    120 10.0.0.5 TCP_MISS/200 3900 GET http://example.org/ - HIER_DIRECT/93.184.216.34 text/html\n' \
    > "$tmp/rvui/moved/elsewhere/access.log"
expect_exit 0 "review show after the move" "$bin" review show -f json "$tmp/rvui/moved/elsewhere"
if python3 - "$tmp/rvui/before.json" "$tmp/out" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def items(d):
    out = []
    for k, v in d.items():
        if isinstance(v, list):
            out += [(k, x.get("item"), x.get("text"), x.get("tag"), x.get("state"), x.get("orphaned")) for x in v if isinstance(x, dict)]
    return sorted(map(str, out))
assert items(a) == items(b), (items(a), items(b))
PY
then ok; else bad "the review's items moved with the run"; fi
expect_exit 0 "review show (text) after the move" "$bin" review show "$tmp/rvui/moved/elsewhere"
if grep -q "orphaned" "$tmp/out"; then bad "an item was orphaned by the move"; cat "$tmp/out"; else ok; fi
contains "$tmp/out" "Marked $first" "the mark names the same event after the move"
keys "clear; $bin $tmp/rvui/moved/elsewhere 2>/dev/null; echo RQUIT2=\$?" Enter
see "the heaviest finding" "the moved run opens"
see "*+ !" "the mark from the file and what is written show in the column"
keys R
see "Verdict: suspicious by Eve Ui" "the verdict is back"
see "Triage (1)" "the triage is back"
see "Notes (2)" "the notes are back"
see "Tags (1)" "the tag is back"
see "Marks (1)" "the mark is back"
unseen "orphaned" "nothing is orphaned"
# Enter on the triage (the first line) goes to its event: the one marked
keys Enter
step "/22  ? help" "back in the timeline on the triaged event"
keys Enter
see "Id           $first" "the triaged event is the one the run opened on"
see "Triage" "its detail shows the triage"
see "the allow list change was ours" "with its reason"
see "Marked" "and the mark"
keys j
keys q
keys q
see "RQUIT2=0" "q quits the moved run"
shell_sane "after the moved run"
# a review file that cannot be read or written: said in the status line
# (nothing printed over the interface), and a key that would write says why
mkdir -p "$tmp/rvui/bad/sbxview-review.jsonl"
cp tests/fixtures/story-run/* "$tmp/rvui/bad/"
keys "clear; $bin $tmp/rvui/bad 2>$tmp/rvui/bad.err; echo RQUIT3=\$?" Enter
see "the review file could not be read" "an unreadable review file is said in the status line"
keys m a
see "sbxview-review.jsonl: Is a directory" "a mark that cannot be written says why"
keys q
see "RQUIT3=0" "q quits"
if [ -s "$tmp/rvui/bad.err" ]; then bad "the interface printed on stderr:"; cat "$tmp/rvui/bad.err"; else ok; fi
shell_sane "after the unwritable review"
