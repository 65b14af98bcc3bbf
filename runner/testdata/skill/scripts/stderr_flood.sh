#!/bin/bash
# Writes about 100 KB to stderr, then a last line, and fails.
for i in $(seq 1 2000); do
	echo "noise line $i of the stderr flood" >&2
done
echo "LAST LINE" >&2
exit 1
