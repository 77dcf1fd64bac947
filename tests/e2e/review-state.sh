# Sourced by tests/e2e/run: where the review file goes when the run folder
# cannot be written (docs/review-file.md, "Where it lives"):
# $XDG_STATE_HOME/sbxview/reviews/DIGEST.jsonl, else
# ~/.local/state/sbxview/reviews/DIGEST.jsonl, and nothing at all before the
# reviewer acts. Root writes any folder, so the condition is made real: the
# binary runs as nobody (setpriv) on a copy of the run owned by root, mode
# 0555; as another user the 0555 folder is enough.
rs=$(mktemp -d)
chmod 0755 "$rs"
mkdir -p "$rs/run" "$rs/state" "$rs/home"
cp tests/fixtures/story-run/* "$rs/run/"
cp "$bin" "$rs/sbxview"
chmod 0444 "$rs"/run/*
chmod 0555 "$rs/run"
as=()
if [ "$(id -u)" != 0 ]; then
    : # an ordinary user cannot write a 0555 folder of root's
elif setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
    as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
    chown nobody "$rs/state" "$rs/home"
else
    rs_skip="neither setpriv to nobody nor an unprivileged user"
fi
if [ -n "${rs_skip:-}" ]; then
    echo "review state folder: skipped ($rs_skip)"
else
    # as the reviewer would run it: their HOME, no state folder set
    rsx() { "${as[@]}" env -u XDG_STATE_HOME HOME="$rs/home" SBXVIEW_AUTHOR=Ann "$rs/sbxview" "$@"; }
    rsx_state() { "${as[@]}" env XDG_STATE_HOME="$1" HOME="$rs/home" SBXVIEW_AUTHOR=Ann "$rs/sbxview" "${@:2}"; }
    if "${as[@]}" touch "$rs/run/probe" 2>/dev/null; then
        bad "review state: the run folder is writable as the test's user"
    else
        ok
    fi
    expect_exit 0 "review state: the run digest" "$rs/sbxview" export --to file:- "$rs/run"
    digest=$(sed -n 's/^Run digest: `\([0-9a-f]\{64\}\)`$/\1/p' "$tmp/out")
    if [ ${#digest} = 64 ]; then ok; else bad "review state: no run digest in the export"; fi
    ev=$("$rs/sbxview" check -f json "$rs/run" 2>/dev/null |
         python3 -c 'import json,sys; print(json.load(sys.stdin)["findings"][0]["event"])')
    fid=$("$rs/sbxview" check -f json "$rs/run" 2>/dev/null |
         python3 -c 'import json,sys; f=json.load(sys.stdin)["findings"][0]; print(f["id"])')
    listing() { find "$rs/run" "$rs/state" "$rs/home" -printf '%p %s %T@\n' | sort; }
    listing >"$tmp/rs-before"
    # reading writes nothing anywhere
    expect_exit 0 "review state: review show, read-only folder" rsx review show "$rs/run"
    contains "$tmp/out" "not reviewed" "review state: an unreviewed run"
    expect_exit 1 "review state: check, read-only folder" rsx check "$rs/run"
    expect_exit 0 "review state: summary, read-only folder" rsx summary "$rs/run"
    expect_exit 0 "review state: the review, read-only folder" rsx --dump --size 100x20 --keys 'q' "$rs/run"
    expect_exit 0 "review state: review show with a state folder" rsx_state "$rs/state" review show "$rs/run"
    listing >"$tmp/rs-after"
    if cmp -s "$tmp/rs-before" "$tmp/rs-after"; then ok; else
        bad "review state: a command that only reads wrote:"; diff "$tmp/rs-before" "$tmp/rs-after"; fi
    # the first note: under ~/.local/state (no XDG_STATE_HOME)
    expect_exit 0 "review state: a note, no XDG_STATE_HOME" rsx review note "$rs/run" "$ev" "home-note"
    home_file="$rs/home/.local/state/sbxview/reviews/$digest.jsonl"
    contains "$home_file" '"text":"home-note"' "review state: the note under ~/.local/state, named by the run digest"
    [ ! -e "$rs/run/sbxview-review.jsonl" ] && ok || bad "review state: a review file in the read-only run folder"
    expect_exit 0 "review state: the note read back" rsx review show "$rs/run"
    contains "$tmp/out" "home-note" "review state: review show reads the state folder's file"
    # a relative XDG_STATE_HOME is not one (the XDG rule): the default again
    expect_exit 0 "review state: a relative XDG_STATE_HOME" rsx_state "rel/state" review note "$rs/run" "$ev" "second-note"
    contains "$home_file" '"text":"second-note"' "review state: a relative XDG_STATE_HOME is ignored"
    # XDG_STATE_HOME set: there, and only there
    expect_exit 0 "review state: a triage with XDG_STATE_HOME" \
        rsx_state "$rs/state" review triage "$rs/run" "$fid" benign --reason "a test key"
    state_file="$rs/state/sbxview/reviews/$digest.jsonl"
    contains "$state_file" '"op":"triage"' "review state: the triage under \$XDG_STATE_HOME/sbxview/reviews"
    if grep -q triage "$home_file"; then bad "review state: the triage went to the default too"; else ok; fi
    [ ! -e "$rs/run/sbxview-review.jsonl" ] && ok || bad "review state: a review file in the run folder after a triage"
    # a run folder that can be written takes the review again
    cp -r "$rs/run" "$rs/open" && chmod 0777 "$rs/open"
    expect_exit 0 "review state: a note in a writable folder" rsx_state "$rs/state" review note "$rs/open" "$ev" "open-note"
    contains "$rs/open/sbxview-review.jsonl" '"text":"open-note"' "review state: a writable run folder holds its review"
fi
chmod -R u+w "$rs" 2>/dev/null
rm -rf "$rs"
