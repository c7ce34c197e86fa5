"""The soak's view of processes: who is left of a run, and what a crash or a hang looked like.

The soak is a child subreaper (PR_SET_CHILD_SUBREAPER): a process whose
parent dies is re-parented to the soak, not to init. So once a host has
ended, whatever it or its command left running is a child of the soak, and
the soak tells whose it is by the `SOAK_RUN` variable every run's
processes inherit.
"""
import ctypes
import glob
import os
import resource
import signal
import subprocess

PR_SET_CHILD_SUBREAPER = 36
MARKER = "SOAK_RUN"


def become_subreaper():
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def children():
    """The soak's own children (its tasks' `children` lists)."""
    pids = set()
    for path in glob.glob("/proc/self/task/*/children"):
        try:
            with open(path) as file:
                pids.update(int(pid) for pid in file.read().split())
        except OSError:
            pass
    return pids


def run_of(pid):
    """The soak run a process belongs to (its SOAK_RUN), or None."""
    try:
        with open("/proc/%d/environ" % pid, "rb") as file:
            for entry in file.read().split(b"\0"):
                if entry.startswith(MARKER.encode() + b"="):
                    return entry[len(MARKER) + 1:].decode()
    except OSError:
        pass
    return None


def state(pid):
    """The one-letter state (R, S, D, T, Z, ...) or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as file:
            return file.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def command_line(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as file:
            return " ".join(part.decode(errors="replace") for part in file.read().split(b"\0") if part)
    except OSError:
        return "?"


def descendants(pid):
    """`pid` and every process below it (from /proc's parent links)."""
    parents = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as file:
                fields = file.read().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.split("/")[2]))
        except (OSError, IndexError, ValueError):
            pass
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(parents.get(current, []))
    return found


def kill_tree(pid):
    for member in descendants(pid):
        try:
            os.kill(member, signal.SIGKILL)
        except OSError:
            pass


def allow_cores():
    """Core files of any size for the soak's children (they inherit the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))
    return hard


def core_pattern():
    """How the kernel names core files, and whether each run's folder gets its host's.

    A pattern without a directory and not a pipe ("core", "core.%p") puts
    the file in the crashing process's working directory: each run's
    folder, with nothing changed on the machine. The pattern is the whole
    machine's (not a container's or a process's own), so the soak never
    changes it; elsewhere it says how to.
    """
    try:
        with open("/proc/sys/kernel/core_pattern") as file:
            pattern = file.read().strip()
    except OSError:
        return None, "cannot read /proc/sys/kernel/core_pattern: no core files"
    if pattern.startswith("|"):
        return pattern, ("core files go to a program (%s), not to the soak's folders: run as root "
                         "`echo core > /proc/sys/kernel/core_pattern` to have them, or read them with "
                         "that program (coredumpctl)" % pattern.split()[0][1:])
    if "/" in pattern:
        return pattern, "core files go to %s, not to the soak's folders" % os.path.dirname(pattern)
    return pattern, None


def backtrace_of_core(binary, core):
    """gdb's backtrace of every thread in `core`."""
    return _gdb([binary, core])


def backtrace_of_process(pid):
    """Each thread's state and kernel wait channel, then gdb's backtrace of every thread of a live process.

    The kernel's view first: gdb cannot attach to a process one of whose
    threads never stops (a thread in uninterruptible sleep).
    """
    lines = []
    for task in sorted(glob.glob("/proc/%d/task/*" % pid)):
        try:
            with open(task + "/comm") as comm, open(task + "/wchan") as wchan:
                lines.append("thread %s (%s): state %s, waiting in %s" % (
                    os.path.basename(task), comm.read().strip(), state(int(os.path.basename(task))),
                    wchan.read().strip() or "-"))
        except OSError:
            pass
    return "\n".join(lines) + "\n" + _gdb(["-p", str(pid)])


def _gdb(target):
    try:
        # -iex: before the inferior's symbols are read, or each missing DWO
        # unit is a line of complaint and the backtraces drown in them.
        result = subprocess.run(["gdb", "-batch", "-nx", "-iex", "set pagination off", "-iex", "set complaints 0",
                                 "-ex", "info threads",
                                 "-ex", "thread apply all bt"] + target,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
    except FileNotFoundError:
        return "(gdb is not installed: apt-get install gdb)"
    except subprocess.TimeoutExpired:
        return "(gdb did not finish within 120 s)"
    return "\n".join(line for line in (result.stdout + result.stderr).splitlines()
                     if not line.lstrip().startswith("During symbol reading"))


def core_info(path):
    """Whose core file `path` is: (pid, signal, program name, arguments), from its ELF notes.

    Read from NT_PRSTATUS (the signal, then the pid) and NT_PRPSINFO (the
    name and arguments) of an x86-64 or AArch64 core; None when the file
    is not a core the soak can read.
    """
    import struct
    try:
        with open(path, "rb") as file:
            data = file.read(1 << 20)
            if data[:4] != b"\x7fELF" or data[4] != 2:
                return None
            phoff, = struct.unpack_from("<Q", data, 32)
            phentsize, phnum = struct.unpack_from("<HH", data, 54)
            notes = []
            for index in range(phnum):
                kind, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", data, phoff + index * phentsize)
                if kind == 4:  # PT_NOTE
                    file.seek(offset)
                    notes.append(file.read(min(size, 1 << 20)))
    except (OSError, struct.error):
        return None
    pid = signal_number = None
    name = arguments = "?"
    for note in notes:
        position = 0
        while position + 12 <= len(note):
            name_size, desc_size, kind = struct.unpack_from("<III", note, position)
            desc = position + 12 + (name_size + 3) // 4 * 4
            if kind == 1 and pid is None:  # NT_PRSTATUS: elf_siginfo, cursig, ..., pid at 32
                signal_number, = struct.unpack_from("<i", note, desc)
                pid, = struct.unpack_from("<i", note, desc + 32)
            elif kind == 3:  # NT_PRPSINFO: fname[16] at 40, psargs[80] at 56
                name = note[desc + 40:desc + 56].split(b"\0")[0].decode(errors="replace")
                arguments = note[desc + 56:desc + 136].split(b"\0")[0].decode(errors="replace")
            position = desc + (desc_size + 3) // 4 * 4
    return pid, signal_number, name, arguments
