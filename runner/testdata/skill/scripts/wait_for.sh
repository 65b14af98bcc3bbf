#!/bin/bash
# Prints its process group, touches the file $1, then waits (at most 60 s)
# until the file $2 exists.
echo "pgid $$"
touch "$1"
for _ in $(seq 1 1200); do
	[ -e "$2" ] && exit 0
	sleep 0.05
done
exit 1
