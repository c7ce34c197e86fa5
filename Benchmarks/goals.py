"""Part `goals`: issue 33's goal table ("native start"), every figure
against indicatif-spin (Rust) and gum-spin (Go) measured in the same run,
alternating, medians, ratios. gum-spin needs a terminal (it opens
/dev/tty), so it has no plain-mode figures.

  spinning   in the 80x24 pty, N times each, alternating, default options (mbhud):
               presenter-host run -- sleep S, indicatif-spin -- sleep S, gum-spin -- sleep S
             CPU while spinning (schedstat of every process of the tree but `sleep`,
             from 1 s to the end), CPU of the whole run (wait4's rusage minus `sleep S`
             alone), bytes per frame.
  memory     `… -- sleep 1` in the pty: the peak RSS (VmHWM, sampled every 0.05 s) of every
             process of the tree but `sleep`, summed: the host, the presenter process, any
             helper or executable they start (measured by tree, not by name).
  start-up   M times each, alternating: plain (/dev/null, CI=1) `run -- true`, `--version`,
             `indicatif-spin -- true` (wall, helpers/spawn_time.c) and the peak RSS of the
             process itself (helpers/exit_rss.c: its VmHWM as it exits, not its children's);
             in the pty, default options: `run -- true`, `indicatif-spin -- true`,
             `gum-spin -- true` (spawn_time --pty: from forkpty to the last byte and the exit).
  registry   cold `--list` of 300 and 1,000 generated plugins against a C dlopen loop,
             warm `--list` against `--version`, R times each.
"""
import os
import subprocess

from common import analyse_spin, compile_c, helper, log, median, plain_env, ratio, run_in_pty, timed_plain, timed_pty
from registry_setup import PluginFarm
from results import cell

# Bytes per frame before issue 33 (issue 22's table at 162abba and this part
# at db80bf8 both measured 24): the goal is to stay at or below it.
TODAY_BYTES_PER_FRAME = 24


def spinning(ctx, programs):
    seconds = ctx.args.seconds
    sleep_arg = "%g" % seconds
    baseline = run_in_pty(["sleep", sleep_arg], sample=False)["cpu"]
    results = {name: [] for name in programs}
    for index in range(ctx.args.runs):
        for name, argv in programs.items():
            log("goals: spin %d/%d: %s" % (index + 1, ctx.args.runs, name))
            results[name].append(analyse_spin(run_in_pty(argv + ["sleep", sleep_arg]), baseline, seconds))
    return results


def memory(ctx, programs):
    peaks = {name: [] for name in programs}
    by_process = []
    for index in range(ctx.args.runs):
        for name, argv in programs.items():
            log("goals: memory %d/%d: %s" % (index + 1, ctx.args.runs, name))
            result = run_in_pty(argv + ["sleep", "1"], interval=0.05)
            peaks[name].append(result["peak_rss_kib"])
            if name == "ours":
                by_process.append(sorted(result["rss_by_pid"].items()))
    return peaks, by_process


def exit_rss_binary(ctx):
    return compile_c(helper("exit_rss.c"), os.path.join(ctx.scratch, "exit_rss"))


def startup(ctx, programs):
    """Plain: wall and the process's own peak RSS; pty: wall."""
    plain = {"ours": [ctx.binary, "run", "--", "true"], "version": [ctx.binary, "--version"],
             "indicatif": [ctx.indicatif, "--", "true"]}
    in_pty = {name: argv + ["true"] for name, argv in programs.items()}
    exit_rss = exit_rss_binary(ctx)
    wall = {name: [] for name in plain}
    rss = {name: [] for name in plain}
    pty = {name: [] for name in in_pty}
    for name, argv in plain.items():
        timed_plain(argv)  # once each, untimed: warm the caches
    for argv in in_pty.values():
        timed_pty(argv)
    log("goals: start-up, %d runs each" % ctx.args.startup_runs)
    for _ in range(ctx.args.startup_runs):
        for name, argv in plain.items():
            seconds, status, _, _ = timed_plain(argv, plain_env())
            if status != 0:
                log("  %s exited with wait status %d" % (name, status))
            wall[name].append(seconds)
            kib, status = (int(x) for x in subprocess.run([exit_rss] + argv, env=plain_env(), check=True,
                                                          capture_output=True, text=True).stdout.split())
            rss[name].append(kib if kib > 0 and status == 0 else float("nan"))
        for name, argv in in_pty.items():
            pty[name].append(timed_pty(argv)[0])
    return wall, rss, pty


