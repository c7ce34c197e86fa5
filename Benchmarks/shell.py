"""Part `shell`: issue 31's goal, a shell's tool next to the spinners shell
scripts use: each command in the 80x24 pty with default options, M times
each, alternating, medians of the wall time (from fork to the last byte and
the exit), and ratios against the peers measured in the same run:

  true       presenter-host run -- true        indicatif-spin -- true        gum-spin -- true
  success    run --success ok -- sleep 0.1     indicatif-spin --title ok -- sleep 0.1
                                               gum-spin --title ok -- sleep 0.1
  failure    run --failure broke -- false      indicatif-spin -- false       gum-spin -- false

Goal (issue 31): the prompt back within a frame or two of the command's end
whatever the messages (success and failure: the command's own time plus the
start, no hold). `run -- true` against the peers is a row of issue 33's goal
table (the goals part).
"""
from common import log, median, ratio, timed_pty

CASES = (
    ("true", ["run", "--", "true"], ["--", "true"]),
    ("success", ["run", "--success", "ok", "--", "sleep", "0.1"], ["--title", "ok", "--", "sleep", "0.1"]),
    ("failure", ["run", "--failure", "broke", "--", "false"], ["--", "false"]),
)


def run(ctx):
    from results import Report
    report = Report("shell")
    gum = ctx.gum()
    programs = (("ours", ctx.binary), ("indicatif", ctx.indicatif), ("gum", gum))
    times = {(case, name): [] for case, _, _ in CASES for name, _ in programs}
    for case, ours, peer in CASES:
        for name, binary in programs:
            timed_pty([binary] + (ours if name == "ours" else peer))  # untimed: warm the caches
    log("shell: %d runs each" % ctx.args.startup_runs)
    for _ in range(ctx.args.startup_runs):
        for case, ours, peer in CASES:
            for name, binary in programs:
                seconds, _, _ = timed_pty([binary] + (ours if name == "ours" else peer))
                times[(case, name)].append(seconds)
    ms = {key: 1000 * median(values) for key, values in times.items()}
    table = []
    for case, ours, _ in CASES:
        table.append(["`presenter-host %s`" % " ".join(ours), ms[(case, "ours")], ms[(case, "indicatif")],
                      ms[(case, "gum")], ratio(ms[(case, "ours")], ms[(case, "indicatif")]),
                      ratio(ms[(case, "ours")], ms[(case, "gum")])])
        report.figure("shell.%s_pty_ratio" % case, ratio(ms[(case, "ours")], ms[(case, "indicatif")]))
    report.table(["command (80x24 pty, default options)", "ours", "indicatif-spin", "gum-spin", "÷ indicatif",
                  "÷ gum"], table, title="A run in a terminal, start to prompt (medians of %d runs; ms)"
                 % ctx.args.startup_runs)
    report.raw["ms"] = {"%s/%s" % key: value for key, value in ms.items()}
    return report
