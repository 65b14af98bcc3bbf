#!/bin/bash
# Prints its process group, starts two grandchildren (one ignoring SIGTERM)
# that hold stdout open, touches the file $1 and waits for ever.
echo "pgid $$"
sleep 300 &
(trap '' TERM; exec sleep 300) &
touch "$1"
wait
