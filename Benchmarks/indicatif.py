"""Part `indicatif`: issue 22's goal table, every figure against indicatif
(the Rust spinner library, through the indicatif-spin wrapper, built here
from Debian's crates) in the same run, alternating, medians and ratios.

  spinning   in the 80x24 pty, N times each, alternating:
               ours        presenter-host run -- sleep S   (the presenter process and whatever
                           sandbox it has: every descendant but `sleep` is counted)
               in-process  presenter-host run --in-process -- sleep S
               indicatif   indicatif-spin -- sleep S
             CPU while spinning (schedstat of the tree, from 1 s to the end), CPU of the whole
             run (wait4's rusage minus `sleep S` alone), bytes per frame and written.
  start-up   plain (/dev/null, CI=1), M times each, alternating: `run -- true`,
             `run --in-process -- true`, `indicatif-spin -- true` (wall time).
  memory     `run -- sleep 1` and `indicatif-spin -- sleep 1` in the pty: the peak RSS
             (VmHWM) of every process of the tree but `sleep`, summed.
  registry   cold `--list` of 300 and 1,000 generated plugins against a C dlopen loop,
             warm `--list` against `--version`, R times each.
"""
from common import analyse_spin, log, median, plain_env, ratio, run_in_pty, timed_plain
from registry_setup import PluginFarm

GOALS = (
    # figure, goal text, the limit of the goal, the figure's name
    ("CPU while spinning (% of a core), ours / indicatif", "at most 1.0x", 1.0, "indicatif.spin_cpu_ratio"),
    ("CPU of a whole 10 s spin, ours / indicatif", "at most 1.5x", 1.5, "indicatif.whole_cpu_ratio"),
    ("wall of `run -- true` (plain) / `indicatif-spin -- true`", "at most 2x", 2.0, "indicatif.true_wall_ratio"),
    ("what the presenter process adds to `run -- true` (ms)", "at most 1 ms", 1.0, "indicatif.presenter_adds_ms"),
    ("cold `--list` of 300 plugins / C dlopen loop", "at most 1.5x", 1.5, "indicatif.cold_list_300_ratio"),
    ("cold `--list` of 1,000 plugins / C dlopen loop", "at most 1.5x", 1.5, "indicatif.cold_list_1000_ratio"),
    ("warm `--list` (300 plugins) / `--version`", "at most 1.2x", 1.2, "indicatif.warm_list_300_ratio"),
    ("warm `--list` (1,000 plugins) / `--version`", "at most 1.2x", 1.2, "indicatif.warm_list_1000_ratio"),
    ("bytes per frame", "at most 22", 22, "indicatif.bytes_per_frame"),
    ("peak RSS of `run -- sleep 1`, both processes / indicatif's", "at most 2x", 2.0, "indicatif.rss_ratio"),
)


def spinning(ctx, report):
    seconds = ctx.args.seconds
    sleep_arg = "%g" % seconds
    variants = (
        ("ours", [ctx.binary, "run", "--", "sleep", sleep_arg]),
        ("inproc", [ctx.binary, "run", "--in-process", "--", "sleep", sleep_arg]),
        ("indicatif", [ctx.indicatif, "--", "sleep", sleep_arg]),
    )
    baseline = run_in_pty(["sleep", sleep_arg], sample=False)["cpu"]
    results = {name: [] for name, _ in variants}
    for index in range(ctx.args.runs):
        for name, argv in variants:
            log("indicatif: spin %d/%d: %s" % (index + 1, ctx.args.runs, name))
            results[name].append(analyse_spin(run_in_pty(argv), baseline, seconds))
    report.raw["spin"] = results
    return results


def startup(ctx):
    variants = {
        "ours": [ctx.binary, "run", "--", "true"],
        "inproc": [ctx.binary, "run", "--in-process", "--", "true"],
        "indicatif": [ctx.indicatif, "--", "true"],
    }
    times = {name: [] for name in variants}
    for argv in variants.values():
        timed_plain(argv)  # once each, untimed: warm the caches
    log("indicatif: start-up, %d runs each" % ctx.args.startup_runs)
    for _ in range(ctx.args.startup_runs):
        for name, argv in variants.items():
            seconds, status, _, _ = timed_plain(argv, plain_env())
            if status != 0:
                log("  %s exited with wait status %d" % (name, status))
            times[name].append(seconds)
    return times


def memory(ctx):
    variants = {
        "ours": [ctx.binary, "run", "--", "sleep", "1"],
        "indicatif": [ctx.indicatif, "--", "sleep", "1"],
    }
    peaks = {name: [] for name in variants}
    by_process = []
    for index in range(ctx.args.runs):
        for name, argv in variants.items():
            log("indicatif: memory %d/%d: %s" % (index + 1, ctx.args.runs, name))
            result = run_in_pty(argv, interval=0.05)
            peaks[name].append(result["peak_rss_kib"])
            if name == "ours":
                by_process.append(sorted(result["rss_by_pid"].items()))
    return peaks, by_process


