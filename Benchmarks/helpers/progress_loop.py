"""The command of the progress part: reports i/N 1,000 times a second for
SECONDS, to PRESENTER_PROGRESS_FD (`fd`), to rich's Progress (`rich`) or to
/dev/null (`null`, the baseline)."""
import os
import sys
import time

seconds, target = float(sys.argv[1]), sys.argv[2]
total = int(seconds * 1000)
start = time.monotonic()
if target == "fd":
    out = os.fdopen(int(os.environ["PRESENTER_PROGRESS_FD"]), "w", buffering=1)
    report = lambda i: out.write("%d/%d\n" % (i, total))  # noqa: E731
elif target == "rich":
    from rich.progress import Progress
    progress = Progress()
    progress.start()
    task = progress.add_task("Working", total=total)
    report = lambda i: progress.update(task, completed=i)  # noqa: E731
else:
    out = open(os.devnull, "w", buffering=1)
    report = lambda i: out.write("%d/%d\n" % (i, total))  # noqa: E731
for i in range(1, total + 1):
    report(i)
    delay = start + i / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
if target == "rich":
    progress.stop()
