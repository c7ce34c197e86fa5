#!/usr/bin/env python3
"""Runs a program in a pseudo-terminal of a fixed size, feeds what it writes
into a pyte screen (a VT100/xterm emulator), follows a script of steps and
prints one JSON object with the screens it was asked for.

    pty_screen.py [--cols 80] [--rows 24] [--env K=V]... [--unset K]...
                  [--job-control] [--watch TEXT]... [--raw FILE] [--fast-plain]
                  --steps JSON -- PROGRAM [ARG...]

--job-control  runs PROGRAM as a shell runs a job: in a process group of its
               own, made the terminal's foreground group, under a parent that
               waits for it (so the group is not orphaned and SIGTSTP stops
               it); the exit status is the parent's copy (128 + N for signal N).
--watch TEXT   reports in "watched" whether TEXT was ever on the screen.
--raw FILE     writes every byte read from the terminal to FILE.
--fast-plain   feeds pyte only the last screenful of a chunk that is plain
               text and lines (no escape or other control byte) scrolling
               more than two screens: the screen is the same, and megabytes
               of output take a moment instead of seconds.

Steps (a JSON array, run in order; output is read all the while, but
during wait_writing):
    {"wait_text": "Done", "timeout": 5}   until the text is on the screen
    {"wait_gone": "Done", "timeout": 5}   until it is not
    {"wait_changed": "name", "timeout": 5}
                                          until the screen differs from the
                                          snapshot "name"
    {"wait_stopped": 5}                   until the program is stopped (state
                                          T), then read what it wrote before
    {"snapshot": "name"}                  record the screen as "name" (once
                                          what was written so far is read)
    {"signal": "INT"}                     kill(2) the program (not its group)
    {"signal_group": "TSTP"}              killpg(2) the program's process group
    {"switches_over": "name", "seconds": 2}
                                          record as "name" the voluntary context switches
                                          of all the program's threads in a
                                          window of that long (each wake-up of
                                          a thread is one; a measurement, with
                                          the output read all the while); with
                                          "of": "presenter-process", those of the
                                          program's child run with that flag
    {"touch": "/path/go"}                 create that file (a program that waits
                                          for it goes on: no guessed sleeps)
    {"keys": "\\u0003"}                   type into the terminal (^C: SIGINT
                                          from the terminal to the foreground group)
    {"wait_writing": 10}                  stop reading until a thread of the
                                          program is blocked writing to the
                                          terminal (a terminal that fell behind:
                                          what is written stays unread)
    {"wait_exit": 10}                     until the program exits

Output: {"snapshots": {name: screen}, "final": screen after exit,
"exit": {"code": N or null, "signal": N or null}, "errors": [...],
"bytes": N, "sgr": [distinct SGR parameter strings], "sgr_color": bool,
"watched": {text: bool}, "switches": {name: N}, "echo": bool}
where "echo" says whether the terminal echoes typed characters once the
program has exited (read through the master: both ends share the settings).
where a screen is {"lines": [...], "cursor": {"x", "y", "hidden"}}.
A wait that times out adds to "errors", records the screen as
"timeout", kills the program and skips the remaining steps.
"""
import copy
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
PLAIN = re.compile(rb"[\x20-\x7e\r\n]*")


def parse_args(argv):
    options = {"cols": 80, "rows": 24, "env": {}, "unset": [], "steps": [], "job_control": False,
               "watch": [], "raw": None, "fast_plain": False}
    index = 0
    while index < len(argv):
        arg = argv[index]
        if arg == "--":
            options["command"] = argv[index + 1:]
            return options
        if arg in ("--job-control", "--fast-plain"):
            options[arg[2:].replace("-", "_")] = True
            index += 1
            continue
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
        elif arg == "--watch":
            options["watch"].append(value)
        elif arg == "--raw":
            options["raw"] = value
        elif arg == "--steps":
            options["steps"] = json.loads(value)
        else:
            sys.exit("pty_screen.py: unknown option " + arg)
        index += 2
    sys.exit("pty_screen.py: missing -- PROGRAM")


