#!/bin/bash
# Prints each argument between angle brackets, one a line.
for a in "$@"; do
	printf '<%s>\n' "$a"
done
