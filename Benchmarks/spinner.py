"""Part `spinner`: `presenter-host run -- sleep S` (the presenter process)
against `run --in-process` and rich's `Console.status` (Python), in the
80x24 pty, N times each, alternating; each once more under strace to count
the write(2) calls on the terminal; and `run --success Done -- sleep 1` to
check that nothing is written while the check mark stands."""
import re
import shutil
import subprocess
import sys
import tempfile

from common import analyse_spin, log, median, ratio, run_in_pty


def ensure_rich():
    try:
        import rich  # noqa: F401
    except ImportError:
        log("installing rich (pip) to compare with")
        pip = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "rich"]
        if subprocess.run(pip).returncode != 0:
            subprocess.run(pip + ["--break-system-packages"], check=True)


def strace_writes(path):
    """The write(2) calls to the terminal in an strace log, as (time, bytes),
    and the time the `sleep` command exited (None if it was not exec'd).
    A call another traced process interrupts comes in two lines,
    "<unfinished ...>" and "<... NAME resumed>": it counts at its start,
    with the result its second line gives."""
    writes, sleep_pid, sleep_end = [], None, None
    unfinished = {}  # pid -> ("tty" or "sleep", start time)
    with open(path) as f:
        for line in f:
            m = re.match(r"(\d+)\s+([\d.]+)\s+(.*)", line)
            if not m:
                continue
            pid, when, call = m.group(1), float(m.group(2)), m.group(3).rstrip()
            resumed = re.match(r"<\.\.\. (write|execve) resumed>.*=\s+(-?\d+)", call)
            if resumed:
                kind, start = unfinished.pop(pid, (None, None))
                if kind == "tty" and resumed.group(1) == "write" and int(resumed.group(2)) >= 0:
                    writes.append((start, int(resumed.group(2))))
                elif kind == "sleep" and resumed.group(1) == "execve" and resumed.group(2) == "0":
                    sleep_pid = pid
                continue
            to_tty = re.match(r"write\(\d+</dev/pts/\d+>,", call)
            is_sleep = re.match(r'execve\("[^"]*/sleep"', call)
            if call.endswith("<unfinished ...>"):
                if to_tty or is_sleep:
                    unfinished[pid] = ("tty" if to_tty else "sleep", when)
                continue
            w = re.match(r"write\(\d+</dev/pts/\d+>,.*\)\s+=\s+(\d+)", call)
            if w:
                writes.append((when, int(w.group(1))))
            elif is_sleep and call.endswith("= 0"):
                sleep_pid = pid
            elif pid == sleep_pid and "+++ exited" in call:
                sleep_end = when
    writes.sort()
    return writes, sleep_end


def describe_writes(writes, sleep_end):
    before = [w for w in writes if sleep_end is None or w[0] <= sleep_end]
    after = [w for w in writes if sleep_end is not None and w[0] > sleep_end]
    return {
        "total": len(writes),
        "bytes": sum(n for _, n in writes),
        "first": before[0][1] if before else 0,
        "frames": max(len(before) - 1, 0),
        "after_end": [(round(t - sleep_end, 3), n) for t, n in after],
    }


def traced(argv):
    with tempfile.NamedTemporaryFile(suffix=".strace") as trace:
        run_in_pty(argv, strace_log=trace.name, sample=False)
        return describe_writes(*strace_writes(trace.name))


def run(ctx):
    from results import Report
    ensure_rich()
    report = Report("spinner")
    seconds, binary = ctx.args.seconds, ctx.binary
    sleep_arg = "%g" % seconds
    rich_code = ("import time\nfrom rich.console import Console\n"
                 "with Console().status('sleep %s'):\n    time.sleep(%s)\n" % (sleep_arg, sleep_arg))
    variants = (
        ("ours", [binary, "run", "--", "sleep", sleep_arg]),
        ("inproc", [binary, "run", "--in-process", "--", "sleep", sleep_arg]),
        ("rich", [sys.executable, "-c", rich_code]),
    )
    baseline = run_in_pty(["sleep", sleep_arg], sample=False)["cpu"]
    results = {name: [] for name, _ in variants}
    for index in range(ctx.args.runs):
        for name, argv in variants:
            log("spinner %d/%d: %s" % (index + 1, ctx.args.runs, name))
            results[name].append(analyse_spin(run_in_pty(argv), 0.0 if name == "rich" else baseline, seconds))
    writes = {name: traced(argv) for name, argv in variants} if shutil.which("strace") else {}
    hold_argv = [binary, "run", "--success", "Done", "--", "sleep", "1"]
    hold = run_in_pty(hold_argv, sample=False)
    check_at = next((t for t, c in hold["chunks"] if "✔".encode() in c), None)
    end_at = hold["chunks"][-1][0] if hold["chunks"] else 0
    hold_writes = traced(hold_argv)["after_end"] if shutil.which("strace") else None

    def med(name, key):
        return median([r[key] for r in results[name]])

    rows = []
    for label, key in (("CPU while spinning (% of a core)", "steady_cpu_pct"),
                       ("of which the host process (%)", "steady_host_cpu_pct"),
                       ("CPU time, whole run (s)", "cpu_s"),
                       ("bytes per spinner frame (median)", "bytes_per_frame"),
                       ("bytes per spinner frame (largest)", "max_bytes_per_frame"),
                       ("frames per second", "fps"),
                       ("bytes written, whole run", "bytes")):
        o, i, r = med("ours", key), med("inproc", key), med("rich", key)
        rows.append([label, o, i, r, ratio(o, i), ratio(o, r)])
    if len(writes) == 3:
        o, i, r = (writes[n]["total"] for n in ("ours", "inproc", "rich"))
        rows.append(["write(2) calls on the terminal (strace, one run)", o, i, r, ratio(o, i), ratio(o, r)])
    report.table(["", "presenter-host", "in-process", "rich", "ours / in-process", "ours / rich"], rows,
                 title="`run -- sleep %s`, `run --in-process`, rich's `Console.status` (medians of %d runs, "
                       "80 × 24 pty)" % (sleep_arg, ctx.args.runs))
    if writes:
        o = writes["ours"]
        report.text("Our writes (strace): the first frame (%d bytes, the box), %d more while `sleep` ran, and %d "
                    "after it ended: %s (seconds after the end, bytes)."
                    % (o["first"], o["frames"], len(o["after_end"]), o["after_end"]))
    if check_at is not None:
        report.text("The success hold (`run --success Done -- sleep 1`): the check mark stood %.2f s; writes after "
                    "`sleep` ended (strace; seconds after the end, bytes): %s."
                    % (end_at - check_at, hold_writes))
    f = report.figure
    f("spinner.cpu_ratio_inproc", ratio(med("ours", "steady_cpu_pct"), med("inproc", "steady_cpu_pct")))
    f("spinner.cpu_ratio_rich", ratio(med("ours", "steady_cpu_pct"), med("rich", "steady_cpu_pct")))
    f("spinner.bytes_per_frame", med("ours", "bytes_per_frame"))
    report.raw.update({"runs": results, "strace": writes, "hold": hold_writes})
    return report