class Screen(pyte.Screen):
    """pyte's screen with one saved cursor, as in xterm, tmux and kitty: pyte
    keeps a stack that DECRC pops, so a second DECRC (ESC 8) would send the
    cursor home; the host returns to its saved anchor after every frame, and
    saves it at every frame (DECSC replaces the one saved cursor).

    IL and DL as a terminal does them: pyte keeps only the rows written to,
    and its own insert_lines and delete_lines leave a row as it was when the
    row that should replace it was never written (a blank one)."""

    def save_cursor(self):
        self.savepoints.clear()
        super().save_cursor()

    def restore_cursor(self):
        if self.savepoints:
            top = self.savepoints[-1]
            self.savepoints.append(top._replace(cursor=copy.copy(top.cursor)))
        super().restore_cursor()

    def insert_lines(self, count=None):
        self._move_rows(count or 1)

    def delete_lines(self, count=None):
        self._move_rows(-(count or 1))

    def _move_rows(self, by):
        """Rows from the cursor's to the bottom margin move `by` rows (down
        for IL, up for DL); rows moved past the margins are lost, blank rows
        come in; the cursor goes to the start of its line."""
        top, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        if not top <= self.cursor.y <= bottom:
            return
        self.dirty.update(range(self.cursor.y, self.lines))
        rows = {y: self.buffer[y] for y in range(self.cursor.y, bottom + 1) if y in self.buffer}
        for y in range(self.cursor.y, bottom + 1):
            self.buffer.pop(y, None)
        for y, row in rows.items():
            if self.cursor.y <= y + by <= bottom:
                self.buffer[y + by] = row
        self.carriage_return()


