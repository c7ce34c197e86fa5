#!/bin/sh
# The commands the soak runs under `presenter-host run` (sh workload.sh KIND ...).
# Each ends by itself, leaves nothing running, and exits with STATUS:
#
#   sleep SECONDS STATUS          waits, then exits
#   lines COUNT SECONDS STATUS    COUNT numbered lines on stdout and stderr, then waits
#   torrent BYTES STATUS          BYTES of output as fast as the host takes them
#                                 (stdout, and a tenth of it on stderr)
#   progress COUNT STATUS         COUNT progress lines on $PRESENTER_PROGRESS_FD as
#                                 fast as they go: fractions, percentages, done/total,
#                                 JSON with messages, and a few bad lines
#   children SECONDS STATUS       a chain of shells that waits in its last child, all in
#                                 the foreground (a tree for signals and --timeout to
#                                 reach; a background child would ignore Ctrl-C, as sh
#                                 makes it, and outlive the command by its own choice)
#   quick STATUS                  exits at once
#
# With SOAK_NOTIFY (a FIFO the soak reads), it writes "start" there first and
# "end" when it exits: the soak's moments "the command runs" and "its outcome
# is shown".
set -u
kind=$1
shift
notify() { if [ -n "${SOAK_NOTIFY:-}" ]; then echo "$1" >"$SOAK_NOTIFY"; fi; }
notify start
trap 'notify end' EXIT

case $kind in
sleep)
    sleep "$1"
    exit "$2"
    ;;
lines)
    seq 1 "$1" | sed 's/^/line /'
    seq 1 "$1" | sed 's/^/error /' >&2
    sleep "$2"
    exit "$3"
    ;;
torrent)
    head -c "$1" /dev/zero | tr '\0' 'x' | fold -w 100
    head -c $(($1 / 10)) /dev/zero | tr '\0' 'e' | fold -w 100 >&2
    exit "$2"
    ;;
progress)
    if [ -n "${PRESENTER_PROGRESS_FD:-}" ]; then
        awk -v count="$1" 'BEGIN {
            for (i = 0; i < count; i++) {
                if (i % 4 == 0) printf "%d/%d\n", i, count
                else if (i % 4 == 1) printf "%.3f\n", i / count
                else if (i % 4 == 2) printf "%d%%\n", int(100 * i / count)
                else printf "{\"progress\": %.4f, \"message\": \"Step %d\"}\n", i / count, i
                if (i % 997 == 0) print "not a progress line"
            }
        }' >&"$PRESENTER_PROGRESS_FD"
    fi
    exit "$2"
    ;;
children)
    sh -c 'sh -c "sleep $0; exit 0"; exit 0' "$1"
    exit "$2"
    ;;
quick)
    exit "$1"
    ;;
*)
    echo "workload.sh: unknown kind '$kind'" >&2
    exit 2
    ;;
esac
