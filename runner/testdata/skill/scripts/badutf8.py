#!/usr/bin/env python3
# Writes bytes that are not valid UTF-8.
import sys

sys.stdout.buffer.write(b"ok \xff\xfe end\n")
