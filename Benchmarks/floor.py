"""Part `floor`: what any presenter in another process costs per frame on
this machine (helpers/floor.c, N runs of 60 frames): the price of the round
trip (a wake-up of each process and two messages), which no protocol or
code change in presenter-host can go below."""
import os
import subprocess

from common import compile_c, helper, log, median


def run(ctx):
    from results import Report
    report = Report("floor")
    program = compile_c(helper("floor.c"), os.path.join(ctx.scratch, "floor"))
    results = []
    for index in range(ctx.args.runs):
        log("floor %d/%d" % (index + 1, ctx.args.runs))
        out = subprocess.run([program, "60"], check=True, capture_output=True, text=True).stdout.split()
        results.append(tuple(float(x) for x in out))
    alone, waker, other = (median([r[i] for r in results]) for i in range(3))
    extra = waker - alone + other
    report.table(["", "µs of CPU a frame", "ms a second at 12.5 frames/s"],
                 [["a loop that sleeps 80 ms a frame", alone, alone * 12.5 / 1000],
                  ["the same, sending a request and waiting for the answer", waker, waker * 12.5 / 1000],
                  ["the other process, receiving and answering", other, other * 12.5 / 1000],
                  ["the round trip adds, both sides", extra, extra * 12.5 / 1000]],
                 title="The floor of a frame in another process (C, medians of %d runs of 60 frames)"
                       % ctx.args.runs)
    report.figure("floor.round_trip_us", extra)
    report.raw["runs"] = results
    return report
