#!/usr/bin/env python3
"""Drives presenter-host from Python: starts `presenter-host drive` and
writes the protocol's JSON lines to it (docs/DRIVER.md).

    python3 Examples/driver/get-title.py [path/to/presenter-host]
"""
import json
import subprocess
import sys
import time

host = sys.argv[1] if len(sys.argv) > 1 else "presenter-host"
drive = subprocess.Popen([host, "drive"], stdin=subprocess.PIPE, text=True)


def send(**request):
    drive.stdin.write(json.dumps(request) + "\n")
    drive.stdin.flush()


send(start="t1", action="get-title", working="Getting the title...")
for step in range(1, 5):
    time.sleep(0.2)
    send(progress="t1", fraction=step / 4, message=f"Reading part {step} of 4")
send(succeed="t1", message="Title: Example Domain")
send(start="t2", action="get-title", working="Getting another title...")
send(fail="t2", message="Could not get the title", reason="HTTP 404")
drive.stdin.close()
sys.exit(drive.wait())  # 1: t2 failed
