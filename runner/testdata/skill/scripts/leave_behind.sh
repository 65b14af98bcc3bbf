#!/bin/bash
# Prints its process group and exits at once, leaving a child behind that
# holds stdout open.
echo "pgid $$"
sleep 300 &
exit 0
