# Sourced by tests/e2e/run (its helpers): the conventions a command-line
# program keeps — GNU's usage errors, "sbxview SUB:" prefixes, the short
# usage, colour from the environment, ASCII under a non-UTF-8 locale, themes
# that must load, and dry runs without the service's settings.

# usage ERR_FILE LINE1: stderr is exactly LINE1 and the line pointing to --help
usage_is() {
    printf '%s\nTry '\''sbxview --help'\'' for more information.\n' "$2" > "$tmp/want-usage"
    if cmp -s "$1" "$tmp/want-usage"; then ok; else bad "usage error: wanted"; cat "$tmp/want-usage"; echo "got:"; cat "$1"; fi
}
# an unknown option, in the review and in each sub-command
expect_exit 2 "review: unknown option" "$bin" --frobnicate examples/csv-fix
usage_is "$tmp/err" "sbxview: unrecognized option '--frobnicate'"
for sub in summary check compare fetch export; do
    expect_exit 2 "$sub: unknown option" "$bin" "$sub" --frobnicate=1 examples/csv-fix
    usage_is "$tmp/err" "sbxview $sub: unrecognized option '--frobnicate=1'"
    expect_exit 2 "$sub: unknown short option" "$bin" "$sub" -Z examples/csv-fix
    usage_is "$tmp/err" "sbxview $sub: invalid option -- 'Z'"
done
expect_exit 2 "a short option in a cluster" "$bin" summary -qZ examples/csv-fix
usage_is "$tmp/err" "sbxview summary: invalid option -- 'Z'"
expect_exit 2 "a missing value" "$bin" summary examples/csv-fix --format
usage_is "$tmp/err" "sbxview summary: option '--format' requires an argument"
expect_exit 2 "a missing short value" "$bin" summary examples/csv-fix -f
usage_is "$tmp/err" "sbxview summary: option requires an argument -- 'f'"
expect_exit 2 "an ambiguous prefix" "$bin" summary --t x examples/csv-fix
usage_is "$tmp/err" "sbxview summary: option '--t' is ambiguous"
expect_exit 2 "a value for a flag" "$bin" check --quiet=yes examples/csv-fix
usage_is "$tmp/err" "sbxview check: option '--quiet' doesn't allow an argument"
# a bad value is echoed, with what was expected
expect_exit 2 "summary --format xml" "$bin" summary --format xml examples/csv-fix
usage_is "$tmp/err" "sbxview summary: invalid format 'xml' (expected text, markdown or json)"
expect_exit 2 "compare --format xml" "$bin" compare -f xml examples/csv-fix examples/csv-fix
usage_is "$tmp/err" "sbxview compare: invalid format 'xml' (expected text, markdown or json)"
expect_exit 2 "check --format markdown" "$bin" check --format markdown examples/csv-fix
usage_is "$tmp/err" "sbxview check: invalid format 'markdown' (expected text or json)"
expect_exit 2 "--color" "$bin" summary --color sometimes examples/csv-fix
usage_is "$tmp/err" "sbxview summary: invalid --color 'sometimes' (expected auto, always or never)"
expect_exit 2 "--threads" "$bin" summary -j 0 examples/csv-fix
usage_is "$tmp/err" "sbxview summary: invalid --threads '0' (expected a number from 1 to 64)"
expect_exit 2 "--size" "$bin" --dump --size 80 examples/csv-fix
usage_is "$tmp/err" "sbxview: invalid --size '80' (expected COLSxROWS, like 80x24)"
expect_exit 2 "--jira-api" "$bin" export --to jira:OPS-1 --jira-api 4 examples/csv-fix
usage_is "$tmp/err" "sbxview export: invalid --jira-api '4' (expected 2 (plain text) or 3 (Atlassian Document Format))"
expect_exit 2 "--allow" "$bin" check --allow frobs examples/csv-fix
usage_is "$tmp/err" "sbxview check: invalid --allow kind 'frobs' (expected a finding kind or skipped-lines: see --help)"
expect_exit 2 "a hostile value is sanitised" "$bin" summary --format "$(printf 'x\033]0;pwned\007')" examples/csv-fix
if grep -q "$(printf '\033')" "$tmp/err"; then bad "an escape in a value reached stderr"; else ok; fi
# every sub-command's own errors carry its name
expect_exit 2 "check without input" "$bin" check
usage_is "$tmp/err" "sbxview check: no input given (a run folder, or the logs of a run)"
expect_exit 2 "compare of one run" "$bin" compare examples/csv-fix
contains "$tmp/err" "sbxview compare: compare wants two runs" "compare's error is prefixed"
expect_exit 2 "a missing file" "$bin" check "$tmp/nope"
contains "$tmp/err" "sbxview check: $tmp/nope: No such file" "check's missing file is prefixed"
expect_exit 2 "fetch without a key" env -u RUNTIME_API_KEY "$bin" fetch runtime sb1 -o "$tmp/f"
contains "$tmp/err" "sbxview fetch: RUNTIME_API_KEY is not set" "fetch's error is prefixed"
if grep -v '^sbxview \(summary\|check\|compare\|fetch\|export\): \|^Try ' "$tmp/err" | grep -q .; then
    bad "a line without the prefix:"; cat "$tmp/err"; else ok; fi

