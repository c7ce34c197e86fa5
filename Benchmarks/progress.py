"""Part `progress`: a bar updated 1,000 times a second. In the 80x24 pty the
command (helpers/progress_loop.py) writes i/N to PRESENTER_PROGRESS_FD 1,000
times a second for S seconds under `presenter-host run`; the same loop
drives rich's Progress; the loop alone, writing to /dev/null, is the
baseline; `run -- sleep S` is the spinner. The goal: frames still capped
(20 a second), bytes per frame within 2x of the spinner's, CPU and bytes
below rich's Progress."""
import os
import sys

from common import analyse_spin, helper, log, median, ratio, run_in_pty, steady_cpu
from spinner import ensure_rich


def run(ctx):
    from results import Report
    ensure_rich()
    report = Report("progress")
    seconds = "%g" % ctx.args.seconds
    loop = [sys.executable, helper("progress_loop.py"), seconds]
    variants = (
        ("bar", [ctx.binary, "run", "--working", "Working", "--"] + loop + ["fd"]),
        ("rich", loop + ["rich"]),
        ("spinner", [ctx.binary, "run", "--working", "Working", "--", "sleep", seconds]),
    )
    comms = ("sleep", os.path.basename(sys.executable)[:15])
    alone = [run_in_pty(loop + ["null"], command_comms=()) for _ in range(ctx.args.runs)]
    baseline = median([r["cpu"] for r in alone])
    loop_steady = median([100 * steady_cpu([s for s in r["samples"] if s[0] >= 1.0]) for r in alone])
    sleep_cpu = run_in_pty(["sleep", seconds], sample=False)["cpu"]
    results = {name: [] for name, _ in variants}
    for index in range(ctx.args.runs):
        for name, argv in variants:
            log("progress %d/%d: %s" % (index + 1, ctx.args.runs, name))
            result = run_in_pty(argv, command_comms=() if name == "rich" else comms)
            results[name].append(analyse_spin(result, sleep_cpu if name == "spinner" else baseline,
                                              ctx.args.seconds))

    def med(name, key):
        return median([r[key] for r in results[name]])

    b, r, s = med("bar", "steady_cpu_pct"), med("rich", "steady_cpu_pct") - loop_steady, med("spinner",
                                                                                              "steady_cpu_pct")
    rows = [["CPU while updating, from 1 s on (%% of a core; rich: minus its loop's own %.2f)" % loop_steady,
             b, r, s, ratio(b, r), ratio(b, s)]]
    for label, key in (("CPU beyond the loop, whole run (% of a core)", "cpu_pct"),
                       ("frames per second while updating", "fps"),
                       ("bytes per frame (median)", "bytes_per_frame"),
                       ("bytes per frame (largest: the first, the box)", "max_bytes_per_frame"),
                       ("bytes written, whole run", "bytes")):
        b, r, s = med("bar", key), med("rich", key), med("spinner", key)
        rows.append([label, b, r, s, ratio(b, r), ratio(b, s)])
    report.table(["", "presenter-host bar", "rich `Progress`", "presenter-host spinner", "bar / rich",
                  "bar / spinner"], rows,
                 title="A bar updated 1,000 times a second for %s s (medians of %d runs, 80 × 24 pty)"
                       % (seconds, ctx.args.runs))
    report.figure("progress.fps", med("bar", "fps"))
    report.figure("progress.bytes_ratio_rich", ratio(med("bar", "bytes"), med("rich", "bytes")))
    report.raw.update({"results": results, "baseline": baseline, "loop_steady": loop_steady})
    return report