def registry(ctx):
    farm = PluginFarm()
    try:
        rows = {}
        for count in (300, 1000):
            plugins = farm.directory(count)
            figures = {key: [] for key in ("cold", "loop", "warm", "version")}
            for index in range(ctx.args.registry_runs):
                log("indicatif: registry, %d plugins, %d/%d" % (count, index + 1, ctx.args.registry_runs))
                farm.drop_cache()
                figures["cold"].append(farm.timed([ctx.binary, "--plugin-dir", plugins, "--list"])[0])
                figures["loop"].append(farm.timed([farm.loop, plugins])[0])
                figures["warm"].append(farm.timed([ctx.binary, "--plugin-dir", plugins, "--list"])[0])
                figures["version"].append(farm.timed([ctx.binary, "--version"])[0])
            rows[count] = {key: median(values) for key, values in figures.items()}
        return rows
    finally:
        farm.close()


def run(ctx):
    from results import Report
    report = Report("indicatif")
    spin = spinning(ctx, report)
    times = startup(ctx)
    peaks, by_process = memory(ctx)
    lists = registry(ctx)

    def med(name, key):
        return median([r[key] for r in spin[name]])

    ms = {name: 1000 * median(values) for name, values in times.items()}
    rss = {name: median(values) / 1024 for name, values in peaks.items()}
    f = report.figure
    f("indicatif.spin_cpu_ratio", ratio(med("ours", "steady_cpu_pct"), med("indicatif", "steady_cpu_pct")))
    f("indicatif.whole_cpu_ratio", ratio(med("ours", "cpu_s"), med("indicatif", "cpu_s")))
    f("indicatif.true_wall_ratio", ratio(ms["ours"], ms["indicatif"]))
    f("indicatif.presenter_adds_ms", ms["ours"] - ms["inproc"])
    for count in (300, 1000):
        f("indicatif.cold_list_%d_ratio" % count, ratio(lists[count]["cold"], lists[count]["loop"]))
        f("indicatif.warm_list_%d_ratio" % count, ratio(lists[count]["warm"], lists[count]["version"]))
    f("indicatif.bytes_per_frame", med("ours", "bytes_per_frame"))
    f("indicatif.rss_ratio", ratio(rss["ours"], rss["indicatif"]))

    runs, seconds = ctx.args.runs, ctx.args.seconds
    header = ["", "presenter-host `run`", "`run --in-process`", "indicatif", "ours / indicatif",
              "in-process / indicatif"]
    rows = []
    for label, key, scale in (("CPU while spinning (% of a core)", "steady_cpu_pct", 1),
                              ("of which the host process (%)", "steady_host_cpu_pct", 1),
                              ("CPU, whole %g s run (s)" % seconds, "cpu_s", 1),
                              ("bytes per frame (median)", "bytes_per_frame", 1),
                              ("frames per second", "fps", 1),
                              ("bytes written, whole run", "bytes", 1)):
        o, i, n = med("ours", key), med("inproc", key), med("indicatif", key)
        rows.append([label, o, i, n, ratio(o, n), ratio(i, n)])
    rows.append(["wall of `… -- true`, plain (ms)", ms["ours"], ms["inproc"], ms["indicatif"],
                 ratio(ms["ours"], ms["indicatif"]), ratio(ms["inproc"], ms["indicatif"])])
    rows.append(["peak RSS of `… -- sleep 1`, every process but `sleep` (MiB)", rss["ours"], "", rss["indicatif"],
                 ratio(rss["ours"], rss["indicatif"]), ""])
    report.table(header, rows, title="Side by side (medians of %d spins of %g s in the 80 × 24 pty, %d start-ups, "
                                     "%d memory runs)" % (runs, seconds, ctx.args.startup_runs, runs))
    report.table(["plugins", "cold `--list` (ms)", "C dlopen loop (ms)", "ratio", "warm `--list` (ms)",
                  "`--version` (ms)", "ratio"],
                 [[count, 1000 * r["cold"], 1000 * r["loop"], ratio(r["cold"], r["loop"]), 1000 * r["warm"],
                   1000 * r["version"], ratio(r["warm"], r["version"])] for count, r in sorted(lists.items())],
                 title="The registry (medians of %d runs each)" % ctx.args.registry_runs)
    goal_rows = []
    for label, goal, limit, name in GOALS:
        value = report.figures[name]
        goal_rows.append([label, value, goal, "met" if value == value and value <= limit else "**not met**"])
    report.table(["figure", "ours", "goal", ""], goal_rows, title="Against issue 22's goals")
    processes = by_process[len(by_process) // 2] if by_process else []
    report.text("Peak RSS by process in a middle run of `run -- sleep 1` (KiB, pid order: the host first): %s."
                % ", ".join(str(kib) for _, kib in processes))
    report.raw.update({"startup": times, "rss": peaks, "registry": lists})
    return report