# bare sbxview: a short usage (not the whole help), exit 2, on a terminal and not
expect_exit 2 "bare sbxview, stdin not a terminal" "$bin" < /dev/null
lines=$(wc -l < "$tmp/err")
if [ "$lines" -ge 2 ] && [ "$lines" -le 5 ]; then ok; else bad "bare sbxview printed $lines lines"; cat "$tmp/err"; fi
contains "$tmp/err" "Usage: sbxview [OPTIONS] FILE" "the short usage shows the review's form"
contains "$tmp/err" "summary|check|compare|fetch|export" "the short usage names the sub-commands"
contains "$tmp/err" "Try 'sbxview --help' for more information." "the short usage points to --help"
if [ -s "$tmp/out" ]; then bad "bare sbxview wrote to stdout"; else ok; fi
tmux -L "$sock" send-keys -t e2e "clear; $bin; echo B''ARE=\$?" Enter
await "bare sbxview in a terminal" 'cat "$tmp/screen"' shows "$tmp/screen" "BARE="
contains "$tmp/screen" "BARE=2" "bare sbxview in a terminal exits 2"
contains "$tmp/screen" "Try 'sbxview --help'" "bare sbxview in a terminal: the short usage"
if grep -q "Input options" "$tmp/screen"; then bad "bare sbxview printed the whole help"; else ok; fi

# colour: --color decides; else NO_COLOR wins, then CLICOLOR_FORCE forces it into a pipe
esc=$(printf '\033\\[')
colour_case() { # want(yes|no), description, env..., then the summary's options
    local want=$1 what=$2; shift 2
    env "$@" "$bin" summary examples/csv-fix > "$tmp/col" 2>&1
    if grep -q "$esc" "$tmp/col"; then got=yes; else got=no; fi
    if [ "$got" = "$want" ]; then ok; else bad "colour, $what: $got, wanted $want"; fi
}
colour_case yes "CLICOLOR_FORCE=1 into a pipe" -u NO_COLOR CLICOLOR_FORCE=1
colour_case yes "CLICOLOR_FORCE=yes into a pipe" -u NO_COLOR CLICOLOR_FORCE=yes
colour_case no "CLICOLOR_FORCE=0" -u NO_COLOR CLICOLOR_FORCE=0
colour_case no "CLICOLOR_FORCE empty" -u NO_COLOR CLICOLOR_FORCE=
colour_case no "NO_COLOR wins over CLICOLOR_FORCE" NO_COLOR=1 CLICOLOR_FORCE=1
colour_case no "a pipe without either" -u NO_COLOR -u CLICOLOR_FORCE
env CLICOLOR_FORCE=1 "$bin" summary --color never examples/csv-fix > "$tmp/col"
if grep -q "$esc" "$tmp/col"; then bad "--color never lost to CLICOLOR_FORCE"; else ok; fi
env CLICOLOR_FORCE=1 "$bin" summary -o "$tmp/col.txt" examples/csv-fix
if grep -q "$esc" "$tmp/col.txt"; then bad "CLICOLOR_FORCE coloured a file named by -o"; else ok; fi

