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
