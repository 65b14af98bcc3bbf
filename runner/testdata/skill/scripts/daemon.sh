#!/bin/bash
# Starts a daemon with setsid, which leaves the script's process group and
# session; the daemon writes its pid to the file $1 (written whole, so that
# it never holds half a pid). With a second argument the script then waits
# for ever; without, it exits.
setsid bash -c 'echo $$ > "$1.tmp"; mv "$1.tmp" "$1"; exec sleep 300' daemon "$1" &
[ -n "$2" ] && wait
exit 0
