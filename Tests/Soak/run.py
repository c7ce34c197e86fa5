"""One soak run: a host started as its Spec says, disturbed as it says, and judged.

A run goes through: start (the host, in a pty under the job shell or in
plain mode under the soak), its actions at their moments, the host's end,
then the checks: how it ended (a signal it was not sent is a failure, and
so is an exit with 128 + one that ended what it ran), its
terminal (raw mode, echo, the cursor, the alternate screen), its core
files, and after a grace time the processes it left behind. A run that is
still going at its bound is a hang: its threads' backtraces are taken and
it is killed.
"""
import errno
import fcntl
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import termios
import time

import processes
import terminal

HERE = os.path.dirname(os.path.abspath(__file__))
SIGNALS = {"sigterm": signal.SIGTERM, "sighup": signal.SIGHUP, "sigint": signal.SIGINT, "sigtstp": signal.SIGTSTP}
# The kinds of run a signal ends by killing (the command, the driver reading
# stdin, the fetch), whose host must then die of it: the "wait and
# cooperative exit" rule. Not `drive --socket` (a signal is its way to stop,
# its status is its actions') nor the screen (Ctrl-C is a key there, and it
# leaves with 130).
DIES_OF_SIGNALS = ("run", "drive-stdin", "get-title")
KEEP = 64 * 1024  # the output kept for a failure's report
GRACE = 5.0       # after the host ended, how long its processes may take to go
STOPPED_AT_MOST = 60.0  # every stop gets its fg within a second: one that lasts is a hang too


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return "signal %d" % number


