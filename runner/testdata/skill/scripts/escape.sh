#!/bin/bash
# Starts a process that leaves the process group but keeps stdout open,
# prints its pid, and exits.
setsid sleep 300 &
echo "escaped $!"
