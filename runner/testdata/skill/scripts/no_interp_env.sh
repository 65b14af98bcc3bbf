#!/usr/bin/env toolsearch-no-such-interpreter
echo never
