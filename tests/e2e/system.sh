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
