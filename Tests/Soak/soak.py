"""The soak: a seeded, bounded, randomised storm of presenter-host runs.

    soak.py --binary DIR [--seconds N] [--jobs J] [--seed S] [--load L]
            [--only INDEX] [--slack S] [--folder DIR] [--keep]

Runs J runs at a time for N seconds (then lets the last ones end), each
drawn from the seed (scenarios.py) and judged (run.py), with L busy
processes of its own competing for the CPU. Prints every failure with the
command that replays it, then a summary; exits 1 when anything failed.
`scripts/soak` builds the binary and calls this.
"""
import argparse
import heapq
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import time

import processes
import run
import scenarios

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class Soak:
    def __init__(self, options):
        self.options = options
        self.seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1, 1 << 31)
        self.binary = os.path.join(os.path.abspath(options.binary), "presenter-host")
        self.slack = options.slack
        self.folder = options.folder or "/tmp/presenter-host-soak-%d-%d" % (self.seed, os.getpid())
        self.selector = selectors.DefaultSelector()
        self.timers = []
        self.sequence = 0
        self.owners = {}       # pid -> the Run that waits for it
        self.helpers = {}      # pid -> Popen: the server, the busy processes
        self.active = []       # runs whose host runs
        self.checking = []     # runs whose host ended, waiting for their checks
        self.failed = []
        self.counts = {}
        self.loads = []
        self.runs = 0
        self.next_index = options.only if options.only is not None else 0
        self.interrupted = False
        self.duration = 0.0

    # Set-up

    def set_up(self):
        if not os.access(self.binary, os.X_OK):
            sys.exit("soak: no presenter-host at %s; build it first (scripts/soak does)" % self.binary)
        if os.path.exists(self.folder):
            shutil.rmtree(self.folder)
        for name in ("runs", "plugins", "home", "cache", "data"):
            os.makedirs(os.path.join(self.folder, name), mode=0o755)
        os.chmod(self.folder, 0o755)
        processes.become_subreaper()
        self.core_limit = processes.allow_cores()
        self.core_pattern, self.core_problem = processes.core_pattern()
        self.environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.path.join(self.folder, "home"),
            "XDG_CACHE_HOME": os.path.join(self.folder, "cache"), "XDG_DATA_HOME": os.path.join(self.folder, "data"),
            "LANG": "C.UTF-8", "TERM": "xterm-256color",
        }
        self.build_fixture()
        self.start_server()
        # Warm the registry cache once, as a user's first run would.
        subprocess.run([self.binary, "--plugin-dir", self.plugins, "--list"], env=self.environment,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        self.wakeup_read, wakeup_write = os.pipe()
        os.set_blocking(self.wakeup_read, False)
        os.set_blocking(wakeup_write, False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.set_wakeup_fd(wakeup_write)
        self.selector.register(self.wakeup_read, selectors.EVENT_READ, None)
        for _ in range(self.options.load):
            self.helper(["sh", "-c", "while :; do :; done"])

    def build_fixture(self):
        """The misbehaving presenter of the sandbox tests, in a plugin folder of the soak's own."""
        self.plugins = os.path.join(self.folder, "plugins")
        source = os.path.join(ROOT, "Tests/PresenterHostTests/Fixtures/plugins/misbehaving.c")
        subprocess.run(["cc", "-shared", "-fPIC", "-std=c11", "-Wall", "-I",
                        os.path.join(ROOT, "Sources/PresenterABI/include"), "-o",
                        os.path.join(self.plugins, "libmisbehaving.so"), source, "-lpthread"], check=True)

    def start_server(self):
        server = self.helper([sys.executable, os.path.join(HERE, "slow_server.py")], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
        line = server.stdout.readline().decode()
        if not line.startswith("port "):
            sys.exit("soak: the slow server did not start: %r" % line)
        self.port = int(line.split()[1])
        self.server = server

    def helper(self, argv, **streams):
        popen = subprocess.Popen(argv, cwd=self.folder, **streams)
        self.helpers[popen.pid] = popen
        return popen

    @property
    def setting(self):
        return {"plugins": self.plugins, "port": self.port, "workload": os.path.join(HERE, "workload.sh")}

    # The event loop, for the runs

    def at(self, when, callback):
        self.sequence += 1
        heapq.heappush(self.timers, (when, self.sequence, callback))

    def watch(self, fd, owner):
        self.selector.register(fd, selectors.EVENT_READ, owner)

    def unwatch(self, fd):
        try:
            self.selector.unregister(fd)
        except (KeyError, ValueError):
            pass

    def adopt(self, pid, owner):
        self.owners[pid] = owner

    def known_pids(self):
        return set(self.owners) | set(self.helpers)

    def count(self, what, by=1):
        self.counts[what] = self.counts.get(what, 0) + by

    def host_done(self, ended_run):
        """Its host ended: the run's place goes to a new run while its checks wait."""
        self.active.remove(ended_run)
        self.checking.append(ended_run)

    def finished(self, finished_run):
        self.checking.remove(finished_run)
        self.runs += 1
        self.count("kind %s" % finished_run.spec.describe().split()[0] + (" pty" if finished_run.spec.terminal
                                                                           else " plain"))
        if finished_run.failures:
            self.failed.append(finished_run)
            print(finished_run.report(), flush=True)
        elif not self.options.keep:
            shutil.rmtree(finished_run.folder, ignore_errors=True)

    def reap(self):
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG | os.WUNTRACED | os.WCONTINUED)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if os.WIFSTOPPED(status) or os.WIFCONTINUED(status):
                if pid in self.owners:
                    self.owners[pid].reaped(pid, status)
                continue
            if pid in self.helpers:
                self.helpers.pop(pid).returncode = status
            elif pid in self.owners:
                self.owners.pop(pid).reaped(pid, status)
            # else: an orphan of some run, re-parented to the soak; its run judges it.

    def start_run(self):
        index = self.next_index
        if self.options.only is None:
            self.next_index += 1
        spec = scenarios.Spec.draw(self.seed, index, self.setting)
        self.sequence += 1
        new = run.Run(self, spec, "%d-%d" % (index, self.sequence), "%d:%d:%d" % (
            self.seed, index, self.sequence))
        self.active.append(new)
        new.start()

    def loop(self):
        started = time.monotonic()
        end = started + self.options.seconds
        next_sample = started
        while True:
            now = time.monotonic()
            self.duration = now - started
            if now >= next_sample:
                self.loads.append(os.getloadavg()[0])
                next_sample = now + 5
            if now < end:
                while len(self.active) < self.options.jobs:
                    self.start_run()
            elif not self.active and not self.checking:
                break
            wait = min(0.5, max(0, self.timers[0][0] - now)) if self.timers else 0.5
            for key, _ in self.selector.select(wait):
                if key.data is None:
                    try:
                        while os.read(self.wakeup_read, 512):
                            pass
                    except BlockingIOError:
                        pass
                else:
                    key.data.readable(key.fd)
            # Ends first: a host that ended while the loop was busy is not a hang.
            self.reap()
            while self.timers and self.timers[0][0] <= time.monotonic():
                _, _, callback = heapq.heappop(self.timers)
                callback()
                self.reap()

    # The end

    def tear_down(self):
        # Interrupted (Ctrl-C, SIGTERM): the runs still going are ended too.
        for unfinished in self.active + self.checking:
            for pid in (unfinished.host_pid, unfinished.shell.pid if unfinished.shell else None):
                if pid:
                    processes.kill_tree(pid)
        for popen in self.helpers.values():
            if popen is self.server:
                popen.stdin.close()
            else:
                popen.kill()
        deadline = time.monotonic() + 5
        while self.helpers and time.monotonic() < deadline:
            self.reap()
            time.sleep(0.05)
        # Anything still a child of the soak now was left by some run.
        strays = [pid for pid in processes.children() if pid not in self.helpers
                  and processes.state(pid) not in (None, "Z")]
        for pid in strays:
            print("FAILURE: left behind at the soak's end: %d %s (run %s)" % (
                pid, processes.command_line(pid), processes.run_of(pid)), flush=True)
            processes.kill_tree(pid)
        self.strays = len(strays)

    def summary(self):
        loads = self.loads or [0]
        lines = [
            "soak: seed %d, %d runs in %.0f s (%d at a time, %d busy processes of its own), binary %s" % (
                self.seed, self.runs, self.duration, self.options.jobs, self.options.load, self.binary),
            "soak: load (1 min) min %.1f, mean %.1f, max %.1f over %d samples" % (
                min(loads), sum(loads) / len(loads), max(loads), len(loads)),
            "soak: core files: %s" % (self.core_problem or "in each run's folder (pattern '%s', limit %s)" % (
                self.core_pattern, "unlimited" if self.core_limit == -1 else self.core_limit)),
        ]
        kinds = sorted((k[5:], v) for k, v in self.counts.items() if k.startswith("kind "))
        lines.append("soak: runs: " + ", ".join("%s %d" % kv for kv in kinds))
        actions = sorted((k[7:], v) for k, v in self.counts.items() if k.startswith("action "))
        lines.append("soak: done to them: " + ", ".join("%s %d" % kv for kv in actions)
                     + ", stops %d, drive clients %d" % (self.counts.get("stops", 0),
                                                         self.counts.get("drive clients", 0))
                     + (", hung up before the job started %d" % self.counts["runs the job shell could not start"]
                        if "runs the job shell could not start" in self.counts else ""))
        statuses = sorted((k[7:], v) for k, v in self.counts.items() if k.startswith("status "))
        lines.append("soak: how the hosts ended: " + ", ".join("%s %d" % kv for kv in statuses))
        deaths = sum(1 for r in self.failed for what, _ in r.failures if "died of" in what)
        lines.append("soak: %d failed runs: %d host deaths, %d hangs, %d with processes left behind "
                     "(+%d at the end), %d with cores, %d terminals left wrong" % (
                         len(self.failed), deaths, self.counts.get("hangs", 0),
                         self.counts.get("processes left behind", 0), self.strays, self.counts.get("cores", 0),
                         sum(1 for r in self.failed for what, _ in r.failures if "terminal" in what)))
        if self.interrupted:
            lines.append("soak: INTERRUPTED before its time was up: the figures are of the runs that ended")
        # Each failure's headline again, last: a log cut to its tail (CI's)
        # still says what failed and how to replay it.
        for failed_run in self.failed:
            lines.append("soak: failed run %s (%s): %s; replay: scripts/soak --seed %d --only %d" % (
                failed_run.id, failed_run.spec.describe(), "; ".join(what for what, _ in failed_run.failures),
                self.seed, failed_run.spec.index))
        if self.failed or self.strays:
            lines.append("soak: FAILED; the folders of the failed runs are kept under %s" % self.folder)
        return "\n".join(lines)


def interrupt(*_):
    raise KeyboardInterrupt


def main():
    parser = argparse.ArgumentParser(description="A seeded storm of presenter-host runs.")
    parser.add_argument("--binary", required=True, help="the folder of the built presenter-host")
    parser.add_argument("--seconds", type=float, default=60, help="how long new runs start (default 60)")
    parser.add_argument("--jobs", type=int, default=8, help="runs at a time (default 8)")
    parser.add_argument("--seed", type=int, help="the storm's seed (default: a new one, printed)")
    parser.add_argument("--load", type=int, default=2, help="busy processes of the soak's own (default 2)")
    parser.add_argument("--only", type=int, help="run only the run of this index, again and again")
    parser.add_argument("--slack", type=float, default=30, help="seconds a run may take past its bound")
    parser.add_argument("--folder", help="where the runs' folders go (default: a new one in /tmp)")
    parser.add_argument("--keep", action="store_true", help="keep every run's folder, not only the failed ones'")
    options = parser.parse_args()
    soak = Soak(options)
    # SIGTERM ends the soak as Ctrl-C does: through tear_down, which leaves nothing running.
    signal.signal(signal.SIGTERM, interrupt)
    soak.set_up()
    print("soak: seed %d, %s s, %d at a time, load +%d, folder %s" % (
        soak.seed, options.seconds, options.jobs, options.load, soak.folder), flush=True)
    if soak.core_problem:
        print("soak: %s" % soak.core_problem, flush=True)
    try:
        soak.loop()
    except KeyboardInterrupt:
        soak.interrupted = True
    finally:
        soak.tear_down()
    print(soak.summary(), flush=True)
    if not soak.failed and not soak.strays and not options.keep:
        shutil.rmtree(soak.folder, ignore_errors=True)
    sys.exit(1 if soak.failed or soak.strays else 0)


main()
