#!/usr/bin/env python3
# Writes a line to stdout and one to stderr, then exits with the code in $1.
import sys

print("to stdout")
print("to stderr", file=sys.stderr)
sys.exit(int(sys.argv[1]))
