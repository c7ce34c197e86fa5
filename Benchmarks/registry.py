"""Part `registry`: finding the plugins with 10, 100, 300 and 1,000
generated minimal C plugins in one --plugin-dir, R times each, alternating,
stdout and stderr on /dev/null, CI=1, a private XDG_CACHE_HOME:
  cold `--list` (no cache file) of plugins that describe themselves (ABI 1.3:
  read, not loaded) and of the same without a description (a scan helper
  loads each), against a C program that dlopens the same files in one
  process; warm `--list`
  against `--version`; warm `run -- true` with the plugins against the same
  with an empty --plugin-dir; peak RSS (wait4's ru_maxrss)."""
from common import log, median, ratio
from registry_setup import PluginFarm

COUNTS = (10, 100, 300, 1000)


def run(ctx):
    from results import Report
    report = Report("registry")
    farm = PluginFarm()
    undescribed = PluginFarm(described=False)
    results = {}
    try:
        for count in COUNTS:
            plugins = farm.directory(count)
            scanned = undescribed.directory(count)
            rows = {key: [] for key in ("cold", "scanned", "loop", "warm", "version", "run", "run_none",
                                        "warm_rss", "version_rss", "loop_rss", "cold_rss", "scanned_rss")}
            for index in range(ctx.args.registry_runs):
                log("registry: %d plugins, %d/%d" % (count, index + 1, ctx.args.registry_runs))
                farm.drop_cache()
                undescribed.drop_cache()
                for key, argv in (("cold", [ctx.binary, "--plugin-dir", plugins, "--list"]),
                                  ("scanned", [ctx.binary, "--plugin-dir", scanned, "--list"]),
                                  ("loop", [farm.loop, plugins]),
                                  ("warm", [ctx.binary, "--plugin-dir", plugins, "--list"]),
                                  ("version", [ctx.binary, "--version"])):
                    seconds, rss = (undescribed if key == "scanned" else farm).timed(argv)
                    rows[key].append(seconds)
                    rows[key + "_rss"].append(rss)
                rows["run"].append(farm.timed([ctx.binary, "--plugin-dir", plugins, "run", "--", "true"])[0])
                # Warm for the empty directory too: its cache was written by its first run.
                farm.timed([ctx.binary, "--plugin-dir", farm.empty, "run", "--", "true"])
                rows["run_none"].append(farm.timed([ctx.binary, "--plugin-dir", farm.empty, "run", "--", "true"])[0])
                # And back to the plugins' cache for the next round's warm runs.
                farm.timed([ctx.binary, "--plugin-dir", plugins, "--list"])
            results[count] = {key: median(values) for key, values in rows.items()}
    finally:
        farm.close()
        undescribed.close()
    table = []
    for count, m in sorted(results.items()):
        table.append([count, 1000 * m["cold"], 1000 * m["scanned"], 1000 * m["loop"], ratio(m["cold"], m["loop"]),
                      ratio(m["scanned"], m["loop"]), 1000 * m["warm"],
                      1000 * m["version"], ratio(m["warm"], m["version"]), 1000 * m["run"], 1000 * m["run_none"],
                      ratio(m["run"], m["run_none"]), m["warm_rss"] / 1024, m["version_rss"] / 1024,
                      m["cold_rss"] / 1024, m["loop_rss"] / 1024])
        report.figure("registry.cold_ratio_%d" % count, ratio(m["cold"], m["loop"]))
        report.figure("registry.scanned_ratio_%d" % count, ratio(m["scanned"], m["loop"]))
        report.figure("registry.warm_ratio_%d" % count, ratio(m["warm"], m["version"]))
    report.table(["plugins", "cold --list", "cold, undescribed", "C dlopen loop", "ratio", "ratio, undescribed",
                  "warm --list", "--version", "ratio",
                  "warm run -- true", "same, no plugins", "ratio", "RSS warm --list", "RSS --version",
                  "RSS cold --list", "RSS C loop"], table,
                 title="The plugin registry (medians of %d runs; ms, RSS in MiB)" % ctx.args.registry_runs)
    report.raw["medians"] = {str(k): v for k, v in results.items()}
    return report
