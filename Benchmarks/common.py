"""What every part shares: running a command in an 80x24 pty or on /dev/null,
reading its CPU time from outside, medians and ratios, logging."""
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HELPERS = os.path.join(ROOT, "Benchmarks", "helpers")
INCLUDE = os.path.join(ROOT, "Sources", "PresenterABI", "include")
COLS, ROWS = 80, 24
BENCH_EXE = os.path.realpath(__import__("sys").executable)
# The descriptor the hang part's command writes its byte to.
NOTIFY_FD = 9


def log(text):
    print("bench: " + text, file=__import__("sys").stderr, flush=True)


def median(values):
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def ratio(a, b):
    """a / b, or NaN when either is missing."""
    return a / b if b and a == a and b == b else float("nan")


def fmt_ratio(value):
    return "%.2f" % value if value == value else "-"


def load_average():
    with open("/proc/loadavg") as f:
        return tuple(float(x) for x in f.read().split()[:3])


def read_stat(pid):
    """(comm, ppid, {thread id: CPU seconds}) of a process, or None once it
    is gone. The CPU time is each thread's /proc/PID/task/TID/schedstat (in
    nanoseconds; the stat file's utime + stime count 10 ms ticks, too coarse
    for a process that uses a few milliseconds a second). Kept per thread: a
    sum over the threads would lose a thread's time when it ends, and a
    window over a process whose start-up threads end would come out negative."""
    try:
        with open("/proc/%s/stat" % pid) as f:
            text = f.read()
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        threads = {}
        for task in os.listdir("/proc/%s/task" % pid):
            try:
                with open("/proc/%s/task/%s/schedstat" % (pid, task)) as f:
                    threads[int(task)] = int(f.read().split()[0]) / 1e9
            except (OSError, IndexError, ValueError):
                pass  # a thread that ended meanwhile
        return comm, int(fields[1]), threads
    except (OSError, IndexError, ValueError):
        return None


