"""Part `sandbox`: what the least-privilege sandbox of the presenter process
costs (docs/SECURITY.md): the same runs with every layer in force and with
layers turned off by PRESENTER_HOST_SANDBOX_OFF, alternating, medians. The
product reads that variable only when built with the test switches
(PRESENTER_HOST_TEST_SWITCHES), so this part measures a release build of its
own made with them (build.swift_release_with_test_switches), every variant.

  start-up   plain (/dev/null, CI=1) and the 80x24 pty (`--min-show 0`), M times
             each variant: `run -- true` with the sandbox, without any layer
             (`all`), and without each layer alone (namespaces, seccomp,
             landlock, limits); wall time.
  spinning   `run -- sleep S` in the pty with and without the sandbox, N times
             each: CPU while spinning (every process of the tree but `sleep`)
             and CPU of the whole run.

Goal (issue 17): the sandbox adds at most 1 ms to `run -- true`, and the CPU
while spinning is unchanged within the noise.
"""
import os

from common import analyse_spin, log, median, plain_env, pty_env, run_in_pty, timed_plain, timed_pty

VARIANTS = (
    ("sandbox", None, "every layer"),
    ("off", "all", "no layer"),
    ("no-namespaces", "namespaces", "all but the namespaces"),
    ("no-seccomp", "seccomp", "all but seccomp"),
    ("no-landlock", "landlock", "all but Landlock"),
    ("no-limits", "limits", "all but the limits"),
)


def environment(make, off):
    return make({"PRESENTER_HOST_SANDBOX_OFF": off} if off else {})


def switches_binary(ctx):
    """The release build with the test switches (built once per bench run)."""
    if not hasattr(ctx, "switches_binary"):
        from build import swift_release_with_test_switches
        ctx.switches_binary = os.path.join(
            swift_release_with_test_switches(ctx.args.scratch_path, ctx.args.skip_build), "presenter-host")
    return ctx.switches_binary


def startup(ctx):
    plain_argv = [switches_binary(ctx), "run", "--", "true"]
    pty_argv = [switches_binary(ctx), "run", "--min-show", "0", "--", "true"]
    plain = {name: [] for name, _, _ in VARIANTS}
    in_pty = {name: [] for name, _, _ in VARIANTS}
    for _, off, _ in VARIANTS:
        timed_plain(plain_argv, environment(plain_env, off))  # untimed: warm the caches
    log("sandbox: start-up, %d runs each" % ctx.args.startup_runs)
    for _ in range(ctx.args.startup_runs):
        for name, off, _ in VARIANTS:
            seconds, status, _, _ = timed_plain(plain_argv, environment(plain_env, off))
            if status != 0:
                log("  %s exited with wait status %d" % (name, status))
            plain[name].append(seconds)
            seconds, status, _ = timed_pty(pty_argv, environment(pty_env, off))
            in_pty[name].append(seconds)
    return plain, in_pty


def spinning(ctx):
    sleep_arg = "%g" % ctx.args.seconds
    argv = [switches_binary(ctx), "run", "--", "sleep", sleep_arg]
    baseline = run_in_pty(["sleep", sleep_arg], sample=False)["cpu"]
    results = {"sandbox": [], "off": []}
    for index in range(ctx.args.runs):
        for name, off in (("sandbox", None), ("off", "all")):
            log("sandbox: spin %d/%d: %s" % (index + 1, ctx.args.runs, name))
            result = run_in_pty(argv, env=environment(pty_env, off))
            results[name].append(analyse_spin(result, baseline, ctx.args.seconds))
    return results


def run(ctx):
    from results import Report
    report = Report("sandbox")
    plain, in_pty = startup(ctx)
    spin = spinning(ctx)
    ms = {name: 1000 * median(values) for name, values in plain.items()}
    pty_ms = {name: 1000 * median(values) for name, values in in_pty.items()}

    def med(name, key):
        return median([r[key] for r in spin[name]])

    f = report.figure
    f("sandbox.adds_ms_plain", ms["sandbox"] - ms["off"])
    f("sandbox.adds_ms_pty", pty_ms["sandbox"] - pty_ms["off"])
    f("sandbox.spin_cpu_pct", med("sandbox", "steady_cpu_pct"))
    f("sandbox.spin_cpu_pct_off", med("off", "steady_cpu_pct"))
    rows = []
    for name, _, label in VARIANTS:
        rows.append([label, ms[name], ms[name] - ms["off"], pty_ms[name], pty_ms[name] - pty_ms["off"]])
    report.table(["`run -- true` with", "plain (ms)", "added (ms)", "pty (ms)", "added (ms)"], rows,
                 title="Start-up (medians of %d runs each, alternating)" % ctx.args.startup_runs)
    spin_rows = []
    for label, key in (("CPU while spinning (% of a core)", "steady_cpu_pct"),
                       ("of which the host process (%)", "steady_host_cpu_pct"),
                       ("CPU, whole %g s run (s)" % ctx.args.seconds, "cpu_s"),
                       ("bytes per frame", "bytes_per_frame")):
        on, off = med("sandbox", key), med("off", key)
        spin_rows.append([label, on, off, on - off])
    report.table(["", "with the sandbox", "without", "difference"], spin_rows,
                 title="Spinning (medians of %d runs of %g s in the 80 × 24 pty)" % (ctx.args.runs,
                                                                                     ctx.args.seconds))
    report.raw.update({"plain": plain, "pty": in_pty, "spin": spin})
    return report
