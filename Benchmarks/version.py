"""Part `version`: the start-up of `presenter-host --version` before and
after get-title's networking (presenter-host-fetch), against minimal Swift
programs importing Foundation and FoundationNetworking; V times each,
alternating, everything on /dev/null. "Before" is built once (release, from
`git archive` of --baseline REF, by default the commit before
presenter-host-fetch was added) into .build/bench-baseline/<commit>."""
import os
import shutil
import subprocess

from build import swift_program
from common import ROOT, log, median, ratio, timed_plain


def baseline_commit(ref):
    if ref is None:
        added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "--",
                                "Sources/presenter-host-fetch/main.swift"],
                               cwd=ROOT, check=True, capture_output=True, text=True).stdout.split()
        if not added:
            raise SystemExit("bench: no commit adds Sources/presenter-host-fetch/main.swift; pass --baseline REF")
        ref = added[-1] + "^"
    return subprocess.run(["git", "rev-parse", "--verify", ref + "^{commit}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()


def build_baseline(commit):
    home = os.path.join(ROOT, ".build", "bench-baseline", commit)
    binary = os.path.join(home, "presenter-host")
    if os.path.exists(os.path.join(home, "libMBHud.so")):
        return binary
    source = os.path.join(home, "src")
    shutil.rmtree(source, ignore_errors=True)
    os.makedirs(source)
    log("baseline %s: git archive | tar, its release build" % commit[:12])
    archive = subprocess.Popen(["git", "archive", commit], cwd=ROOT, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", source], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise SystemExit("bench: git archive %s failed" % commit)
    # Built as that commit shipped it: with its scripts/release-build when it has one.
    script = os.path.join(source, "scripts", "release-build")
    build = [script] if os.path.exists(script) else ["swift", "build", "-c", "release"]
    subprocess.run(build, cwd=source, check=True, stdout=subprocess.DEVNULL)
    built = subprocess.run(build + ["--show-bin-path"], cwd=source, check=True,
                           capture_output=True, text=True).stdout.strip()
    for name in os.listdir(built):
        if name == "presenter-host" or (name.startswith("lib") and name.endswith(".so")):
            shutil.copy2(os.path.join(built, name), os.path.join(home, name))
    shutil.rmtree(source, ignore_errors=True)
    return binary


def library_count(path):
    out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return len([line for line in out.splitlines() if "=>" in line or line.strip().startswith("/")])


def run(ctx):
    from results import Report
    report = Report("version")
    commit = baseline_commit(ctx.args.baseline)
    baseline = build_baseline(commit)
    fetcher = os.path.join(os.path.dirname(ctx.binary), "presenter-host-fetch")
    variants = {
        "after": [ctx.binary, "--version"],
        "before": [baseline, "--version"],
        "foundation": [swift_program(ctx.scratch, "foundation")],
        "networking": [swift_program(ctx.scratch, "networking")],
        "fetcher": [fetcher],
        "run-after": [ctx.binary, "run", "--", "true"],
        "run-before": [baseline, "run", "--", "true"],
    }
    times = {name: [] for name in variants}
    for argv in variants.values():
        timed_plain(argv)
    log("version: %d runs each" % ctx.args.version_runs)
    for _ in range(ctx.args.version_runs):
        for name, argv in variants.items():
            seconds, status, _, _ = timed_plain(argv)
            expected = 64 if name == "fetcher" else 0
            if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != expected:
                log("  %s: wait status %d" % (name, status))
            times[name].append(seconds)

    def ms(name):
        return 1000 * median(times[name])

    labels = (("`presenter-host --version` (this build)", "after"),
              ("`presenter-host --version` (before get-title: %s)" % commit[:7], "before"),
              ("a Swift program importing Foundation", "foundation"),
              ("the same importing FoundationNetworking", "networking"),
              ("`presenter-host-fetch` (exits at once): each fetch's start", "fetcher"),
              ("`presenter-host run -- true` (this build, plain)", "run-after"),
              ("`presenter-host run -- true` (before get-title, plain)", "run-before"))
    report.table(["", "median ms", "/ Foundation program", "fastest ms", "shared libraries (ldd)"],
                 [[label, ms(name), ratio(ms(name), ms("foundation")), 1000 * min(times[name]),
                   library_count(variants[name][0])] for label, name in labels],
                 title="Start-up of `--version` (medians of %d runs, wall time)" % ctx.args.version_runs)
    report.figure("version.over_foundation", ratio(ms("after"), ms("foundation")))
    report.figure("version.after_over_before", ratio(ms("after"), ms("before")))
    report.raw["times"] = times
    return report
