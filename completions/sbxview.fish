# fish completion for sbxview: sub-commands, options, their values (formats,
# theme names, finding kinds, targets) and files. Each command's options here
# are checked against the program's own option table by
# tests/unit/test_cli_docs.c, and the completion is driven by
# tests/completions/run.

# The command the line is for: a sub-command, or "view" (the review).
function __sbxview_cmd
    set -l words (commandline -opc)
    if test (count $words) -ge 2; and contains -- $words[2] summary check compare fetch export review runs index
        echo $words[2]
    else
        echo view
    end
end

function __sbxview_in
    contains -- (__sbxview_cmd) $argv
end

function __sbxview_first
    test (count (commandline -opc)) -eq 1
end

# Theme names, from where sbxview looks: the user's folder, the installed one
# (PREFIX/share/sbxview/themes beside PREFIX/bin/sbxview) and themes/ beside
# a binary that is not installed.
function __sbxview_themes
    set -l dirs ~/.config/sbxview/themes
    if test -n "$XDG_CONFIG_HOME"
        set dirs $XDG_CONFIG_HOME/sbxview/themes
    end
    set -l bin (command -v sbxview)
    if test -n "$bin"
        set -l here (dirname (realpath $bin))
        set -a dirs $here/../share/sbxview/themes $here/themes
    end
    for f in $dirs/*.theme
        basename $f .theme
    end | sort -u
end

# --allow's comma-separated kinds: the ones after what is typed so far.
function __sbxview_kinds
    set -l done (string replace -r '[^,]*$' '' -- (commandline -ct))
    for k in account-change removed-from-log outside-wrapper unwrapped missing-from-record exit-mismatch log-tampering hosts-redirect piped-to-shell metadata-endpoint credential-read persistence refused-host unlisted-host account-audit secret bad-signature hash-mismatch tls-off url-install system-file-change hidden-text field-twice timed-out failed bad-field skipped-lines
        echo $done$k
    end
end

complete -c sbxview -n __sbxview_first -a 'summary check compare fetch export review runs index' -d sub-command
complete -c sbxview -n '__sbxview_in fetch' -a runtime -d "Runtime's records"

complete -c sbxview -n '__sbxview_in view' -l local -d 'times in the local zone'
complete -c sbxview -n '__sbxview_in view summary runs' -l theme -x -a '(__sbxview_themes)' -d 'colours from a theme'
complete -c sbxview -n '__sbxview_in view runs' -l no-mouse -d 'leave the mouse to the terminal'
complete -c sbxview -n '__sbxview_in view' -s F -l follow -d 'follow the files as they grow'
complete -c sbxview -n '__sbxview_in view runs' -l dump -d 'print the screen instead of showing it'
complete -c sbxview -n '__sbxview_in view' -l dump-styles -d 'with --dump, the styles of each row'
complete -c sbxview -n '__sbxview_in view runs' -l size -x -d 'COLSxROWS for --dump'
complete -c sbxview -n '__sbxview_in view runs' -l keys -x -d 'keys to press before --dump prints'
complete -c sbxview -n '__sbxview_in view' -l first-screen -d 'with --dump, the first screen of a big input'

complete -c sbxview -n '__sbxview_in view summary check compare export runs' -s j -l threads -x -d threads
complete -c sbxview -n '__sbxview_in view summary check compare export runs' -l as -x -a 'auto recorder runtime-commands runtime-events runtime-audit runtime-metrics runtime-webhooks sandboxio otlp squid manifest diff' -d 'read the inputs after it as FORMAT'
complete -c sbxview -n '__sbxview_in view summary check compare export runs' -l allow-list -r -F -d 'the hosts the run may reach'
complete -c sbxview -n '__sbxview_in view summary check compare export runs' -l skew -x -d 'SOURCE=OFFSET'
complete -c sbxview -n '__sbxview_in view summary check compare export runs' -l max-input -x -d 'the most a stream may hold'
complete -c sbxview -n '__sbxview_in summary check compare fetch export review' -s q -l quiet -d 'no progress or warnings'
complete -c sbxview -n '__sbxview_in view summary check compare fetch export review runs index' -s h -l help -d 'the help'

complete -c sbxview -n '__sbxview_in summary compare' -s f -l format -x -a 'text markdown json' -d 'the output format'
complete -c sbxview -n '__sbxview_in summary compare' -s o -l output -r -F -d 'write to a file'
complete -c sbxview -n '__sbxview_in summary' -l color -x -a 'auto always never' -d colour
complete -c sbxview -n '__sbxview_in summary' -l colour -x -a 'auto always never' -d colour
complete -c sbxview -n '__sbxview_in summary' -l width -x -d 'wrap at N columns'

complete -c sbxview -n '__sbxview_in check' -s f -l format -x -a 'text json' -d 'the output format'
complete -c sbxview -n '__sbxview_in check' -s a -l allow -x -a '(__sbxview_kinds)' -d 'kinds that do not fail the check'
complete -c sbxview -n '__sbxview_in check' -l require -x -a 'record wrapper record,wrapper' -d 'sources that must be there'

complete -c sbxview -n '__sbxview_in fetch' -s o -l output -x -a '(__fish_complete_directories)' -d 'the run folder to save into'
complete -c sbxview -n '__sbxview_in fetch' -l force -d 'replace runtime-* files'
complete -c sbxview -n '__sbxview_in fetch' -l deadline -x -d 'seconds a request may keep retrying'
complete -c sbxview -n '__sbxview_in fetch export' -l timeout -x -d "one request's time limit"
complete -c sbxview -n '__sbxview_in fetch' -l connect-timeout -x -d 'seconds to connect'
complete -c sbxview -n '__sbxview_in fetch' -l metrics-range -x -a '15m 1h 6h 24h 7d 30d' -d 'the metrics range'
complete -c sbxview -n '__sbxview_in fetch' -s v -l verbose -d "libcurl's trace"

complete -c sbxview -n '__sbxview_in export' -s t -l to -r -a 'file: github: gitlab: jira: slack:' -d 'where the summary goes'
complete -c sbxview -n '__sbxview_in export' -l include-output -d "the end of each failed command's output"
complete -c sbxview -n '__sbxview_in export' -l dry-run -d 'print the request without sending'
complete -c sbxview -n '__sbxview_in export' -l jira-api -x -a '2 3' -d "Jira's REST API"
complete -c sbxview -n '__sbxview_in export' -l repost -d 'post even when the marker is there'

complete -c sbxview -n '__sbxview_in view' -l goto -x -d 'open on the event with this id'
complete -c sbxview -n '__sbxview_in summary' -l story -d 'the whole story'
complete -c sbxview -n '__sbxview_in view summary check export review' -l review -r -F -d 'the review file'
complete -c sbxview -n '__sbxview_in check' -l ignore-review -d 'the gate without the review'
complete -c sbxview -n '__sbxview_in review' -a 'show note tag triage verdict' -d 'what to do'
complete -c sbxview -n '__sbxview_in review' -s f -l format -x -a 'text markdown json' -d 'the output format'
complete -c sbxview -n '__sbxview_in review' -l reason -x -d 'why (triage and verdict)'
complete -c sbxview -n '__sbxview_in view review' -l author -x -d 'who writes it'
complete -c sbxview -n '__sbxview_in view summary check compare export runs' -l endpoint -x -d 'the S3-compatible store of s3:// inputs'
complete -c sbxview -n '__sbxview_in runs' -l from -r -F -d 'the file that names the runs'
complete -c sbxview -n '__sbxview_in index' -s q -l quiet -d 'no progress'
complete -c sbxview -n '__sbxview_in index' -l endpoint -x -d 'the S3-compatible store of s3:// inputs'
