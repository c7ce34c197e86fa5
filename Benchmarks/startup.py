"""Part `startup`: where the wall time of `run -- true` goes. Plain mode
(everything on /dev/null, CI=1) and the 80x24 pty (`--min-show 0`, or the
0.5 s hold would hide the start), M times each, alternating:

  true, indicatif-spin -- true                  the floor and the native peer
  Swift programs: the runtime alone, FoundationEssentials, Foundation (+ ICU)
  presenter-host --version                      one Swift process with Foundation
  run --in-process -- true                      the same, plus the registry and the plugin
  run -- true                                   plus the presenter process
  --no-cache run -- true                        the registry without its cache
  run -- true, its cache deleted before          a cold cache: written again by every run

with a private XDG_CACHE_HOME, warm from an untimed run: the user's cache
is shared by every presenter-host binary of the user, and keyed on the
binary, so another build's runs (a test suite, another checkout) make the
next run of this one cold."""
import os
import shutil
import tempfile

from build import swift_program
from common import log, median, plain_env, pty_env, ratio, timed_plain, timed_pty


def run(ctx):
    from results import Report
    report = Report("startup")
    binary = ctx.binary
    plain = {
        "true": [shutil.which("true") or "true"],
        "indicatif": [ctx.indicatif, "--", "true"],
        "swift": [swift_program(ctx.scratch, "bare")],
        "essentials": [swift_program(ctx.scratch, "essentials")],
        "foundation": [swift_program(ctx.scratch, "foundation")],
        "version": [binary, "--version"],
        "inproc": [binary, "run", "--in-process", "--", "true"],
        "ours": [binary, "run", "--", "true"],
        "nocache": [binary, "--no-cache", "run", "--", "true"],
        "cold": [binary, "run", "--", "true"],
    }
    in_pty = {
        "inproc": [binary, "run", "--in-process", "--min-show", "0", "--", "true"],
        "ours": [binary, "run", "--min-show", "0", "--", "true"],
    }
    scratch = tempfile.mkdtemp(prefix="bench-startup-")
    env = plain_env({"XDG_CACHE_HOME": scratch})
    private_cache = os.path.join(scratch, "presenter-host", "registry.cache")
    for argv in plain.values():
        timed_plain(argv, env)  # once each, untimed: warm the caches (and the registry cache)
    times = {name: [] for name in plain}
    cpu = {name: [] for name in plain}
    rss = {name: [] for name in plain}
    log("start-up: %d runs each, plain" % ctx.args.startup_runs)
    for _ in range(ctx.args.startup_runs):
        for name, argv in plain.items():
            if name == "cold" and os.path.exists(private_cache):
                os.unlink(private_cache)
            seconds, status, peak, used = timed_plain(argv, env)
            if status != 0:
                log("  %s: wait status %d" % (name, status))
            times[name].append(seconds)
            cpu[name].append(used)
            rss[name].append(peak)
    pty_times = {name: [] for name in in_pty}
    drawn = {name: [] for name in in_pty}
    log("start-up: %d runs each, pty" % ctx.args.startup_runs)
    for argv in in_pty.values():
        timed_pty(argv, pty_env({"XDG_CACHE_HOME": scratch}))
    for _ in range(ctx.args.startup_runs):
        for name, argv in in_pty.items():
            seconds, status, wrote = timed_pty(argv, pty_env({"XDG_CACHE_HOME": scratch}))
            pty_times[name].append(seconds)
            drawn[name].append(wrote)

    def ms(name):
        return 1000 * median(times[name])

    labels = (
        ("`true`", "true"),
        ("`indicatif-spin -- true`", "indicatif"),
        ("a Swift program: the runtime alone", "swift"),
        ("the same importing FoundationEssentials", "essentials"),
        ("the same importing Foundation (FoundationInternationalization, ICU)", "foundation"),
        ("`presenter-host --version`", "version"),
        ("`run --in-process -- true`", "inproc"),
        ("`run -- true`", "ours"),
        ("`--no-cache run -- true`", "nocache"),
        ("`run -- true`, no registry cache (it is written)", "cold"),
    )
    report.table(["plain (/dev/null, CI=1)", "wall ms", "/ `--version`", "/ indicatif", "fastest ms",
                  "CPU ms (wait4: with its children)", "peak RSS MiB (the largest process)"],
                 [[label, ms(name), ratio(ms(name), ms("version")), ratio(ms(name), ms("indicatif")),
                   1000 * min(times[name]), 1000 * median(cpu[name]), median(rss[name]) / 1024]
                  for label, name in labels],
                 title="Start-up, plain (medians of %d runs, alternating)" % ctx.args.startup_runs)
    rows = []
    for name, label in (("inproc", "`run --in-process --min-show 0 -- true`"),
                        ("ours", "`run --min-show 0 -- true`")):
        pairs = list(zip(pty_times[name], drawn[name]))
        yes = [t for t, n in pairs if n > 0]
        no = [t for t, n in pairs if n == 0]
        rows.append([label, 1000 * median(pty_times[name]), len(yes), 1000 * median(yes), len(no),
                     1000 * median(no)])
    report.table(["80 × 24 pty", "wall ms", "runs that drew", "their ms", "runs that drew nothing", "their ms"],
                 rows, title="Start-up in the pty (medians of %d runs)" % ctx.args.startup_runs)
    shutil.rmtree(scratch, ignore_errors=True)
    report.text("Every run but the cold one found the registry cache warm (a private XDG_CACHE_HOME).")
    f = report.figure
    f("startup.run_true_ms", ms("ours"))
    f("startup.run_true_over_version", ratio(ms("ours"), ms("version")))
    f("startup.presenter_adds_ms", ms("ours") - ms("inproc"))
    f("startup.version_over_foundation", ratio(ms("version"), ms("foundation")))
    report.raw.update({"plain": times, "cpu": cpu, "rss": rss, "pty": pty_times, "pty_bytes": drawn})
    return report
