"""Part `hang`: from the command's end to presenter-host's exit when the
presenter's hide hook never returns (the fixture plugin misbehaving.c under
FIXTURE_MISBEHAVE=hang:hide), against the same fixture well-behaved, N times
in the pty and in plain mode. The command writes a byte on descriptor 9 (a
pipe of ours) as it ends: its arrival is the command's end, the exit the
run's end. The goal: at most the hook budget (250 ms) plus 100 ms."""
import os
import re
import shutil
import tempfile

from common import ROOT, compile_c, log, median, plain_env, pty_env, run_in_pty, run_plain, NOTIFY_FD

HOOK_BUDGET = 0.25


def run(ctx):
    from results import Report
    report = Report("hang")
    directory = tempfile.mkdtemp(prefix="bench-plugins-")
    try:
        source = os.path.join(ROOT, "Tests", "PresenterHostTests", "Fixtures", "plugins", "misbehaving.c")
        compile_c(source, os.path.join(directory, "libmisbehaving.so"), shared=True, extra=["-lpthread"])
        argv = [ctx.binary, "--plugin-dir", directory, "run", "--presenter", "fixture.misbehaving", "--",
                "sh", "-c", "sleep 0.3; echo x >&%d" % NOTIFY_FD]
        cases = (("hang", {"FIXTURE_MISBEHAVE": "hang:hide"}), ("baseline", {}))
        gaps = {mode: {name: [] for name, _ in cases} for mode in ("pty", "plain")}
        notes = []
        stderr_path = os.path.join(directory, "stderr")
        for index in range(ctx.args.runs):
            for mode in ("pty", "plain"):
                for name, extra in cases:
                    log("hang %d/%d: %s, %s" % (index + 1, ctx.args.runs, mode, name))
                    if mode == "pty":
                        result = run_in_pty(argv, env=pty_env(extra), notify=os.pipe(), sample=False)
                        said = b"".join(c for _, c in result["chunks"])
                    else:
                        result = run_plain(argv, env=plain_env(extra), notify=os.pipe(), stderr_path=stderr_path)
                        with open(stderr_path, "rb") as f:
                            said = f.read()
                    if result["notified_at"] is None:
                        notes.append("%s %s: the command's byte never came" % (mode, name))
                        continue
                    gaps[mode][name].append(result["exited_at"] - result["notified_at"])
                    if result["status"] != 0:
                        notes.append("%s %s: wait status %d" % (mode, name, result["status"]))
                    text = re.sub(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[ -/]*[0-~])", "\n", said.decode("utf-8", "replace"))
                    lines = re.findall(r"presenter-host: [^\r\n]*", text)
                    if lines and index == 0:
                        notes.append("%s %s said: %s" % (mode, name, " / ".join(line.strip() for line in lines)))
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    def ms(mode, name):
        return 1000 * median(gaps[mode][name])

    report.table(["ms, from the command's end to the exit", "80 × 24 pty", "plain (/dev/null, CI=1)"],
                 [["FIXTURE_MISBEHAVE=hang:hide", ms("pty", "hang"), ms("plain", "hang")],
                  ["well-behaved (baseline)", ms("pty", "baseline"), ms("plain", "baseline")]],
                 title="A presenter whose hide hook hangs (medians of %d runs)" % ctx.args.runs)
    if notes:
        report.text("Notes: " + "; ".join(notes) + ".")
    report.figure("hang.pty_ms", ms("pty", "hang"))
    report.figure("hang.plain_ms", ms("plain", "hang"))
    report.raw["gaps"] = gaps
    return report
