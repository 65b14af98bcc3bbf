#!/usr/bin/env python3
# Writes $1 bytes to stdout, made of the text in $2 repeated (default "x").
import sys

total = int(sys.argv[1])
unit = (sys.argv[2] if len(sys.argv) > 2 else "x").encode()
chunk = unit * max(1, (1 << 20) // len(unit))
out = sys.stdout.buffer
while total > 0:
    part = chunk[:total]
    out.write(part)
    total -= len(part)
out.flush()
