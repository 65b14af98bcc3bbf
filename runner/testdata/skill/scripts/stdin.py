#!/usr/bin/env python3
# Prints the length and SHA-256 of its standard input.
import hashlib
import sys

data = sys.stdin.buffer.read()
print(len(data), hashlib.sha256(data).hexdigest())