class Session:
    def __init__(self, options):
        self.cols, self.rows = options["cols"], options["rows"]
        self.screen = Screen(self.cols, self.rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.status = None
        env = dict(os.environ)
        env.setdefault("TERM", "xterm-256color")
        env.setdefault("LANG", "C.UTF-8")
        env.update(options["env"])
        for key in options["unset"]:
            env.pop(key, None)
        self.watch = {text: False for text in options["watch"]}
        self.fast_plain = options["fast_plain"]
        self.raw_file = open(options["raw"], "wb") if options["raw"] else None
        report_r, report_w = os.pipe()
        pid, fd = pty.fork()
        if pid == 0:
            os.close(report_r)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", self.rows, self.cols, 0, 0))
            if options["job_control"]:
                run_as_job(options["command"], env, report_w)
            os.write(report_w, str(os.getpid()).encode())
            os.close(report_w)
            exec_program(options["command"], env)
        os.close(report_w)
        self.pid, self.fd = pid, fd
        # The program's pid (the job's, under --job-control), once it is known.
        self.program = int(os.read(report_r, 32) or pid)
        os.close(report_r)
        self.eof = False

    def feed(self, data):
        self.raw += data
        if self.raw_file:
            self.raw_file.write(data)
        self.stream.feed(self.shortcut(data) if self.fast_plain else data)
        for text in self.watch:
            if not self.watch[text] and text in self.text():
                self.watch[text] = True

    def shortcut(self, data):
        """What to feed for `data`: itself, or for plain text scrolling more
        than two screens, enough line feeds to scroll the screen blank and
        then the last screenful of lines, which leaves the same screen."""
        if PLAIN.fullmatch(data) is None or data.count(b"\n") <= 2 * self.rows:
            return data
        start = len(data)
        for _ in range(self.rows + 1):
            start = data.rindex(b"\n", 0, start)
        return b"\r" + b"\n" * (2 * self.rows) + data[start + 1:]

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
                self.feed(data)
            self.reap()

    def drain(self):
        """Reads what the program wrote so far, without waiting for more."""
        while not self.eof and select.select([self.fd], [], [], 0)[0]:
            self.pump(0.02)

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


def is_stopped(pid):
    """Whether `pid` is stopped (state T or t in /proc/PID/stat)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except FileNotFoundError:
        return False
    return stat[stat.rindex(")") + 2] in "Tt"


def is_writing_to_terminal(pid):
    """Whether a thread of `pid` is blocked in write(2) on its stdout or
    stderr (/proc/PID/task/TID/syscall: the call's number, then its arguments)."""
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
    except FileNotFoundError:
        return False
    for task in tasks:
        try:
            with open("/proc/%d/task/%s/syscall" % (pid, task)) as f:
                fields = f.read().split()
        except OSError:
            continue
        if len(fields) > 1 and fields[0] == "1" and int(fields[1], 16) in (1, 2):
            return True
    return False


def child_with_flag(parent, flag):
    """The child of `parent` whose command line has `flag`."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                parent_field = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                arguments = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if parent_field == parent and flag in arguments:
            return int(entry)
    raise RuntimeError("no child of %d runs with %s" % (parent, flag.decode()))


def context_switches(pid):
    """Voluntary context switches of every thread of `pid`: each is a thread
    going to sleep, so they count wake-ups. Involuntary ones (preemption)
    count how busy the machine is, not the program, and are left out."""
    total = 0
    for task in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/status" % (pid, task)) as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches"):
                    total += int(line.split()[1])
    return total


def exec_program(command, env):
    # As a login shell would start it: nothing blocked (a test runner's
    # thread may have blocked everything, and masks are inherited).
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    try:
        os.execvpe(command[0], command, env)
    finally:
        os._exit(127)


def run_as_job(command, env, report_w):
    """In the pty's session leader: starts the program as a job in its own
    foreground process group, reports its pid, waits for it to end (not to
    stop) and exits with its status."""
    job = os.fork()
    if job == 0:
        os.close(report_w)
        os.setpgid(0, 0)
        signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # tcsetpgrp from the background
        os.tcsetpgrp(0, os.getpid())
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        exec_program(command, env)
    try:
        os.setpgid(job, job)
    except OSError:  # the job did it first and has exec'd
        pass
    os.write(report_w, str(job).encode())
    os.close(report_w)
    while True:
        _, status = os.waitpid(job, 0)
        if os.WIFEXITED(status):
            os._exit(os.WEXITSTATUS(status))
        if os.WIFSIGNALED(status):
            os._exit(128 + os.WTERMSIG(status))


def main():
    options = parse_args(sys.argv[1:])
    session = Session(options)
    snapshots, errors, switches = {}, [], {}
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
        elif "wait_changed" in step:
            name = step["wait_changed"]
            ok = session.wait_until(lambda: session.snapshot()["lines"] != snapshots[name]["lines"],
                                    step.get("timeout", 10))
            if not ok:
                errors.append("timed out waiting for the screen to change from %r" % name)
        elif "wait_stopped" in step:
            ok = session.wait_until(lambda: is_stopped(session.program), step["wait_stopped"])
            if ok:
                session.drain()
            else:
                errors.append("timed out waiting for the program to stop")
        elif "snapshot" in step:
            session.drain()
            snapshots[step["snapshot"]] = session.snapshot()
        elif "signal" in step:
            os.kill(session.program, getattr(signal, "SIG" + step["signal"]))
        elif "switches_over" in step:
            measured = session.program
            if step.get("of") == "presenter-process":
                measured = child_with_flag(session.program, b"--presenter-process")
            start = context_switches(measured)
            session.pump(step["seconds"])
            switches[step["switches_over"]] = context_switches(measured) - start
        elif "signal_group" in step:
            os.killpg(os.getpgid(session.program), getattr(signal, "SIG" + step["signal_group"]))
        elif "touch" in step:
            open(step["touch"], "a").close()
        elif "keys" in step:
            os.write(session.fd, step["keys"].encode())
        elif "wait_writing" in step:
            deadline = time.monotonic() + step["wait_writing"]
            while not is_writing_to_terminal(session.program) and time.monotonic() < deadline:
                time.sleep(0.01)  # polling /proc, not a guessed wait
            ok = is_writing_to_terminal(session.program)
            if not ok:
                errors.append("timed out waiting for the program to block writing to the terminal")
        elif "wait_exit" in step:
            ok = session.wait_exit(step["wait_exit"])
            if not ok:
                errors.append("timed out waiting for the program to exit")
        if not ok:
            snapshots["timeout"] = session.snapshot()
            break
    if not session.wait_exit(0 if errors else 20):
        if session.program != session.pid:  # a job: its whole group, stopped or not
            try:
                os.killpg(session.program, signal.SIGKILL)
            except ProcessLookupError:
                pass
        os.kill(session.pid, signal.SIGKILL)
        session.wait_exit(5)
        errors.append("the program did not exit; killed")
    status = session.status
    try:
        echo = bool(termios.tcgetattr(session.fd)[3] & termios.ECHO)
    except termios.error:
        echo = None
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
        "watched": session.watch,
        "switches": switches,
        "echo": echo,
    }))
    if session.raw_file:
        session.raw_file.close()


if __name__ == "__main__":
    main()
