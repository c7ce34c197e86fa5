"""Part `drive`: `presenter-host drive --socket PATH --presenter netactivity`
in plain mode, 16 client processes at once (helpers/drive_client.py), 10,000
actions in all; throughput until the last client is done, then SIGTERM.
A second run with PRESENTER_HOST_DEBUG=1 and --log traces every hook call:
every show must have exactly one hide with the same interactor id (so the
NetActivity counter is back to 0), and no client gets an error back."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from common import helper, log, median, plain_env

ACTIONS = 10000
CLIENTS = 16


def once(binary, trace):
    work = tempfile.mkdtemp(prefix="bench-drive-")
    path = os.path.join(work, "s")
    log_path = os.path.join(work, "drive.log")
    env = plain_env({"PRESENTER_HOST_DEBUG": "1"} if trace else None)
    argv = [binary, "drive", "--socket", path, "--presenter", "netactivity"]
    if trace:
        argv += ["-v", "--log", log_path]
    with open(os.path.join(work, "stderr"), "w") as stderr:
        driver = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + 30
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.01)
        share = ACTIONS // CLIENTS
        start = time.monotonic()
        clients = [subprocess.Popen([sys.executable, helper("drive_client.py"), path, str(n * share), str(share)],
                                    stdout=subprocess.PIPE, text=True) for n in range(CLIENTS)]
        replies = [c.communicate()[0] for c in clients]
        done = time.monotonic() - start
        driver.send_signal(15)
        status = driver.wait(timeout=120)
    total = time.monotonic() - start
    result = {"seconds": done, "until_exit": total, "status": status,
              "actions_per_s": ACTIONS / done if done > 0 else 0,
              "errors": sum(1 for r in replies for line in r.splitlines() if line.strip())}
    if trace:
        shows, hides = {}, {}
        pattern = re.compile(r"trace: netactivity\.(show|hide)\(.*?#(\d+) ")
        with open(log_path, errors="replace") as f:
            for line in f:
                match = pattern.search(line)
                if match:
                    table = shows if match.group(1) == "show" else hides
                    table[match.group(2)] = table.get(match.group(2), 0) + 1
        result.update({
            "shows": sum(shows.values()), "hides": sum(hides.values()),
            "unpaired": sum(1 for i in set(shows) | set(hides) if shows.get(i, 0) != 1 or hides.get(i, 0) != 1),
            "counter_left": sum(shows.values()) - sum(hides.values()),
        })
    shutil.rmtree(work, ignore_errors=True)
    return result


def run(ctx):
    from results import Report
    report = Report("drive")
    plain, traced = [], []
    for index in range(ctx.args.runs):
        log("drive %d/%d" % (index + 1, ctx.args.runs))
        plain.append(once(ctx.binary, trace=False))
        log("drive %d/%d, traced" % (index + 1, ctx.args.runs))
        traced.append(once(ctx.binary, trace=True))
    every = plain + traced
    report.table(["", "value"], [
        ["throughput (actions a second, until the last client is done)", median([r["actions_per_s"] for r in plain])],
        ["time until the last client is done (s)", median([r["seconds"] for r in plain])],
        ["time until the driver exited after SIGTERM (s)", median([r["until_exit"] for r in plain])],
        ["runs whose exit status was 0", "%d of %d" % (sum(1 for r in every if r["status"] == 0), len(every))],
        ["error lines sent back to clients, all runs", sum(r["errors"] for r in every)],
        ["traced runs: shows, hides (medians)", "%d, %d" % (median([r["shows"] for r in traced]),
                                                           median([r["hides"] for r in traced]))],
        ["traced runs: interactor ids without exactly one show and one hide", sum(r["unpaired"] for r in traced)],
        ["traced runs: the NetActivity counter at the end (shows − hides)",
         sum(abs(r["counter_left"]) for r in traced)],
        ["traced runs' throughput (every hook call logged)", median([r["actions_per_s"] for r in traced])],
    ], title="`drive --socket`: %d actions from %d clients at once (medians of %d runs)"
             % (ACTIONS, CLIENTS, ctx.args.runs))
    report.figure("drive.unpaired", sum(r["unpaired"] for r in traced) + sum(r["errors"] for r in every))
    report.figure("drive.actions_per_s", median([r["actions_per_s"] for r in plain]))
    report.raw.update({"plain": plain, "traced": traced})
    return report
