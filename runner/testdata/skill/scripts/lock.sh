#!/bin/bash
# Holds the lock folder $1 for a moment; prints "overlap" if another
# instance holds it already.
if mkdir "$1" 2>/dev/null; then
	sleep 0.2
	rmdir "$1"
	echo ok
else
	echo overlap
fi
