#!/usr/bin/env python3
# Kills itself with SIGKILL.
import os
import signal

print("about to die", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
