"""Part `profiles`: where a start's instructions and time go (issue 33), for
`presenter-host --version`, `run -- true` plain (/dev/null, CI=1) and in the
80x24 pty (default options), `run --in-process -- true` plain and the
peers' `-- true`:

  instructions  callgrind, the host's process alone, once each (the count
                does not move with load): by object (each function's own
                instructions, summed by the library it is in) and by phase
                (inclusive: `_dl_start` is the dynamic linker loading and
                relocating, `_dl_init` the libraries' initialisers, libc's
                `(below main)` our main to exit, `start_thread` the other
                threads; the Swift runtime's type and conformance look-ups
                within them). A presenter process is not counted: today
                it is the host's executable started again as
                /proc/self/exe, valgrind's own under it, so it cannot start
                and the host goes on with plain lines (the table says so);
                a plugin executable started by its path (issue 33's split)
                is no more counted, its sandbox being no place for valgrind.
                `run --in-process` is followed into the executable it
                execs, if it does (presenter-host-plugins after the split):
                then the count is that executable's.
  the linker    LD_DEBUG=statistics: relocations and the share of the
                linker's time they take.
  time          perf stat -r N (task-clock, page faults, context switches:
                the whole tree, the presenter process and the command too),
                plain; perf record -g -e cpu-clock over N runs in a row,
                its samples by process (the host, the presenter process,
                the command) and object, the kernel included: ms per run;
                the kernel's samples by the system call in their call chain.

valgrind 3.19 cannot read Swift 6.3's DWARF 5: the binaries are copied with
`strip --strip-debug` (instructions.stripped). One command re-runs it all:
`scripts/bench --parts profiles`."""
import collections
import os
import re
import shutil
import subprocess
import tempfile

from build import apt_install
from common import log, plain_env, pty_env, run_in_pty
from instructions import stripped

# How the host says a presenter process did not come up (in plain lines).
PRESENTER_FAILED = b"going on with plain progress lines"
# perf record's sampling rate (Hz): fine enough for runs of milliseconds, few
# enough interrupts not to make the kernel's share.
FREQUENCY = 4000
# The functions whose inclusive instructions make the phases.
PHASES = (
    ("exec's dynamic linking: loading and relocating (`_dl_start`)", "_dl_start", "ld-linux"),
    ("the libraries' initialisers (`_dl_init`)", "_dl_init", "ld-linux"),
    ("main to exit, main thread (libc's `(below main)`)", "(below main)", "libc.so"),
    ("of which `exit` (destructors, atexit)", "exit", "libc.so"),
    ("the other threads (`start_thread`)", "start_thread", "libc.so"),
    ("the runtime's conformance look-ups (`swift_conformsToProtocol…`, within the above)",
     "swift_conformsToProtocolWithExecutionContext", "libswiftCore"),
    ("the runtime's type look-ups by name (`swift_getTypeByMangledName`, within the above)",
     "swift_getTypeByMangledName", "libswiftCore"),
)


def callgrind_objects(path):
    """({object: own instructions}, total) of a callgrind output file: the
    cost lines of each function summed by its `ob=`, a call's inclusive
    line (the one after `calls=`) skipped; names may be compressed as `(N)`."""
    names, costs, current, skip, total = {}, collections.Counter(), None, False, 0
    with open(path) as f:
        for line in f:
            if line.startswith(("ob=", "cob=")):
                ident, name = re.match(r"c?ob=(?:\((\d+)\))?\s*(.*)", line.rstrip("\n")).groups()
                if name and ident:
                    names[ident] = name
                name = name or names.get(ident, "???")
                if line.startswith("ob="):
                    current = name
            elif line.startswith("calls="):
                skip = True
            elif line[:1] in "0123456789+-*":
                if skip:
                    skip = False
                    continue
                parts = line.split()
                if len(parts) >= 2:
                    costs[current] += int(parts[1])
            elif line.startswith(("summary:", "totals:")):
                total = int(line.split()[1])
    return costs, total or sum(costs.values())