# a non-UTF-8 locale: every message on stderr is ASCII (typography folded, the rest escaped)
ascii_only() { # file, description
    if LC_ALL=C grep -q '[^ -~]' "$1"; then bad "$2: not ASCII:"; cat -v "$1"; else ok; fi
}
mkdir -p "$tmp/conv-ascii"
printf 'hello\n' > "$tmp/conv-ascii/naïve × → … – notes.txt"
cp examples/csv-fix/agent-run.jsonl "$tmp/conv-ascii/"
LC_ALL=C "$bin" summary "$tmp/conv-ascii" > /dev/null 2> "$tmp/err"
contains "$tmp/err" "x -> ... -" "LANG=C: typographic characters folded"
ascii_only "$tmp/err" "LANG=C summary's warnings"
LC_ALL=C "$bin" check "$tmp/conv-ascii" "$tmp/conv-ascii/m×issing…" > /dev/null 2> "$tmp/err"
ascii_only "$tmp/err" "LANG=C check's errors"
LC_ALL=C "$bin" summary tests/golden/cases/hostile > /dev/null 2> "$tmp/err"
ascii_only "$tmp/err" "LANG=C: the hostile run's warnings"
LC_ALL=C "$bin" summary --format "ü×" examples/csv-fix 2> "$tmp/err"
ascii_only "$tmp/err" "LANG=C: an echoed value"
LC_ALL=C.UTF-8 "$bin" summary "$tmp/conv-ascii" > /dev/null 2> "$tmp/err"
contains "$tmp/err" "naïve × → …" "a UTF-8 locale keeps the characters"

# a theme that is missing or broken is an error everywhere, named with its file and line
mkdir -p "$tmp/xdg/sbxview/themes"
printf '# a broken theme\nstyle heading fuchsia-ish default\n' > "$tmp/xdg/sbxview/themes/broken.theme"
for form in "summary" "summary --color never" "summary -f json" "--dump" "--dump --keys ?"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$form --theme missing" "$bin" $form --theme no-such-theme examples/csv-fix
    contains "$tmp/err" "no theme called no-such-theme" "$form: the missing theme named"
    # shellcheck disable=SC2086
    expect_exit 2 "$form --theme broken" env XDG_CONFIG_HOME="$tmp/xdg" "$bin" $form --theme broken examples/csv-fix
    contains "$tmp/err" "broken.theme: line 2:" "$form: the broken theme's file and line"
done
# (from the user's folder: a binary built outside the top of the tree, as
# the ASan one, has no themes/ beside it)
cp themes/light.theme "$tmp/xdg/sbxview/themes/"
expect_exit 0 "a theme that loads, uncoloured" env XDG_CONFIG_HOME="$tmp/xdg" "$bin" summary --theme light examples/csv-fix

# a dry run without the service's URL shows the request with a placeholder
for case in "jira:OPS-12|JIRA_URL" "slack:|SLACK_WEBHOOK_URL"; do
    to=${case%|*} var=${case#*|}
    expect_exit 0 "export --dry-run --to $to without $var" \
        env -u "$var" -u JIRA_USER -u JIRA_TOKEN "$bin" export --dry-run --to "$to" examples/csv-fix
    contains "$tmp/out" "POST https://<$var unset>/" "dry run to $to: the URL's placeholder"
    contains "$tmp/err" "sbxview export: $var is not set: a real export would stop here" "dry run to $to: the unset URL named"
done
expect_exit 2 "a real export without JIRA_URL" env -u JIRA_URL JIRA_USER=u JIRA_TOKEN=t "$bin" export --to jira:OPS-12 examples/csv-fix
contains "$tmp/err" "JIRA_URL is not set" "a real export still stops"

# one set of finding names: check --allow takes every name model/findings.h gives
names=$(sed -n 's/^ *X([A-Z_]*, [0-9]*, "\([a-z-]*\)".*/\1/p' model/findings.h)
if [ "$(echo "$names" | wc -l)" -ge 15 ]; then ok; else bad "few finding names read: $names"; fi
for n in $names; do
    expect_exit 1 "check --allow $n" "$bin" check --allow "$n" examples/csv-fix
done
# and compare's JSON names only those
"$bin" compare -f json examples/csv-fix tests/golden/cases/hostile > "$tmp/cmp.json"
python3 - "$tmp/cmp.json" $names <<'PY' && ok || bad "compare names a kind check --allow does not know"
import json, sys
doc = json.load(open(sys.argv[1])); known = set(sys.argv[2:])
def kinds(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k == "kind" and isinstance(x, str) and "checked_in_a" in v:
                yield x
            yield from kinds(x)
    elif isinstance(v, list):
        for x in v:
            yield from kinds(x)
found = set(kinds(doc))
assert found and found <= known, (found - known, found)
PY