def registry(ctx):
    farm = PluginFarm()
    try:
        rows = {}
        for count in (300, 1000):
            plugins = farm.directory(count)
            figures = {key: [] for key in ("cold", "loop", "warm", "version")}
            for index in range(ctx.args.registry_runs):
                log("goals: registry, %d plugins, %d/%d" % (count, index + 1, ctx.args.registry_runs))
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
    report = Report("goals")
    programs = {"ours": [ctx.binary, "run", "--"], "indicatif": [ctx.indicatif, "--"], "gum": [ctx.gum(), "--"]}
    spin = spinning(ctx, programs)
    peaks, by_process = memory(ctx, programs)
    wall, own_rss, pty = startup(ctx, programs)
    lists = registry(ctx)

    def med(name, key):
        return median([r[key] for r in spin[name]])

    ms = {name: 1000 * median(values) for name, values in wall.items()}
    pty_ms = {name: 1000 * median(values) for name, values in pty.items()}
    host_mib = {name: median(values) / 1024 for name, values in own_rss.items()}
    tree_mib = {name: median(values) / 1024 for name, values in peaks.items()}
    f = report.figure
    f("goals.true_plain_ratio", ratio(ms["ours"], ms["indicatif"]))
    f("goals.true_pty_ratio", ratio(pty_ms["ours"], pty_ms["indicatif"]))
    f("goals.true_pty_gum_ratio", ratio(pty_ms["ours"], pty_ms["gum"]))
    f("goals.version_ratio", ratio(ms["version"], ms["indicatif"]))
    f("goals.host_rss_ratio", ratio(host_mib["ours"], host_mib["indicatif"]))
    for suffix, peer in (("", "indicatif"), ("_gum", "gum")):
        f("goals.tree_rss%s_ratio" % suffix, ratio(tree_mib["ours"], tree_mib[peer]))
        f("goals.spin_cpu%s_ratio" % suffix, ratio(med("ours", "steady_cpu_pct"), med(peer, "steady_cpu_pct")))
        f("goals.whole_cpu%s_ratio" % suffix, ratio(med("ours", "cpu_s"), med(peer, "cpu_s")))
    for count in (300, 1000):
        f("goals.cold_list_%d_ratio" % count, ratio(lists[count]["cold"], lists[count]["loop"]))
        f("goals.warm_list_%d_ratio" % count, ratio(lists[count]["warm"], lists[count]["version"]))
    f("goals.bytes_per_frame", med("ours", "bytes_per_frame"))

    def row(label, ours, unit, base_name, base, limit, goal, gum=None):
        value = ratio(ours, base) if base is not None else ours
        return [label, "%s %s" % (cell(ours), unit), "%s %s %s" % (base_name, cell(base), unit) if base else "",
                value if base is not None else "", ratio(ours, gum) if gum else "", goal,
                "met" if value == value and value <= limit else "**not met**"]

    ind = "indicatif-spin"
    goal_rows = [
        row("`run -- true`, plain (CI=1)", ms["ours"], "ms", ind, ms["indicatif"], 1.5, "≤ 1.5 ×"),
        row("`run -- true` in the 80 × 24 pty, default options", pty_ms["ours"], "ms", ind, pty_ms["indicatif"], 2.0,
            "≤ 2 ×", pty_ms["gum"]),
        row("`--version` against indicatif-spin's `-- true` (plain)", ms["version"], "ms", ind, ms["indicatif"], 1.2,
            "≤ 1.2 ×"),
        row("peak RSS of the host alone, `run -- true` plain", host_mib["ours"], "MiB", ind, host_mib["indicatif"],
            2.5, "≤ 2.5 ×"),
        row("peak RSS of the whole tree spinning with mbhud", tree_mib["ours"], "MiB", ind, tree_mib["indicatif"],
            5.0, "≤ 5 ×", tree_mib["gum"]),
        row("CPU while spinning", med("ours", "steady_cpu_pct"), "%", ind, med("indicatif", "steady_cpu_pct"), 1.0,
            "≤ 1.0 ×", med("gum", "steady_cpu_pct")),
        row("CPU of the whole run of a %g s spin" % ctx.args.seconds, med("ours", "cpu_s"), "s", ind,
            med("indicatif", "cpu_s"), 1.5, "≤ 1.5 ×", med("gum", "cpu_s")),
    ]
    for count in (300, 1000):
        r = lists[count]
        goal_rows.append(row("cold `--list` of %s plugins" % format(count, ","), 1000 * r["cold"], "ms",
                             "C dlopen loop", 1000 * r["loop"], 1.0, "≤ 1.0 ×"))
    for count in (300, 1000):
        r = lists[count]
        goal_rows.append(row("warm `--list` of %s plugins" % format(count, ","), 1000 * r["warm"], "ms",
                             "`--version`", 1000 * r["version"], 1.2, "≤ 1.2 ×"))
    goal_rows.append(row("bytes per frame", med("ours", "bytes_per_frame"), "B", "", None, TODAY_BYTES_PER_FRAME,
                         "≤ %d (before issue 33)" % TODAY_BYTES_PER_FRAME, med("gum", "bytes_per_frame")))
    runs, seconds = ctx.args.runs, ctx.args.seconds
    report.table(["figure", "ours", "against", "ratio", "÷ gum-spin", "goal", ""], goal_rows,
                 title="Issue 33's goals (medians of %d spins of %g s and %d memory runs in the 80 × 24 pty, "
                       "%d start-ups, %d registry runs)" % (runs, seconds, runs, ctx.args.startup_runs,
                                                            ctx.args.registry_runs))
    rows = []
    for label, key in (("CPU while spinning (% of a core)", "steady_cpu_pct"),
                       ("CPU of the whole %g s run (s)" % seconds, "cpu_s"),
                       ("bytes per frame (median)", "bytes_per_frame"), ("frames per second", "fps"),
                       ("bytes written, whole run", "bytes")):
        rows.append([label, med("ours", key), med("indicatif", key), med("gum", key)])
    rows.append(["peak RSS of the tree of `… -- sleep 1` but `sleep` (MiB)", tree_mib["ours"],
                 tree_mib["indicatif"], tree_mib["gum"]])
    rows.append(["`… -- true` in the pty (ms)", pty_ms["ours"], pty_ms["indicatif"], pty_ms["gum"]])
    rows.append(["`… -- true`, plain (ms)", ms["ours"], ms["indicatif"], "-"])
    rows.append(["`presenter-host --version`, plain (ms)", ms["version"], "", ""])
    rows.append(["peak RSS of the process alone, `… -- true` plain (MiB)", host_mib["ours"], host_mib["indicatif"],
                 "-"])
    rows.append(["peak RSS of `presenter-host --version` (MiB)", host_mib["version"], "", ""])
    report.table(["", "presenter-host", "indicatif-spin", "gum-spin"], rows, title="Side by side")
    report.table(["plugins", "cold `--list` (ms)", "C dlopen loop (ms)", "ratio", "warm `--list` (ms)",
                  "`--version` (ms)", "ratio"],
                 [[count, 1000 * r["cold"], 1000 * r["loop"], ratio(r["cold"], r["loop"]), 1000 * r["warm"],
                   1000 * r["version"], ratio(r["warm"], r["version"])] for count, r in sorted(lists.items())],
                 title="The registry (medians of %d runs each)" % ctx.args.registry_runs)
    processes = by_process[len(by_process) // 2] if by_process else []
    report.text("Peak RSS by process in a middle run of `run -- sleep 1` in the pty (KiB, pid order: the host "
                "first): %s. gum-spin opens /dev/tty, so it has no plain-mode figures." %
                ", ".join(str(kib) for _, kib in processes))
    report.raw.update({"startup": wall, "own_rss": own_rss, "pty": pty, "tree_rss": peaks, "registry": lists,
                       "spin": spin})
    return report