def callgrind_inclusive(path):
    """{(function, object basename): inclusive instructions} from callgrind_annotate."""
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path], check=True,
                         capture_output=True, text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*?)(?: \[(.*)\])?$", line)
        if not m or ":" not in m.group(2):
            continue
        function = m.group(2).split(":", 1)[1]
        key = (function, os.path.basename(m.group(3) or ""))
        found[key] = max(found.get(key, 0), int(m.group(1).replace(",", "")))
    return found


def object_group(name):
    base = os.path.basename(name or "???")
    if base.startswith("ld-linux"):
        return "ld.so (the dynamic linker)"
    if base in ("presenter-host", "presenter-host-plugins"):
        return "ours: %s" % base
    if base.startswith("lib") and ".so" in base:
        return base.split(".so")[0]
    if "presenter-plugin" in base or base.endswith(".so"):
        return "plugins"
    return base


def callgrind_run(binary, argv, in_pty, out):
    """Runs the host under callgrind; True when it says its presenter process
    did not come up. `--in-process` follows an exec (from issue 33's split the
    host execs presenter-host-plugins for it, whose count is then the one
    written: valgrind keeps nothing of an image an exec replaces); nothing
    else does, as a presenter process's sandbox is no place for valgrind."""
    follow = ["--trace-children=yes", "--trace-children-skip=*/true,true"] if "--in-process" in argv else []
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + follow + [binary] + argv
    env_dir = os.path.join(os.path.dirname(binary), "cache")
    if in_pty:
        result = run_in_pty(command, env=pty_env({"XDG_CACHE_HOME": env_dir}), sample=False,
                            command_comms=("true",))
        output = b"".join(data for _, data in result["chunks"])
    else:
        result = subprocess.run(command, env=plain_env({"XDG_CACHE_HOME": env_dir}), stdin=subprocess.DEVNULL,
                                capture_output=True)
        output = result.stdout + result.stderr
    return PRESENTER_FAILED in output


def instructions(ctx, report, cases):
    if shutil.which("valgrind") is None:
        apt_install("valgrind")
    binary = stripped(ctx.binary, ctx.scratch, "profiles")
    folder = os.path.dirname(binary)
    for label, argv, in_pty in cases:  # untimed: a warm registry cache, as a user's start has
        callgrind_run(binary, argv, in_pty, os.path.join(folder, "warm.out"))
    objects, phases, totals, notes = {}, {}, {}, {}
    for label, argv, in_pty in cases:
        log("profiles: callgrind: %s" % label)
        out = os.path.join(folder, "callgrind.%d.out" % len(objects))
        failed = callgrind_run(binary, argv, in_pty, out)
        costs, total = callgrind_objects(out)
        grouped = collections.Counter()
        for name, value in costs.items():
            grouped[object_group(name)] += value
        objects[label], totals[label] = grouped, total
        inclusive = callgrind_inclusive(out)
        phases[label] = [max([v for (fn, obj), v in inclusive.items() if fn == function and obj.startswith(prefix)]
                             or [0]) for _, function, prefix in PHASES]
        notes[label] = "the presenter process could not start under valgrind: the host's side, then plain lines" \
            if failed else ""
    labels = [label for label, _, _ in cases]
    order = sorted({name for grouped in objects.values() for name in grouped},
                   key=lambda name: -max(objects[label][name] / totals[label] for label in labels))
    rows = [["total (thousands)"] + ["%d" % (totals[label] / 1000) for label in labels]]
    for name in order:
        if max(objects[label][name] / totals[label] for label in labels) < 0.002:
            continue
        rows.append([name] + ["%d (%.0f %%)" % (objects[label][name] / 1000, 100 * objects[label][name] /
                                                totals[label]) for label in labels])
    report.table(["object (own instructions, thousands)"] + labels, rows,
                 title="Instructions of the host's process by object (callgrind, one run each, warm registry "
                       "cache)")
    rows = [[phase] + ["%d (%.0f %%)" % (phases[label][index] / 1000, 100 * phases[label][index] / totals[label])
                       for label in labels] for index, (phase, _, _) in enumerate(PHASES)]
    report.table(["phase (inclusive instructions, thousands)"] + labels, rows,
                 title="The same by phase")
    for label in labels:
        if notes[label]:
            report.text("%s: %s." % (label, notes[label]))
        report.figure("profiles.instructions.%s" % slug(label), totals[label])
        report.figure("profiles.ld_so.%s" % slug(label), objects[label]["ld.so (the dynamic linker)"])


