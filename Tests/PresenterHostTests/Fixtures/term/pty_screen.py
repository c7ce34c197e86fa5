#!/usr/bin/env python3
"""Runs a program in a pseudo-terminal of a fixed size, feeds what it writes
into a pyte screen (a VT100/xterm emulator), follows a script of steps and
prints one JSON object with the screens it was asked for.

    pty_screen.py [--cols 80] [--rows 24] [--env K=V]... [--unset K]...
                  --steps JSON -- PROGRAM [ARG...]

Steps (a JSON array, run in order; output is read all the while):
    {"wait_text": "Done", "timeout": 5}   until the text is on the screen
    {"wait_gone": "Done", "timeout": 5}   until it is not
    {"sleep": 0.5}                        keep reading for that long
    {"snapshot": "name"}                  record the screen as "name"
    {"signal": "INT"}                     kill(2) the program (not its group)
    {"keys": "\\u0003"}                   type into the terminal (^C: SIGINT
                                          from the terminal to the foreground group)
    {"wait_exit": 10}                     until the program exits

Output: {"snapshots": {name: screen}, "final": screen after exit,
"exit": {"code": N or null, "signal": N or null}, "errors": [...],
"bytes": N, "sgr": [distinct SGR parameter strings], "sgr_color": bool}
where a screen is {"lines": [...], "cursor": {"x", "y", "hidden"}}.
A wait that times out adds to "errors", records the screen as
"timeout", kills the program and skips the remaining steps.
"""
import fcntl
import json
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pyte

COLOR_PARAMS = re.compile(r"^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$")


def parse_args(argv):
    options = {"cols": 80, "rows": 24, "env": {}, "unset": [], "steps": []}
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--":
            options["command"] = argv[index + 1:]
            return options
        value = argv[index + 1]
        if arg == "--cols":
            options["cols"] = int(value)
        elif arg == "--rows":
            options["rows"] = int(value)
        elif arg == "--env":
            key, _, val = value.partition("=")
            options["env"][key] = val
        elif arg == "--unset":
            options["unset"].append(value)
        elif arg == "--steps":
            options["steps"] = json.loads(value)
        else:
            sys.exit("pty_screen.py: unknown option " + arg)
        index += 2
    sys.exit("pty_screen.py: missing -- PROGRAM")


class Session:
    def __init__(self, options):
        self.cols, self.rows = options["cols"], options["rows"]
        self.screen = pyte.Screen(self.cols, self.rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.status = None
        env = dict(os.environ)
        env.setdefault("TERM", "xterm-256color")
        env.setdefault("LANG", "C.UTF-8")
        env.update(options["env"])
        for key in options["unset"]:
            env.pop(key, None)
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
            # As a login shell would start it: nothing blocked (a test runner's
            # thread may have blocked everything, and masks are inherited).
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            try:
                os.execvpe(options["command"][0], options["command"], env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.eof = False

    def pump(self, seconds):
        """Reads output for up to `seconds` (returns early at end of output)."""
        deadline = time.monotonic() + seconds
        while not self.eof:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], min(left, 0.02))
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:  # EIO: every holder of the terminal is gone
                    data = b""
                if not data:
                    self.eof = True
                    return
                self.raw += data
                self.stream.feed(data)
            self.reap()

    def reap(self):
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                self.status = status

    def text(self):
        return "\n".join(self.screen.display)

    def snapshot(self):
        return {
            "lines": [line.rstrip() for line in self.screen.display],
            "cursor": {"x": self.screen.cursor.x, "y": self.screen.cursor.y,
                       "hidden": bool(self.screen.cursor.hidden)},
        }

    def wait_until(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                return False
            self.pump(0.02)
            if self.eof and self.status is not None and not predicate():
                return predicate()
        return True

    def wait_exit(self, timeout):
        deadline = time.monotonic() + timeout
        while self.status is None and time.monotonic() < deadline:
            self.pump(0.02)
            self.reap()
        if self.status is not None:
            self.pump(0.2)  # what is left in the terminal
        return self.status is not None


def main():
    options = parse_args(sys.argv[1:])
    session = Session(options)
    snapshots, errors = {}, []
    for step in options["steps"]:
        ok = True
        if "wait_text" in step:
            text = step["wait_text"]
            ok = session.wait_until(lambda: text in session.text(), step.get("timeout", 10))
            if not ok:
                errors.append("timed out waiting for %r" % text)
        elif "wait_gone" in step:
            text = step["wait_gone"]
            ok = session.wait_until(lambda: text not in session.text(), step.get("timeout", 10))
            if not ok:
                errors.append("timed out waiting for %r to go" % text)
        elif "sleep" in step:
            session.pump(step["sleep"])
        elif "snapshot" in step:
            session.pump(0)
            snapshots[step["snapshot"]] = session.snapshot()
        elif "signal" in step:
            os.kill(session.pid, getattr(signal, "SIG" + step["signal"]))
        elif "keys" in step:
            os.write(session.fd, step["keys"].encode())
        elif "wait_exit" in step:
            ok = session.wait_exit(step["wait_exit"])
            if not ok:
                errors.append("timed out waiting for the program to exit")
        if not ok:
            snapshots["timeout"] = session.snapshot()
            break
    if not session.wait_exit(0 if errors else 20):
        os.kill(session.pid, signal.SIGKILL)
        session.wait_exit(5)
        errors.append("the program did not exit; killed")
    status = session.status
    sgr = sorted({m.decode() for m in re.findall(rb"\x1b\[([0-9;:]*)m", bytes(session.raw))})
    color = any(COLOR_PARAMS.match(p) for params in sgr for p in re.split("[;:]", params))
    print(json.dumps({
        "snapshots": snapshots,
        "final": session.snapshot(),
        "exit": {"code": os.WEXITSTATUS(status) if status is not None and os.WIFEXITED(status) else None,
                 "signal": os.WTERMSIG(status) if status is not None and os.WIFSIGNALED(status) else None},
        "errors": errors,
        "bytes": len(session.raw),
        "sgr": sgr,
        "sgr_color": color,
    }))


if __name__ == "__main__":
    main()
