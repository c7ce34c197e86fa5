"""Part `instructions`: what a spinner frame costs the host in instructions,
counted by valgrind's callgrind, which gives the same count run after run
on a noisy machine (time does not). `run --in-process -- sleep S` in the
80x24 pty, for S short and long; the frames are the region's ends (DECRC,
`ESC 8`) in its output; instructions per frame are the difference of the
two runs' totals over the difference of their frames, so the start and
the end cancel out. Medians of --runs pairs, --baseline REF (a commit) the
same way when given. In process because valgrind cannot follow the
presenter process (it is started as /proc/self/exe, valgrind's own
executable under it); what this counts is the host's own frame: the
runtime, the canvas, the encoder, mbhud's render through the host services.

valgrind 3.19 cannot read Swift 6.3's DWARF 5: the binaries are copied
with `strip --strip-debug` (the symbols stay) into the bench's work folder."""
import os
import re
import shutil
import subprocess

from build import apt_install
from common import log, median, pty_env, run_in_pty

SHORT, LONG = 2, 6
# The products' executables: the host and, from issue 33 on, the one that runs plugin code.
EXECUTABLES = ("presenter-host", "presenter-host-plugins")


def stripped(binary, work, name):
    """A copy of `binary` and the bundled plugins beside it, without debug info."""
    folder = os.path.join(work, "instructions", name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    source = os.path.dirname(binary)
    for entry in os.listdir(source):
        if entry in EXECUTABLES or (entry.startswith("lib") and entry.endswith(".so")):
            copy = os.path.join(folder, entry)
            shutil.copy2(os.path.join(source, entry), copy)
            subprocess.run(["strip", "--strip-debug", copy], check=True)
    return os.path.join(folder, "presenter-host")


def counted(binary, seconds):
    """(instructions, frames) of one in-process spin of `seconds` under callgrind."""
    out = os.path.join(os.path.dirname(binary), "callgrind")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    argv = callgrind(os.path.join(out, "callgrind.out.%p")) + [binary, "run", "--in-process"] + no_time_row(
        binary) + ["--", "sleep", str(seconds)]
    env = pty_env({"XDG_CACHE_HOME": os.path.join(os.path.dirname(binary), "cache")})
    result = run_in_pty(argv, env=env, sample=False)
    if not os.WIFEXITED(result["status"]) or os.WEXITSTATUS(result["status"]) != 0:
        raise SystemExit("bench: %s exited with wait status %d" % (" ".join(argv), result["status"]))
    total = sum(callgrind_total(os.path.join(out, name)) for name in os.listdir(out))
    frames = b"".join(data for _, data in result["chunks"]).count(b"\x1b8")
    return total, frames


def no_time_row(binary):
    """What keeps mbhud's time row (ABI 1.4: the elapsed time past 3 s, a
    render once a second, some 200,000 instructions each in process) out of
    the long run, so that the difference of the two runs is the spinner's
    frames alone; nothing for a host before `--option`."""
    usage = subprocess.run([binary, "run", "--help"], capture_output=True, text=True).stdout
    return ["--option", "mbhud.elapsed-after-ms=3600000"] if "--option" in usage else []


def callgrind(out_file, skip="*/sleep,sleep,*/true,true"):
    """valgrind's argv for callgrind, following execs but not into the run's command."""
    return ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file, "--trace-children=yes",
            "--trace-children-skip=" + skip]


def callgrind_total(path):
    with open(path) as f:
        return next(int(m.group(1)) for m in (re.match(r"(?:summary|totals): (\d+)", line) for line in f) if m)


def per_frame(binary, runs):
    counted(binary, 1)  # a warm registry cache, as a user's start has
    values = []
    for _ in range(runs):
        (short, short_frames), (long, long_frames) = counted(binary, SHORT), counted(binary, LONG)
        values.append((long - short) / max(1, long_frames - short_frames))
    return values


def run(ctx):
    from results import Report
    from version import baseline_commit, build_baseline
    report = Report("instructions")
    if shutil.which("valgrind") is None:
        apt_install("valgrind")
    builds = [("this build", stripped(ctx.binary, ctx.scratch, "this"))]
    if ctx.args.baseline:
        commit = baseline_commit(ctx.args.baseline)
        builds.append(("%s (--baseline)" % commit[:7], stripped(build_baseline(commit), ctx.scratch, "baseline")))
    rows = []
    for label, binary in builds:
        log("instructions: %s, %d pairs of %d s and %d s spins under callgrind" % (label, ctx.args.runs, SHORT, LONG))
        values = per_frame(binary, ctx.args.runs)
        rows.append([label, round(median(values)), round(min(values)), round(max(values))])
        report.raw[label] = values
    report.table(["`run --in-process` in the 80 × 24 pty", "instructions per frame (median)", "least", "most"], rows,
                 title="Host instructions per spinner frame (callgrind, %d pairs of %d s and %d s spins)"
                 % (ctx.args.runs, SHORT, LONG))
    report.figure("instructions.per_frame", rows[0][1])
    if len(rows) > 1:
        report.figure("instructions.over_baseline", rows[0][1] / rows[1][1])
    return report