def slug(label):
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


def linker(ctx, report, commands):
    rows = []
    for label, argv in commands:
        err = subprocess.run(argv, env=plain_env({"LD_DEBUG": "statistics"}), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True).stderr
        pid = None
        values = {}
        for line in err.splitlines():
            m = re.match(r"\s*(\d+):\s+(.*?):\s+(\d+)(?: cycles)?(?: \(([\d.]+)%\))?", line)
            if not m:
                continue
            pid = pid or m.group(1)
            if m.group(1) == pid:  # the first process: the one started
                values.setdefault(m.group(2).strip(), (int(m.group(3)), m.group(4)))
        objects = len(subprocess.run(argv[:1], env=plain_env({"LD_TRACE_LOADED_OBJECTS": "1"}),
                                     capture_output=True, text=True).stdout.strip().splitlines())
        relative = values.get("number of relative relocations", (0, None))[0]
        symbolic = values.get("number of relocations", (0, None))[0]
        cached = values.get("number of relocations from cache", (0, None))[0]
        share = values.get("time needed for relocation", (0, None))[1]
        rows.append([label, objects, symbolic, cached, relative, "%s %%" % share if share else "-"])
    report.table(["LD_DEBUG=statistics", "objects loaded (ldd)", "symbol relocations", "from the cache",
                  "relative relocations", "relocation's share of the linker's time"], rows,
                 title="The dynamic linker, at start")