class Run:
    def __init__(self, soak, spec, run_id, replay):
        self.soak, self.spec, self.id, self.replay = soak, spec, run_id, replay
        self.rng = random.Random("%s:moments" % replay)
        self.folder = os.path.join(soak.folder, "runs", run_id)
        self.failures = []
        self.log = []             # what the soak did, with times, for the report
        self.sent = set()         # signals that may have reached the host
        self.fired = set()
        self.output = bytearray()
        self.modes = terminal.ModeTracker()
        self.fds = {}             # fd -> what it is, for the soak's selector
        self.host_pid = None
        self.shell = None
        self.host = None
        self.master = None
        self.hung_up = False
        self.stopped_at = None
        self.stopped_for = 0.0
        self.ended_at = None
        self.status = None
        self.done = False
        self.clients = []
        self.stdin_pending = b""
        self.stdin = None

    # Starting

    def start(self):
        spec = self.spec
        os.makedirs(self.folder)
        fifo = os.path.join(self.folder, "notify")
        os.mkfifo(fifo)
        self.notify = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        self.watch(self.notify, "notify")
        env = dict(self.soak.environment)
        env.update(spec.env)
        env.update({processes.MARKER: self.id, "SOAK_NOTIFY": fifo, "COLUMNS": str(spec.cols),
                    "LINES": str(spec.rows)})
        argv = [self.soak.binary] + spec.argv
        self.started_at = time.monotonic()
        if spec.terminal:
            self.start_in_terminal(argv, env)
        else:
            self.start_plain(argv, env)
        self.note("started" + (" pid %d" % self.host_pid if self.host_pid else ""))
        self.deadline_check(self.started_at + spec.bound + self.soak.slack)
        if not spec.terminal:
            self.trigger("spawn")  # in a pty, once the job shell says the host runs

    def start_in_terminal(self, argv, env):
        self.master, slave = os.openpty()
        self.set_size(self.spec.cols, self.spec.rows)
        os.set_blocking(self.master, False)
        control_read, self.control = os.pipe()
        status_read, status_write = os.pipe()
        shell = [sys.executable, "-I", "-S", os.path.join(HERE, "jobshell.py"), str(control_read), str(status_write)]
        if self.spec.stdin_lines is not None:
            lines = os.path.join(self.folder, "stdin")
            with open(lines, "w") as file:
                file.write("".join(line + "\n" for line in self.spec.stdin_lines))
            shell += ["--stdin", lines]
        self.shell = subprocess.Popen(shell + ["--"] + argv, stdin=slave, stdout=slave, stderr=slave,
                                      pass_fds=(control_read, status_write), cwd=self.folder, env=env)
        for fd in (slave, control_read, status_write):
            os.close(fd)
        os.set_blocking(status_read, False)
        self.status_buffer = b""
        self.watch(status_read, "shell")
        self.watch(self.master, "pty")
        self.soak.adopt(self.shell.pid, self)

    def start_plain(self, argv, env):
        # Pipes of the run's own (not subprocess's file objects): the soak
        # closes each descriptor exactly once, itself.
        out_read, out_write = os.pipe()
        err_read, err_write = os.pipe()
        stdin_read = stdin_write = None
        if self.spec.stdin_lines is not None:
            stdin_read, stdin_write = os.pipe()
        self.host = subprocess.Popen(argv, stdin=stdin_read if stdin_read is not None else subprocess.DEVNULL,
                                     stdout=out_write, stderr=err_write, cwd=self.folder, env=env,
                                     start_new_session=True)
        for fd in (out_write, err_write, stdin_read):
            if fd is not None:
                os.close(fd)
        self.host_pid = self.host.pid
        self.soak.adopt(self.host_pid, self)
        for fd, name in ((out_read, "stdout"), (err_read, "stderr")):
            os.set_blocking(fd, False)
            self.watch(fd, name)
        if stdin_write is not None:
            self.stdin = stdin_write
            self.stdin_pending = "".join(line + "\n" for line in self.spec.stdin_lines).encode()
            os.set_blocking(stdin_write, False)
            self.feed_stdin()

    # The soak's event loop calls these

    def watch(self, fd, what):
        self.fds[fd] = what
        self.soak.watch(fd, self)

    def unwatch(self, fd):
        if self.fds.pop(fd, None) is not None:
            self.soak.unwatch(fd)
            try:
                os.close(fd)
            except OSError:
                pass

    def readable(self, fd):
        what = self.fds.get(fd)
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: the pty has no writer left
        if what == "notify":
            for word in data.decode(errors="replace").split():
                self.trigger("command-" + word)
            return
        if not data:
            if what != "pty":
                self.unwatch(fd)
            else:
                self.soak.unwatch(fd)  # keep the master open: its settings are read at the end
                self.fds.pop(fd, None)
            return
        if what == "shell":
            self.shell_says(data)
            return
        if what == "pty":
            self.modes.feed(data)
        self.output += data
        if len(self.output) > 2 * KEEP:
            del self.output[:-KEEP]
        self.trigger("output")

    def shell_says(self, data):
        self.status_buffer += data
        while b"\n" in self.status_buffer:
            line, self.status_buffer = self.status_buffer.split(b"\n", 1)
            word, *rest = line.decode().split()
            self.note("job shell: " + line.decode())
            if word == "pid":
                self.host_pid = int(rest[0])
                self.trigger("spawn")
            elif word == "error":
                # The shell could not start the job (the pty was hung up
                # before it got it as its terminal): no host ran.
                self.soak.count("runs the job shell could not start")
                self.host_ended(status=-1, checks=False)
            elif word == "stopped":
                self.stopped(int(rest[0]))
            elif word == "continued":
                self.continued()
            elif word == "exit":
                self.host_ended(status=int(rest[0]))
            elif word == "signal":
                self.host_ended(signal_number=int(rest[0]), core=rest[1] == "1")

    def reaped(self, pid, status):
        """The soak reaped `pid`, one of ours (the host in plain mode, or the job shell)."""
        if os.WIFSTOPPED(status):
            return self.stopped(os.WSTOPSIG(status))
        if os.WIFCONTINUED(status):
            return self.continued()
        popen = self.host if self.host is not None and pid == self.host.pid else self.shell
        popen.returncode = status  # reaped here: subprocess must not wait for it again
        if popen is self.shell:
            self.shell_gone = True
            if self.ended_at is None:
                self.fail("the job shell ended (status %#x) before reporting the host's end" % status)
                self.host_ended(status=-1, checks=False)
            self.maybe_done()
            return
        if os.WIFSIGNALED(status):
            self.host_ended(signal_number=os.WTERMSIG(status), core=os.WCOREDUMP(status))
        else:
            self.host_ended(status=os.WEXITSTATUS(status))

    # Moments and actions

    def trigger(self, moment):
        if moment in self.fired or self.ended_at is not None:
            return
        self.fired.add(moment)
        for action in self.spec.actions:
            if action.trigger == moment:
                self.soak.at(time.monotonic() + action.delay, lambda action=action: self.act(action.what))

    def act(self, what):
        if self.ended_at is not None:
            return
        self.note(what)
        self.soak.count("action " + what.split(":")[0])
        if what == "clients":
            return self.start_clients()
        if what == "leave":
            self.type(b"\x1b")
            self.soak.at(time.monotonic() + 0.7, lambda: self.act("leave"))
            return
        if what == "resize":
            return self.set_size(self.rng.choice([10, 40, 80, 120, 250]), self.rng.choice([3, 10, 24, 50]))
        if what.startswith("keys:") or what in ("ctrl-c", "ctrl-z"):
            data = {"ctrl-c": "\x03", "ctrl-z": "\x1a"}.get(what, what[5:])
            if what == "ctrl-c":
                self.sent.add(signal.SIGINT)
            return self.type(data.encode())
        if what == "hangup":
            # Already closed: hung up before (a second hangup drawn), or
            # the run ended and its pty went before this moment came.
            if self.master is None:
                return
            self.sent.update((signal.SIGHUP, signal.SIGCONT))
            self.hung_up = True
            self.soak.unwatch(self.master)
            self.fds.pop(self.master, None)
            os.close(self.master)
            self.master = None
            return
        number = SIGNALS[what]
        self.sent.add(number)
        self.kill(number)

    def kill(self, number):
        if self.host_pid is not None and self.ended_at is None:
            try:
                os.kill(self.host_pid, number)
            except ProcessLookupError:
                pass

    def type(self, data):
        if self.master is not None:
            if any(key in data for key in (b"\x03", b"\x1a", b"\x1c")) and self.master in self.fds:
                # The terminal turns these keys into signals and discards
                # what it holds unread (beyond the 4 KiB its reader keeps).
                # A terminal emulator reads its output as it comes; the soak,
                # with many runs at once under load, reads late: read first,
                # as an emulator would have, so that a key discards only what
                # it would for a person. The host's own part (writing its last
                # bytes again after such a key) is tested in the suite.
                self.drain_pty()
            try:
                os.write(self.master, data)
            except OSError:
                pass

    def set_size(self, cols, rows):
        if self.master is not None:
            fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def stopped(self, number):
        # A second report without a "continued" between them is a second
        # stop (continued and stopped again faster than the shell looked):
        # it gets its fg too, else the job would stay stopped for ever.
        if self.stopped_at is None:
            self.stopped_at = time.monotonic()
        self.note("stopped by %s" % signal_name(number))
        self.soak.count("stops")
        later = self.rng.uniform(0.02, 0.6)
        if self.shell is None:
            self.soak.at(time.monotonic() + later, lambda: self.kill(signal.SIGCONT))
            return
        plan = self.rng.choice(["fg", "fg", "resize", "bg"])
        if plan == "resize":
            self.soak.at(time.monotonic() + later / 2, lambda: self.act("resize"))
        if plan == "bg":
            self.soak.at(time.monotonic() + later, lambda: self.tell("bg"))
            later += self.rng.uniform(0.1, 1.0)  # in the background meanwhile: the foreground watch polls
        self.soak.at(time.monotonic() + later, lambda: self.tell("fg"))

    def continued(self):
        if self.stopped_at is not None:
            self.stopped_for += time.monotonic() - self.stopped_at
            self.stopped_at = None
            self.note("continued")

    def tell(self, command):
        """A command for the job shell (pty runs)."""
        if self.shell is None:
            return
        if self.ended_at is None or command == "quit":
            self.note(command)
            try:
                os.write(self.control, (command + "\n").encode())
            except OSError:
                pass

    def feed_stdin(self):
        while self.stdin_pending and self.stdin is not None:
            try:
                written = os.write(self.stdin, self.stdin_pending[:65536])
            except BlockingIOError:
                self.soak.at(time.monotonic() + 0.01, self.feed_stdin)
                return
            except OSError:
                break  # the host went
            self.stdin_pending = self.stdin_pending[written:]
        self.close_stdin()

    def close_stdin(self):
        if self.stdin is not None:
            os.close(self.stdin)
            self.stdin = None

    # drive --socket clients

    def start_clients(self):
        for plan in self.spec.clients:
            self.soak.at(time.monotonic() + plan["at"], lambda plan=plan: self.connect(plan, time.monotonic() + 5))

    def connect(self, plan, give_up):
        if self.ended_at is not None:
            return
        client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            client.connect(os.path.join(self.folder, "drive.sock"))
        except OSError:
            client.close()
            if time.monotonic() < give_up:  # not listening yet
                self.soak.at(time.monotonic() + 0.05, lambda: self.connect(plan, give_up))
            return
        client.setblocking(False)
        data = "".join(line + "\n" for line in plan["lines"]).encode()
        if plan["vanish"]:
            data = data[:self.rng.randrange(len(data) + 1)]
        self.clients.append(client)
        self.soak.count("drive clients")
        self.send(client, data, plan)

    def send(self, client, data, plan):
        if client.fileno() < 0 or self.ended_at is not None:
            return
        try:
            while data:
                data = data[client.send(data[:65536]):]
            if not plan["deaf"]:
                while client.recv(65536):
                    pass
        except BlockingIOError:
            self.soak.at(time.monotonic() + 0.005, lambda: self.send(client, data, plan))
            return
        except OSError:
            pass  # the driver closed it: a signal ended the driver
        if plan["vanish"]:
            # Gone in the middle of a line, with a reset rather than a goodbye.
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()
        elif not plan["deaf"]:
            try:
                client.shutdown(socket.SHUT_WR)
            except OSError:
                pass

    # The end and the checks

    def host_ended(self, status=None, signal_number=None, core=False, checks=True):
        if self.ended_at is not None:
            return
        self.ended_at = time.monotonic()
        self.soak.host_done(self)
        self.status = status if signal_number is None else -signal_number
        took = self.ended_at - self.started_at
        self.note("ended: %s after %.2f s" % ("status %s" % status if signal_number is None
                                              else signal_name(signal_number) + (" (core)" if core else ""), took))
        self.soak.count("status %s" % (status if signal_number is None else signal_name(signal_number)))
        if signal_number is not None and (signal_number not in self.sent or core):
            self.fail("the host died of %s%s, which it was not sent" % (signal_name(signal_number),
                                                                        ", with a core" if core else ""))
        if status is not None and status > 128 and status - 128 in self.sent and self.spec.kind in DIES_OF_SIGNALS:
            # No workload handles a signal: one that ended the run ended it
            # by killing the command (or the driver, the fetch), and the host
            # must then die of it, not exit 128 + it, or a shell takes it as
            # handled and goes on with its loop.
            self.fail("the host exited %d after %s instead of dying of it" % (status, signal_name(status - 128)))
        if checks and self.master is not None and not self.hung_up and self.status != -signal.SIGKILL:
            self.drain_pty()
            wrong = self.modes.wrong() + terminal.settings_wrong(self.master)
            if wrong:
                self.fail("the terminal was left with: %s" % ", ".join(wrong))
        for client in self.clients:
            client.close()
        self.check_cores(signal_number is not None)
        self.soak.at(self.ended_at + GRACE, self.check_left_behind)

    def drain_pty(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.modes.feed(data)
            self.output += data

    def check_cores(self, host_died):
        for name in sorted(os.listdir(self.folder)):
            if not name.startswith("core"):
                continue
            path = os.path.join(self.folder, name)
            info = processes.core_info(path)
            pid, number, program, arguments = info or (None, None, "?", "?")
            ours = pid == self.host_pid
            expected = (not ours and self.spec.cores_expected and program == "presenter-host"
                        and number in (signal.SIGSEGV, signal.SIGABRT))
            if expected:
                os.unlink(path)
                continue
            self.soak.count("cores")
            who = "the host" if ours else "pid %s (%s)" % (pid, arguments.strip())
            self.fail("%s dumped core (%s): %s" % (who, signal_name(number) if number else "?", path),
                      backtrace=processes.backtrace_of_core(self.soak.binary, path))

    def check_left_behind(self):
        known = self.soak.known_pids()
        left = []
        for pid in processes.children():
            if pid in known or processes.run_of(pid) != self.id:
                continue
            if processes.state(pid) in (None, "Z"):
                continue
            for member in processes.descendants(pid):
                left.append("%d %s [%s]" % (member, processes.command_line(member), processes.state(member)))
            backtrace = None
            if "presenter-host" in processes.command_line(pid):
                backtrace = processes.backtrace_of_process(pid)
            processes.kill_tree(pid)
            self.soak.count("processes left behind")
            self.fail("left behind %.0f s after the host ended: %s" % (GRACE, "; ".join(left)), backtrace=backtrace)
        self.tell("quit")
        if self.master is not None:
            os.close(self.master)
            self.master = None
        for fd in list(self.fds):
            self.unwatch(fd)
        self.close_stdin()
        if self.shell is not None:
            os.close(self.control)  # the shell reads its end: quit, if the line did not get there
        self.checked = True
        self.maybe_done()

    def maybe_done(self):
        if getattr(self, "checked", False) and (self.shell is None or getattr(self, "shell_gone", False)):
            if not self.done:
                self.done = True
                self.soak.finished(self)

    def deadline_check(self, deadline):
        self.soak.at(deadline, lambda: self.past_deadline(deadline))

    def past_deadline(self, deadline):
        if self.ended_at is not None:
            return
        now = time.monotonic()
        stopped = self.stopped_for + (now - self.stopped_at if self.stopped_at is not None else 0)
        if (self.stopped_at is not None and now - self.stopped_at < STOPPED_AT_MOST) or \
                now < self.started_at + self.spec.bound + self.soak.slack + stopped:
            # Stopped time does not count: look again once it is continued.
            self.deadline_check(max(now + 1, self.started_at + self.spec.bound + self.soak.slack + stopped))
            return
        self.soak.count("hangs")
        backtrace = processes.backtrace_of_process(self.host_pid) if self.host_pid else None
        self.fail("still running %.1f s after it started (its bound: %.1f s + %.0f s of slack)"
                  % (now - self.started_at, self.spec.bound, self.soak.slack), backtrace=backtrace)
        if self.host_pid:
            processes.kill_tree(self.host_pid)
            self.sent.add(signal.SIGKILL)

    # Reporting

    def note(self, text):
        self.log.append("%7.3f %s" % (time.monotonic() - getattr(self, "started_at", time.monotonic()), text))

    def fail(self, what, backtrace=None):
        self.failures.append((what, backtrace))

    def report(self):
        spec = self.spec
        lines = ["FAILURE in run %s (%s)" % (self.id, spec.describe())]
        for what, _ in self.failures:
            lines.append("  %s" % what)
        lines.append("  replay: scripts/soak --seed %d --only %d" % (self.soak.seed, spec.index))
        lines.append("  command: %s %s" % (self.soak.binary, " ".join(_quote(a) for a in spec.argv)))
        if spec.env:
            lines.append("  environment: %s" % " ".join("%s=%s" % item for item in sorted(spec.env.items())))
        lines.append("  folder: %s" % self.folder)
        lines.append("  what happened (seconds after the start):")
        lines += ["    " + entry for entry in self.log]
        tail = bytes(self.output[-2000:]).decode(errors="replace")
        lines.append("  its output's end: %r" % tail)
        for what, backtrace in self.failures:
            if backtrace:
                lines.append("  backtraces (%s):" % what)
                lines += ["    " + line for line in backtrace.splitlines()]
        return "\n".join(lines)


def _quote(argument):
    if argument and all(c.isalnum() or c in "-_./=:,%@" for c in argument):
        return argument
    return "'" + argument.replace("'", "'\\''") + "'"