def peak_rss_kib(pid):
    """VmHWM of a live process (KiB), or None."""
    try:
        with open("/proc/%s/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def descendants(pid):
    """The pids of pid's live descendants, with their comm."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = read_stat_light(entry)
        if stat is not None:
            children.setdefault(stat[1], []).append((int(entry), stat[0]))
    found, todo = [], [pid]
    while todo:
        for child, comm in children.get(todo.pop(), []):
            found.append((child, comm))
            todo.append(child)
    return found


def read_stat_light(pid):
    try:
        with open("/proc/%s/stat" % pid) as f:
            text = f.read()
        return text[text.index("(") + 1:text.rindex(")")], int(text.rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


class Tree:
    """CPU and peak RSS of a measured process and of every descendant that is
    not the command it runs (ours: the host, its presenter process and any
    helper or sandbox process it starts; indicatif: its one process): the
    command's comm (`sleep`, `true`) is left out."""

    def __init__(self, pid, command_comms):
        self.pid = pid
        self.command_comms = set(command_comms)
        self.rss = {}
        self.comms = set()
        self.commands = set()

    def sample(self):
        """{(pid, thread id): CPU seconds} now, or None once the process is gone."""
        own = read_stat(self.pid)
        if own is None:
            return None
        cpu = {(self.pid, tid): seconds for tid, seconds in own[2].items()}
        self._rss(self.pid)
        for child, comm in descendants(self.pid):
            if comm in self.command_comms:
                # The command, now that it is exec'd: what its pid held
                # before (a copy of its parent between fork and exec) is not
                # a process of ours either.
                self.commands.add(child)
                self.rss.pop(child, None)
                continue
            if child in self.commands:
                continue
            stat = read_stat(child)
            if stat is None:
                continue
            self.comms.add(comm)
            cpu.update({(child, tid): seconds for tid, seconds in stat[2].items()})
            self._rss(child)
        return cpu

    def _rss(self, pid):
        # Not before its exec: between fork and exec the process is a copy of
        # the bench's Python, whose peak would be counted as the command's.
        try:
            if os.readlink("/proc/%s/exe" % pid) == BENCH_EXE:
                return
        except OSError:
            return
        value = peak_rss_kib(pid)
        if value is not None:
            self.rss[pid] = max(self.rss.get(pid, 0), value)

    def peak_rss_sum_kib(self):
        return sum(kib for pid, kib in self.rss.items() if pid not in self.commands)


def pty_env(extra=None):
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8", COLUMNS=str(COLS), LINES=str(ROWS))
    for key in ("CI", "NO_COLOR", "FIXTURE_MISBEHAVE"):
        env.pop(key, None)
    env.update(extra or {})
    return env


def plain_env(extra=None):
    env = dict(os.environ, LANG="C.UTF-8", CI="1")
    for key in ("TERM", "NO_COLOR", "FIXTURE_MISBEHAVE"):
        env.pop(key, None)
    env.update(extra or {})
    return env


def exec_child(argv, env, notify=None):
    """In a forked child: the pipe's write end as NOTIFY_FD, then exec argv."""
    try:
        if notify is not None:
            read_end, write_end = notify
            os.close(read_end)
            os.dup2(write_end, NOTIFY_FD)  # inheritable
        os.execvpe(argv[0], argv, env)
    finally:
        os._exit(127)


def run_in_pty(argv, strace_log=None, env=None, notify=None, sample=True, command_comms=("sleep",), interval=0.25):
    """Runs argv in an 80x24 pty; returns timings, CPU (wait4's rusage), the
    CPU samples of its tree, its peak RSS (the tree's processes summed), the
    output chunks and, with `notify` (a pipe), when its first byte came."""
    env = env or pty_env()
    if strace_log:
        # -y names each descriptor's file, so only writes to the terminal count
        # (not a helper process writing to a pipe); -ttt times them.
        argv = ["strace", "-f", "-q", "-y", "-ttt", "-s", "0", "-e", "trace=write,execve", "-e", "signal=none",
                "-o", strace_log] + argv
    start = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        exec_child(argv, env, notify)
    tree = Tree(pid, command_comms)
    watched = [fd]
    if notify is not None:
        os.close(notify[1])
        watched.append(notify[0])
    chunks, samples = [], []
    next_sample = start
    status = rusage = None
    notified_at = exited_at = None
    while True:
        now = time.monotonic()
        if sample and now >= next_sample and status is None:
            cpu = tree.sample()
            if cpu is not None:
                samples.append((now - start, cpu))
            next_sample = now + interval
        ready, _, _ = select.select(watched, [], [], 0.05)
        if notify is not None and notify[0] in ready:
            if os.read(notify[0], 64) and notified_at is None:
                notified_at = time.monotonic() - start
            else:
                watched.remove(notify[0])
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                break
            chunks.append((time.monotonic() - start, data))
        if status is None:
            waited, st, ru = os.wait4(pid, os.WNOHANG)
            if waited == pid:
                status, rusage, exited_at = st, ru, time.monotonic() - start
    if status is None:
        _, status, rusage = os.wait4(pid, 0)
        exited_at = time.monotonic() - start
    os.close(fd)
    if notify is not None:
        os.close(notify[0])
    return {
        "pid": pid,
        "elapsed": time.monotonic() - start,
        "exited_at": exited_at,
        "notified_at": notified_at,
        "status": status,
        "cpu": rusage.ru_utime + rusage.ru_stime,
        "samples": samples,
        "chunks": chunks,
        "peak_rss_kib": tree.peak_rss_sum_kib(),
        "rss_by_pid": {pid: kib for pid, kib in tree.rss.items() if pid not in tree.commands},
        "comms": sorted(tree.comms),
    }


def run_plain(argv, env=None, notify=None, stderr_path=None):
    """Runs argv with stdin and stdout on /dev/null and stderr on /dev/null
    (or a file); returns the exit status and, with `notify`, when its first
    byte came and when the process exited (time.monotonic)."""
    env = env or plain_env()
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if stderr_path else null
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(err, 2)
        exec_child(argv, env, notify)
    notified_at = None
    if notify is not None:
        os.close(notify[1])
        while True:
            data = os.read(notify[0], 64)  # blocks: EOF once every holder is gone
            if data and notified_at is None:
                notified_at = time.monotonic()
            if not data or notified_at is not None:
                break
        os.close(notify[0])
    _, status = os.waitpid(pid, 0)
    return {"status": status, "notified_at": notified_at, "exited_at": time.monotonic()}


SPAWN_TIME = []


def spawn_time_binary():
    """helpers/spawn_time.c, built once into a temporary folder."""
    if not SPAWN_TIME:
        import tempfile
        output = os.path.join(tempfile.mkdtemp(prefix="bench-spawn-"), "spawn_time")
        SPAWN_TIME.append(compile_c(helper("spawn_time.c"), output))
    return SPAWN_TIME[0]


def timed_plain(argv, env=None):
    """(wall seconds, wait status, peak RSS KiB, CPU seconds) of argv with
    stdin, stdout and stderr on /dev/null, timed by helpers/spawn_time.c: a
    fork of the bench's Python process would take milliseconds, and its pages
    would count in the command's peak RSS."""
    out = subprocess.run([spawn_time_binary()] + list(argv), env=env or plain_env(), check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[2]), float(out[3])


def timed_pty(argv, env=None):
    """(wall seconds, wait status, bytes drawn) of argv in a new 80x24 pty,
    timed by helpers/spawn_time.c (--pty: forkpty, the output read to its
    end, wait4), as timed_plain is: a fork of the bench's Python would count."""
    out = subprocess.run([spawn_time_binary(), "--pty"] + list(argv), env=env or pty_env(), check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split()
    return float(out[0]), int(out[1]), int(out[4])


def steady_cpu(samples, pids=None):
    """CPU per second over the window of samples, summed over the threads
    seen (one that appears within it started from 0; one that ends counts up
    to its last sample); with pids, those processes' threads alone."""
    if len(samples) < 2 or samples[-1][0] <= samples[0][0]:
        return float("nan")
    first, total = samples[0][1], 0.0
    threads = set().union(*(cpu.keys() for _, cpu in samples))
    if pids is not None:
        threads = {key for key in threads if key[0] in pids}
    for key in threads:
        seen = [cpu[key] for _, cpu in samples if key in cpu]
        total += seen[-1] - first.get(key, 0.0)
    return total / (samples[-1][0] - samples[0][0])


def analyse_spin(result, baseline_cpu, seconds):
    """The figures of one spinner run: CPU (whole run, minus the command's own;
    steady, from 1 s on), bytes, frames."""
    chunks = result["chunks"]
    sizes = [len(c) for _, c in chunks]
    # Steady state: the writes between the first frame (which draws the box)
    # and the last two (which may end the animation and clear the region).
    steady = chunks[1:-2] if len(chunks) > 4 else []
    steady_sizes = [len(c) for _, c in steady]
    if len(steady) >= 2:
        span = steady[-1][0] - steady[0][0]
        fps = (len(steady) - 1) / span if span > 0 else 0
    else:
        fps = 0
    samples = [s for s in result["samples"] if s[0] >= 1.0]
    cpu = max(0.0, result["cpu"] - baseline_cpu)
    return {
        "cpu_s": cpu,
        "cpu_pct": 100 * cpu / seconds,
        "steady_cpu_pct": 100 * steady_cpu(samples),
        "steady_host_cpu_pct": 100 * steady_cpu(samples, {result["pid"]}),
        "processes": len({pid for _, cpu in samples for pid, _ in cpu}),
        "bytes": sum(sizes),
        "reads": len(chunks),
        "fps": fps,
        "bytes_per_frame": median(steady_sizes) if steady_sizes else float("nan"),
        "max_bytes_per_frame": max(steady_sizes) if steady_sizes else float("nan"),
        "elapsed": result["elapsed"],
        "status": result["status"],
        "peak_rss_kib": result["peak_rss_kib"],
        "comms": result["comms"],
    }


def compile_c(source, output, shared=False, extra=()):
    command = ["cc", "-O2", "-std=c11", "-I", INCLUDE, "-o", output, source] + list(extra)
    if shared:
        command[1:1] = ["-shared", "-fPIC"]
    subprocess.run(command, check=True)
    return output


def helper(name):
    return os.path.join(HELPERS, name)