def perf_stat(ctx, report, commands):
    runs = max(5, ctx.args.startup_runs)
    rows = []
    for label, argv in commands:
        log("profiles: perf stat -r %d %s" % (runs, label))
        with tempfile.NamedTemporaryFile("r", suffix=".csv") as out:
            subprocess.run(["perf", "stat", "-r", str(runs), "-x", ",", "-o", out.name, "-e",
                            "task-clock,page-faults,context-switches,cpu-migrations", "--"] + argv,
                           env=plain_env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            values = {}
            for line in out.read().splitlines():
                fields = line.split(",")
                if len(fields) > 2 and fields[0] and not line.startswith("#"):
                    values[fields[2]] = float(fields[0]) if fields[0][0].isdigit() else float("nan")
        rows.append([label, values.get("task-clock"), values.get("page-faults"), values.get("context-switches"),
                     values.get("cpu-migrations")])
    report.table(["perf stat, plain (means of %d runs; the tree)" % runs, "task-clock ms", "page faults",
                  "context switches", "migrations"], rows, title="CPU, page faults and switches (perf stat)")


def perf_record(ctx, report, label, argv, in_pty):
    """Samples of `runs` runs of argv in a row by process kind and object, in
    ms per run (the sampling's own interrupts included: the shares are the
    surer figure)."""
    runs = max(20, ctx.args.startup_runs)
    folder = tempfile.mkdtemp(prefix="bench-perf-")
    data = os.path.join(folder, "perf.data")
    loop = "for i in $(seq %d); do \"$@\"; done" % runs
    command = ["perf", "record", "-q", "-g", "-e", "cpu-clock", "-F", str(FREQUENCY), "-o", data, "--", "sh", "-c",
               loop, "loop"] + argv
    log("profiles: perf record, %d runs of %s" % (runs, label))
    if in_pty:
        run_in_pty(command, sample=False, command_comms=("true",))
    else:
        subprocess.run(command, env=plain_env(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True)
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,period,ip,sym,dso"],
                            capture_output=True, text=True).stdout
    shutil.rmtree(folder, ignore_errors=True)
    samples, comms = [], collections.defaultdict(set)
    for block in script.split("\n\n"):
        lines = block.strip("\n").splitlines()
        head = re.match(r"\s*(.*?)\s+(\d+)/(\d+)\s+(\d+)\s*$", lines[0]) if lines else None
        if not head:
            continue
        comm, pid, tid, period = head.groups()
        frames = [m.groups() for m in (re.match(r"\s+[0-9a-f]+\s+(.*?)\s*\(([^()]*(?: \(deleted\))?)\)\s*$", line)
                                       for line in lines[1:]) if m]
        if pid == tid:
            comms[pid].add(comm)
        samples.append((pid, int(period), frames))
    table, kernel = collections.Counter(), collections.Counter()
    for pid, period, frames in samples:
        kind = process_kind(comms[pid])
        dso = frames[0][1] if frames else "[unknown]"
        if dso.startswith("[kernel"):
            kernel[(kind, kernel_entry([symbol for symbol, _ in frames]))] += period
        table[(kind, "the kernel" if dso.startswith("[kernel") else object_group(dso))] += period
    by_kind = collections.Counter()
    for (kind, _), period in table.items():
        by_kind[kind] += period
    everything = sum(by_kind.values()) or 1
    rows = []
    for kind, period in by_kind.most_common():
        rows.append(["**%s**" % kind, "", period / 1e6 / runs, "%.0f %%" % (100 * period / everything)])
        for (k, dso), value in table.most_common():
            if k == kind and value / 1e6 / runs >= 0.05:
                rows.append(["", dso, value / 1e6 / runs, "%.1f %%" % (100 * value / everything)])
    report.table(["process", "object", "ms a run", "share"], rows,
                 title="Where the CPU time of `%s` goes (perf record -g -e cpu-clock -F %d, %d runs in a row)"
                       % (label, FREQUENCY, runs))
    report.table(["process", "the kernel's time in", "ms a run", "share"],
                 [[kind, entry, value / 1e6 / runs, "%.1f %%" % (100 * value / everything)]
                  for (kind, entry), value in kernel.most_common(14)],
                 title="Its kernel time by system call (the samples' kernel call chains, perf record -g)")


def kernel_entry(symbols):
    """What a kernel sample was doing, from its call chain (leaf first): the
    system call it is in, a page fault, or else the scheduler and interrupts."""
    for symbol in reversed(symbols):
        m = re.match(r"(?:__x64_sys|__do_sys|__se_sys|__ia32_sys)_(\w+)", symbol)
        if m:
            return "`%s`" % m.group(1)
    if any(symbol in ("exc_page_fault", "asm_exc_page_fault", "handle_mm_fault") for symbol in symbols):
        return "page faults"
    if any(symbol.startswith("ret_from_fork") for symbol in symbols):
        return "a new process's first steps (`ret_from_fork`)"
    return "other (the scheduler, interrupts)"


def process_kind(comms):
    """What a process of the loop was, from the names its main thread had:
    a pid is its parent's copy until it execs, and the presenter process,
    started as /proc/self/exe, is `exe` until it names itself."""
    if "true" in comms:
        return "the command"
    if "exe" in comms or any(comm.startswith("presenter-host-") for comm in comms):
        return "the presenter process (or presenter-host-plugins)"
    if "presenter-host" in comms:
        return "the host"
    return "the loop (sh)" if comms == {"sh"} else "other"


def run(ctx):
    from results import Report
    report = Report("profiles")
    binary = ctx.binary
    cases = (("`--version`", ["--version"], False),
             ("`run -- true`, plain", ["run", "--", "true"], False),
             ("`run -- true`, pty", ["run", "--", "true"], True),
             ("`run --in-process -- true`, plain", ["run", "--in-process", "--", "true"], False))
    instructions(ctx, report, cases)
    commands = (("`presenter-host --version`", [binary, "--version"]),
                ("`presenter-host run -- true`", [binary, "run", "--", "true"]),
                ("`presenter-host run --in-process -- true`", [binary, "run", "--in-process", "--", "true"]),
                ("`indicatif-spin -- true`", [ctx.indicatif, "--", "true"]))
    linker(ctx, report, commands[:1] + commands[3:])
    if shutil.which("perf") is None:
        apt_install("linux-perf")
    perf_stat(ctx, report, commands)
    perf_record(ctx, report, "presenter-host run -- true, plain", [binary, "run", "--", "true"], False)
    perf_record(ctx, report, "presenter-host run -- true, pty", [binary, "run", "--", "true"], True)
    return report
