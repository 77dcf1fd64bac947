# Sourced by tests/e2e/run: stable event ids and the review of a run
# (docs/review-file.md), on a copy of a real run.

# Ids: the same after the folder moves, its files are renamed and a source
# joins; check, --goto and id: find them.
mkdir -p "$tmp/rv/one"
cp tests/fixtures/story-run/* "$tmp/rv/one/"
expect_exit 1 "check a copy of the story run" "$bin" check "$tmp/rv/one"
sed -n 's/.* id:\([0-9a-z.]*\)$/\1/p' "$tmp/out" | sort > "$tmp/rv/ids-before"
n=$(wc -l < "$tmp/rv/ids-before")
if [ "$n" -ge 3 ]; then ok; else bad "check names $n ids"; cat "$tmp/out"; fi
expect_exit 1 "check as JSON" "$bin" check -f json "$tmp/rv/one"
first=$(head -1 "$tmp/rv/ids-before")
contains "$tmp/out" "\"event\": \"$first\"" "check's JSON names the event id"
mkdir -p "$tmp/rv/elsewhere"
for f in "$tmp"/rv/one/*; do mv "$f" "$tmp/rv/elsewhere/moved-$(basename "$f")"; done
rmdir "$tmp/rv/one"
printf '1780392601.000    120 10.0.0.5 TCP_MISS/200 3900 GET http://example.org/ - HIER_DIRECT/93.184.216.34 text/html\n' \
    > "$tmp/rv/elsewhere/access.log"
"$bin" check "$tmp/rv/elsewhere" 2>/dev/null | sed -n 's/.* id:\([0-9a-z.]*\)$/\1/p' | sort > "$tmp/rv/ids-after"
if cmp -s "$tmp/rv/ids-before" "$tmp/rv/ids-after"; then ok; else
    bad "ids changed when the run moved and a source joined"; diff "$tmp/rv/ids-before" "$tmp/rv/ids-after"; fi
expect_exit 0 "--goto an id" "$bin" --dump --size 100x30 --goto "$first" --keys '\n' "$tmp/rv/elsewhere"
contains "$tmp/out" "Id           $first" "--goto opens on the event (its detail names the id)"
expect_exit 0 "--goto an id that is not there" "$bin" --dump --size 100x12 --goto 0000000000 "$tmp/rv/elsewhere"
contains "$tmp/out" "--goto: no event has the id 0000000000" "a missing id is said"
expect_exit 2 "--goto what is no id" "$bin" --dump --goto 'x;y' "$tmp/rv/elsewhere"
contains "$tmp/err" "--goto wants an event id" "a malformed id is a usage error"
expect_exit 0 "& id:" "$bin" --dump --size 100x12 --keys "&id:${first:0:6}\n" "$tmp/rv/elsewhere"
contains "$tmp/out" "1/1" "& id:PREFIX keeps the one event"
"$bin" summary -f json "$tmp/rv/elsewhere" > "$tmp/rv/sum.json" 2>/dev/null
contains "$tmp/rv/sum.json" "\"id\": \"" "the summary's JSON gives ids"

# The review from scripts: notes, tags, triage and a verdict in the run
# folder's file; nothing written before; usage errors name the bad value.
mkdir -p "$tmp/rv/two"
cp tests/fixtures/story-run/* "$tmp/rv/two/"
rf="$tmp/rv/two/sbxview-review.jsonl"
"$bin" check "$tmp/rv/two" >/dev/null 2>&1
expect_exit 0 "review show of an unreviewed run" "$bin" review show "$tmp/rv/two"
contains "$tmp/out" "Review: not reviewed" "an unreviewed run says so"
if [ -e "$rf" ]; then bad "reading a run wrote its review file"; else ok; fi
"$bin" check -f json "$tmp/rv/two" 2>/dev/null > "$tmp/rv/check.json"
ids=$(python3 -c 'import json,sys; print(" ".join(f["id"] for f in json.load(open(sys.argv[1]))["findings"]))' "$tmp/rv/check.json")
ev=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["findings"][0]["event"])' "$tmp/rv/check.json")
export SBXVIEW_AUTHOR="Ann Reviewer"
expect_exit 0 "review note" "$bin" review note "$tmp/rv/two" "$ev" "first look: widened from inside"
expect_exit 0 "review tag" "$bin" review tag "$tmp/rv/two" "$ev" exfil:maybe
expect_exit 0 "review verdict" "$bin" review verdict "$tmp/rv/two" suspicious --reason "the allow list was widened"
if [ "$(wc -l < "$rf")" = 3 ]; then ok; else bad "three operations, three lines"; cat "$rf"; fi
expect_exit 2 "review with an unknown verb" "$bin" review frob "$tmp/rv/two"
contains "$tmp/err" "no verb called frob" "the bad verb is named"
expect_exit 2 "review triage with an unknown state" "$bin" review triage "$tmp/rv/two" "${ids%% *}" fine --reason x
contains "$tmp/err" "no triage state called fine" "the bad state is named"
expect_exit 2 "review triage without a reason" "$bin" review triage "$tmp/rv/two" "${ids%% *}" benign
contains "$tmp/err" "triage needs --reason" "a triage needs its reason"
expect_exit 2 "review note on an id the run lacks" "$bin" review note "$tmp/rv/two" 0000000000 "x"
contains "$tmp/err" "the run has no event 0000000000" "the missing id is named"
expect_exit 2 "review note on what is no id" "$bin" review note "$tmp/rv/two" 'x;y' "x"
contains "$tmp/err" "not an event id: x;y" "the malformed id is named"
# a second reviewer in a file of her own, then both concatenated
expect_exit 0 "a second reviewer's note" env SBXVIEW_AUTHOR="Bob Second" \
    "$bin" review note --review "$tmp/rv/bob.jsonl" "$tmp/rv/two" "$ev" "bob agrees"
cat "$tmp/rv/bob.jsonl" >> "$rf"
printf 'this line is garbled {\n' >> "$rf"
expect_exit 0 "review show -f json of two reviewers" "$bin" review show -f json "$tmp/rv/two"
contains "$tmp/out" "first look: widened from inside" "the first reviewer's note"
contains "$tmp/out" "bob agrees" "the second reviewer's note"
contains "$tmp/out" '"state": "suspicious"' "the verdict"
contains "$tmp/err" "sbxview-review.jsonl:5: not JSON" "the garbled line is named with its number"
# moved elsewhere, a source added: every item still on its event
mv "$tmp/rv/two" "$tmp/rv/moved"
printf '1780392601.000    120 10.0.0.5 TCP_MISS/200 3900 GET http://example.org/ - HIER_DIRECT/93.184.216.34 text/html\n' \
    > "$tmp/rv/moved/access.log"
expect_exit 0 "review show after the move" "$bin" review show -f json "$tmp/rv/moved"
if grep -q '"orphaned": true' "$tmp/out"; then bad "an item lost its event after the move"; cat "$tmp/out"; else ok; fi
contains "$tmp/out" '"state": "done"' "the review is done (a verdict)"
expect_exit 1 "check a moved run does not read the review as a log" "$bin" check "$tmp/rv/moved"
if grep -q "sbxview-review.jsonl:[0-9]*) id:\|unread-file.*sbxview-review" "$tmp/out"; then
    bad "the review file was taken for a log"; cat "$tmp/out"; else ok; fi
# a note holding a token: never printed raw
tok="ghp_Rv7Kp7Wq2Zx9Lm4Np6Rt1Vw3Xy5Za7BcDe9G"
expect_exit 0 "a note holding a token" "$bin" review note --author "Carl Third" "$tmp/rv/moved" "$ev" "pasted $tok by mistake"
for f in text markdown json; do
    "$bin" review show -f "$f" "$tmp/rv/moved" > "$tmp/rv/show.$f" 2>&1
    if grep -q "$tok" "$tmp/rv/show.$f"; then bad "review show -f $f printed the token"; else ok; fi
done
# the summary and the export carry the review: the verdict and each note
expect_exit 0 "summary -f json with a review" "$bin" summary -f json "$tmp/rv/moved"
for want in '"state": "suspicious"' "the allow list was widened" "first look: widened from inside" "bob agrees"; do
    contains "$tmp/out" "$want" "the summary's JSON has the review's $want"
done
expect_exit 0 "summary text with a review" "$bin" summary --width 300 "$tmp/rv/moved"
contains "$tmp/out" "Review:    done; verdict suspicious by Ann Reviewer: the allow list was widened" "the text's Review line"
expect_exit 0 "export with a review" "$bin" export --to file:- "$tmp/rv/moved"
contains "$tmp/out" "### Review" "the export's Review part"
for want in "the allow list was widened" "first look: widened from inside" "bob agrees"; do
    contains "$tmp/out" "$want" "the exported body has $want"
done
if grep -q "$tok" "$tmp/out"; then bad "the export printed the note's token"; else ok; fi
unset SBXVIEW_AUTHOR

# check honours the review: 1 untriaged, 0 once every finding is triaged
# benign with a reason, 1 again with --ignore-review; a triage covers its
# one finding, not the same kind on another event.
mkdir -p "$tmp/rv/gate"
cp tests/fixtures/story-run/* "$tmp/rv/gate/"
expect_exit 1 "check an untriaged run" "$bin" check -f json "$tmp/rv/gate"
gate_ids=$(python3 -c 'import json,sys; print(" ".join(f["id"] for f in json.load(open(sys.argv[1]))["findings"]))' "$tmp/out")
sys_ids=$(python3 -c 'import json,sys; print(" ".join(f["id"] for f in json.load(open(sys.argv[1]))["findings"] if f["kind"]=="system-file-change"))' "$tmp/out")
n_sys=$(echo "$sys_ids" | wc -w)
if [ "$n_sys" -ge 2 ]; then ok; else bad "the story run has $n_sys system-file-change findings, wanted two"; fi
for id in $gate_ids; do
    [ "$id" = "${sys_ids%% *}" ] && continue # one left out: the same kind on another event
    "$bin" review -q triage --author "CI" "$tmp/rv/gate" "$id" benign --reason "known in this fixture" || bad "triage $id"
done
expect_exit 1 "the same kind on another event is not covered" "$bin" check "$tmp/rv/gate"
sys_first=${sys_ids%% *}
contains "$tmp/out" "id:${sys_first%%/*}" "the untriaged one still fails"
"$bin" review -q triage --author "CI" "$tmp/rv/gate" "${sys_ids%% *}" expected --reason "hosts pinned by the image"
expect_exit 0 "check once every finding is triaged" "$bin" check "$tmp/rv/gate"
contains "$tmp/out" "triaged             ${sys_ids%% *} triaged expected by CI: hosts pinned by the image" "the triage is listed with who and why"
expect_exit 0 "check -f json once triaged" "$bin" check -f json "$tmp/rv/gate"
contains "$tmp/out" '"findings": []' "no finding left"
contains "$tmp/out" '"reason": "hosts pinned by the image"' "the JSON lists the triage's reason"
expect_exit 1 "check --ignore-review" "$bin" check --ignore-review "$tmp/rv/gate"
# suspicious is no clearance; neither is a triage without a reason
"$bin" review -q triage --author "CI" "$tmp/rv/gate" "${sys_ids%% *}" suspicious --reason "look again"
expect_exit 1 "a suspicious triage fails the gate" "$bin" check "$tmp/rv/gate"
printf '{"sbxview_review":1,"op":"triage","at":"2099-01-01T00:00:00Z","author":"x","item":"%s","state":"benign"}\n' \
    "${sys_ids%% *}" >> "$tmp/rv/gate/sbxview-review.jsonl"
expect_exit 1 "a triage without a reason does not clear" "$bin" check "$tmp/rv/gate"
