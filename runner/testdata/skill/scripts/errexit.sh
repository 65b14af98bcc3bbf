#!/bin/bash -e
# The -e on the #! line must reach bash: false then ends the script.
echo before
false
echo after
