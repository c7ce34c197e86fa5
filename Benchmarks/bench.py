#!/usr/bin/env python3
"""presenter-host's benchmark (scripts/bench is its entry point).

    scripts/bench [--parts P,...] [--runs N] [--seconds S] [--startup-runs M] [--registry-runs R]
                  [--version-runs V] [--baseline REF] [--scratch-path DIR] [--skip-build] [--no-write]
    scripts/bench --quick          # a few minutes: the goal table's figures against thresholds.json
    scripts/bench --check-docs     # docs/BENCHMARKS.md's generated blocks match docs/benchmarks/

Builds the release binary and the indicatif peer (gum-spin too when a part uses it), then runs the parts
(default all), each a file of this folder: goals (issue 33's goal table,
against indicatif-spin and gum-spin), line (issue 34's one-row presenter's CPU and
bytes per frame against indicatif-spin and gum-spin), profiles (callgrind and perf: where a
start's instructions and time go), shell (issue 31: a run in a terminal
against indicatif-spin and gum-spin), instructions (callgrind's count of a
frame), sandbox (issue 17), startup, spinner, hang, floor, drive, progress,
registry, version.
Each part's tables go to docs/benchmarks/PART.md (and its figures to
PART.json), spliced into docs/BENCHMARKS.md between its markers; --no-write
prints them only. --quick runs the goals, line, instructions and hang parts with few runs,
writes nothing, and exits 1 when a figure is past its threshold in
thresholds.json. Every part alternates its variants, takes medians, and
measures from outside the measured processes. Not part of the test command."""
import argparse
import importlib
import os
import shlex
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build  # noqa: E402
import results  # noqa: E402
from common import ROOT, load_average, log  # noqa: E402

PARTS = ("goals", "line", "profiles", "shell", "instructions", "sandbox", "startup", "spinner", "hang", "floor", "drive",
         "progress", "registry", "version")
QUICK = {"parts": "goals,line,instructions,hang", "runs": 3, "seconds": 4, "startup_runs": 15, "registry_runs": 3}


class Context:
    def __init__(self, args, binary, indicatif, scratch):
        self.args, self.binary, self.indicatif, self.scratch = args, binary, indicatif, scratch
        self._gum = None

    def gum(self):
        """gum-spin, built the first time a part asks for it (build.sh installs Go when missing)."""
        if self._gum is None:
            self._gum = build.gum_spin(self.scratch)
        return self._gum


def parse():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--parts", default=",".join(PARTS), help="comma-separated (default all): " + ", ".join(PARTS))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--startup-runs", type=int, default=30)
    parser.add_argument("--registry-runs", type=int, default=15)
    parser.add_argument("--version-runs", type=int, default=50)
    parser.add_argument("--baseline", help="the commit whose presenter-host is 'before' in the version part")
    parser.add_argument("--scratch-path", help="swift build's --scratch-path (default .build)")
    parser.add_argument("--work", help="where the peer and helpers are built (default a folder in /tmp, kept)")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="print the tables; leave docs/ alone")
    parser.add_argument("--quick", action="store_true", help="few runs, thresholds checked, nothing written")
    parser.add_argument("--check-docs", action="store_true")
    args = parser.parse_args()
    if args.quick:
        given = {a.split("=")[0] for a in sys.argv[1:]}
        for key, value in QUICK.items():
            if "--" + key.replace("_", "-") not in given:
                setattr(args, key, value)
        args.no_write = True
    parts = [p for p in args.parts.split(",") if p]
    unknown = set(parts) - set(PARTS)
    if unknown:
        parser.error("unknown parts: %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(PARTS)))
    args.part_list = parts
    return args


def main():
    args = parse()
    if args.check_docs:
        stale = results.check_docs()
        for part in stale:
            print("docs/BENCHMARKS.md: the block of part '%s' is not docs/benchmarks/%s.md; run scripts/bench "
                  "--parts %s again, or splice it back" % (part, part, part))
        sys.exit(1 if stale else 0)
    os.chdir(ROOT)
    work = args.work or os.path.join(tempfile.gettempdir(), "presenter-host-bench")
    os.makedirs(work, exist_ok=True)
    # A registry cache of the bench's own: the user's is shared by every
    # presenter-host build of the user (other checkouts, test runs), and
    # keyed on the binary, so their runs would make ours cold at random.
    os.environ["XDG_CACHE_HOME"] = os.path.join(work, "cache")
    binary = os.path.join(build.swift_release(args.scratch_path, args.skip_build), "presenter-host")
    indicatif = build.indicatif_spin(work)
    ctx = Context(args, binary, indicatif, work)
    command = "scripts/bench " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    figures, failed = {}, False
    for part in args.part_list:
        before = load_average()
        log("part %s (load %.1f)" % (part, before[0]))
        report = importlib.import_module(part).run(ctx)
        loads = (before, load_average())
        figures.update(report.figures)
        print("\n## %s\n\n%s" % (part, results.heading(report, command, loads)))
        print("\n".join(report.sections))
        if not args.no_write:
            results.write(report, command, loads)
            log("wrote docs/benchmarks/%s.md and its block in docs/BENCHMARKS.md" % part)
    if args.quick:
        verdicts = results.check(figures, set(args.part_list))
        print("\n## Thresholds (Benchmarks/thresholds.json)\n")
        results.print_verdicts(verdicts)
        failed = any(not ok for _, _, _, ok, _ in verdicts)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
