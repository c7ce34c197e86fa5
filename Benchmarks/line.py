"""Part `line`: issue 34's one-row presenter against the spinners people
compare it with, in the same run: `presenter-host run --presenter line --
sleep S`, `indicatif-spin -- sleep S` and `gum-spin -- sleep S` in the
80x24 pty, N times each, alternating, medians. The CPU while spinning
(schedstat of every process of the tree but `sleep`, from 1 s to the end)
and the bytes written per frame. Goals: the CPU at most indicatif's, the
bytes per frame at most gum's."""
from common import analyse_spin, log, median, ratio, run_in_pty
from results import cell


def run(ctx):
    from results import Report
    report = Report("line")
    seconds = "%g" % ctx.args.seconds
    programs = {"line": [ctx.binary, "run", "--presenter", "line", "--"], "mbhud": [ctx.binary, "run", "--"],
                "indicatif": [ctx.indicatif, "--"], "gum": [ctx.gum(), "--"]}
    baseline = run_in_pty(["sleep", seconds], sample=False)["cpu"]
    spins = {name: [] for name in programs}
    for index in range(ctx.args.runs):
        for name, argv in programs.items():
            log("line: spin %d/%d: %s" % (index + 1, ctx.args.runs, name))
            spins[name].append(analyse_spin(run_in_pty(argv + ["sleep", seconds]), baseline, ctx.args.seconds))

    def med(name, key):
        return median([r[key] for r in spins[name]])

    cpu = {name: med(name, "steady_cpu_pct") for name in programs}
    frame = {name: med(name, "bytes_per_frame") for name in programs}
    f = report.figure
    f("line.spin_cpu_ratio", ratio(cpu["line"], cpu["indicatif"]))
    f("line.bytes_per_frame_gum_ratio", ratio(frame["line"], frame["gum"]))
    f("line.bytes_per_frame", frame["line"])

    def verdict(value):
        return "met" if value == value and value <= 1.0 else "**not met**"

    cpu_ratio, bytes_ratio = ratio(cpu["line"], cpu["indicatif"]), ratio(frame["line"], frame["gum"])
    report.table(
        ["figure", "line", "against", "ratio", "goal", ""],
        [["CPU while spinning", "%s %%" % cell(cpu["line"]), "indicatif-spin %s %%" % cell(cpu["indicatif"]),
          cpu_ratio, "≤ 1.0 ×", verdict(cpu_ratio)],
         ["bytes per frame", "%s B" % cell(frame["line"]), "gum-spin %s B" % cell(frame["gum"]), bytes_ratio,
          "≤ 1.0 ×", verdict(bytes_ratio)]],
        title="Issue 34's goals for `--presenter line` (medians of %d spins of %s s in the 80 × 24 pty)"
              % (ctx.args.runs, seconds))
    rows = []
    for label, key in (("CPU while spinning (% of a core)", "steady_cpu_pct"),
                       ("CPU of the whole %s s run (s)" % seconds, "cpu_s"),
                       ("bytes per frame (median)", "bytes_per_frame"), ("frames per second", "fps"),
                       ("bytes written, whole run", "bytes")):
        rows.append([label] + [med(name, key) for name in programs])
    report.table(["", "line", "mbhud", "indicatif-spin", "gum-spin"], rows, title="Side by side")
    report.raw.update({"spin": spins})
    return report
