# bash completion for sbxview                               -*- shell-script -*-
# Sub-commands, options, their values (formats, theme names, finding kinds,
# targets) and files. Each command's options here are checked against the
# program's own option table by tests/unit/test_cli_docs.c, and the
# completion is driven by tests/completions/run.

# The options of a command ("view": the review, no sub-command given).
_sbxview_options() {
    case $1 in
    view) echo "--local --theme --no-mouse -F --follow --dump --dump-styles --size --keys --first-screen --goto --review --author -j --threads --as --allow-list --skew --max-input --endpoint -h --help" ;;
    summary) echo "-f --format -o --output --color --colour --theme --width --review --story -j --threads -q --quiet --as --allow-list --skew --max-input --endpoint -h --help" ;;
    check) echo "-f --format -a --allow --require --review --ignore-review -j --threads -q --quiet --as --allow-list --skew --max-input --endpoint -h --help" ;;
    compare) echo "-f --format -o --output -j --threads -q --quiet --as --allow-list --skew --max-input --endpoint -h --help" ;;
    fetch) echo "-o --output --force --deadline --timeout --connect-timeout --metrics-range -v --verbose -q --quiet -h --help" ;;
    export) echo "-t --to --include-output --dry-run --jira-api --timeout --repost --review -j --threads -q --quiet --as --allow-list --skew --max-input --endpoint -h --help" ;;
    review) echo "-f --format --reason --review --author -q --quiet -h --help" ;;
    index) echo "-q --quiet --endpoint -h --help" ;;
    runs) echo "--from --theme --no-mouse --dump --size --keys -j --threads --as --allow-list --skew --max-input --endpoint -h --help" ;;
    esac
}

_sbxview_subcommands="summary check compare fetch export review runs index"
_sbxview_formats="auto recorder runtime-commands runtime-events runtime-audit runtime-metrics runtime-webhooks sandboxio otlp squid manifest diff"
_sbxview_kinds="account-change removed-from-log outside-wrapper unwrapped missing-from-record exit-mismatch log-tampering hosts-redirect piped-to-shell metadata-endpoint credential-read persistence refused-host unlisted-host account-audit secret bad-signature hash-mismatch tls-off url-install system-file-change hidden-text field-twice timed-out failed bad-field skipped-lines"

# The theme names, from where sbxview looks: the user's folder, the installed
# one (PREFIX/share/sbxview/themes beside PREFIX/bin/sbxview) and themes/
# beside a binary that is not installed.
_sbxview_themes() {
    local bin d f
    local -a dirs=("${XDG_CONFIG_HOME:-$HOME/.config}/sbxview/themes")
    bin=$(type -P sbxview 2>/dev/null)
    if [[ -n $bin ]]; then
        bin=$(readlink -f -- "$bin" 2>/dev/null || printf '%s' "$bin")
        dirs+=("${bin%/*}/../share/sbxview/themes" "${bin%/*}/themes")
    fi
    for d in "${dirs[@]}"; do
        for f in "$d"/*.theme; do
            [[ -f $f ]] || continue
            f=${f##*/}
            printf '%s\n' "${f%.theme}"
        done
    done | sort -u
}

# COMPREPLY from the words given that start with cur.
_sbxview_words() {
    mapfile -t COMPREPLY < <(compgen -W "$1" -- "$2")
}

# Files (names with spaces kept whole).
_sbxview_files() {
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$1")
}

_sbxview() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd=view
    if ((COMP_CWORD > 1)); then
        case " $_sbxview_subcommands " in *" ${COMP_WORDS[1]} "*) cmd=${COMP_WORDS[1]} ;; esac
    fi
    # --opt=value: bash splits it at "=" (COMP_WORDBREAKS), or it comes whole
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
    fi
    case $prev in
    --theme) _sbxview_words "$(_sbxview_themes)" "$cur"; return ;;
    --as) _sbxview_words "$_sbxview_formats" "$cur"; return ;;
    -f | --format)
        if [[ $cmd == check ]]; then _sbxview_words "text json" "$cur"
        else _sbxview_words "text markdown json" "$cur"; fi
        return ;;
    --color | --colour) _sbxview_words "auto always never" "$cur"; return ;;
    -a | --allow) # a comma-separated list: the kind after the last comma
        local done=
        [[ $cur == *,* ]] && done=${cur%,*},
        _sbxview_words "$_sbxview_kinds" "${cur##*,}"
        COMPREPLY=("${COMPREPLY[@]/#/$done}")
        return ;;
    --require) _sbxview_words "record wrapper" "$cur"; return ;;
    --jira-api) _sbxview_words "2 3" "$cur"; return ;;
    --metrics-range) _sbxview_words "15m 1h 6h 24h 7d 30d" "$cur"; return ;;
    -t | --to)
        if [[ $cur == *:* ]]; then _sbxview_files "$cur"
        else _sbxview_words "file: github: gitlab: jira: slack:" "$cur"; compopt -o nospace 2>/dev/null; fi
        return ;;
    --review | --from) _sbxview_files "$cur"; return ;;
    --reason | --author | --goto | --endpoint) COMPREPLY=(); return ;; # a value to type
    -o | --output | --allow-list)
        if [[ $cmd == fetch ]]; then
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        else _sbxview_files "$cur"; fi
        return ;;
    --size | --keys | -j | --threads | --width | --skew | --max-input | --timeout | --deadline | --connect-timeout)
        COMPREPLY=() # a value to type
        return ;;
    esac
    if [[ $cur == -* ]]; then
        _sbxview_words "$(_sbxview_options "$cmd")" "$cur"
    elif ((COMP_CWORD == 1)); then
        _sbxview_files "$cur"
        local -a subs
        mapfile -t subs < <(compgen -W "$_sbxview_subcommands" -- "$cur")
        COMPREPLY+=("${subs[@]}")
    elif [[ $cmd == fetch ]] && ((COMP_CWORD == 2)); then
        _sbxview_words "runtime" "$cur"
    elif [[ $cmd == review ]] && ((COMP_CWORD == 2)); then
        _sbxview_words "show note tag triage verdict" "$cur"
    else
        _sbxview_files "$cur"
    fi
}
complete -F _sbxview sbxview
