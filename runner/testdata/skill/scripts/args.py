#!/usr/bin/env python3
# Prints its arguments as a JSON list, to show they arrive verbatim.
import json
import sys

print(json.dumps(sys.argv[1:]))
