"""A job-control shell for one soak run in a pseudo-terminal.

    python3 jobshell.py CONTROL_FD STATUS_FD [--stdin FILE] -- PROGRAM [ARGUMENT...]

Started by the soak with the pty's slave on 0, 1 and 2. It does what an
interactive shell does for one foreground job, and no more:

- it leads a session of its own whose controlling terminal is the pty;
- it starts PROGRAM (its stdin FILE when given, else the terminal) in a
  process group of its own and gives that group the
  terminal (so Ctrl-C and Ctrl-Z typed on the pty reach PROGRAM's group,
  and a stopped job is stopped for real: the group is not orphaned);
- when the job stops it takes the terminal back, as a shell does before it
  prints its prompt;
- it obeys the soak's commands, one a line on CONTROL_FD: `fg` (the job
  gets the terminal and SIGCONT), `bg` (SIGCONT only: the job runs in the
  background), `quit` (exit);
- it reports on STATUS_FD, one a line: `pid N` once the job runs, `stopped
  SIGNAL`, `continued`, and at the end `exit STATUS` or `signal SIGNAL CORE`
  (CORE 1 when a core was dumped), or `error TEXT` when the job could not
  be started.

After the job ends it keeps the session (and the terminal) until `quit`:
a session leader that exits hangs up the terminal's foreground group, which
would end a process the job left behind before the soak could see it.
"""
import os
import signal
import sys
import threading

control_fd, status_fd = int(sys.argv[1]), int(sys.argv[2])
program = sys.argv[sys.argv.index("--") + 1:]
stdin = sys.argv[sys.argv.index("--stdin") + 1] if "--stdin" in sys.argv[:sys.argv.index("--")] else None
# What a shell ignores itself, and resets in the jobs it starts.
JOB_SIGNALS = (signal.SIGTTOU, signal.SIGTTIN, signal.SIGTSTP, signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)


def report(line):
    os.write(status_fd, (line + "\n").encode())


def take_terminal(group):
    try:
        os.tcsetpgrp(0, group)
    except OSError:
        pass  # hung up (the soak closed the pty), or the group is gone


def start_job():
    pid = os.fork()
    if pid == 0:
        try:
            os.setpgid(0, 0)
            os.tcsetpgrp(0, os.getpid())
            for number in JOB_SIGNALS:
                signal.signal(number, signal.SIG_DFL)
            if stdin is not None:
                os.dup2(os.open(stdin, os.O_RDONLY), 0)
            os.closerange(3, 1024)
            os.execvp(program[0], program)
        finally:
            os._exit(127)
    # Both sides set the group and the terminal, so whichever runs first wins the race.
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the job already did it (and may already have exec'd)
    take_terminal(pid)
    return pid


def obey(job):
    """The soak's commands; `quit` (or the soak's end) exits the shell."""
    pending = b""
    while True:
        chunk = os.read(control_fd, 256)
        if not chunk:
            os._exit(0)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            command = line.decode().strip()
            if command == "quit":
                os._exit(0)
            try:
                if job is None:
                    continue
                if command == "fg":
                    take_terminal(job)
                    os.killpg(job, signal.SIGCONT)
                elif command == "bg":
                    os.killpg(job, signal.SIGCONT)
            except OSError:
                pass  # the job ended meanwhile


def main():
    import fcntl
    import termios
    for number in JOB_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    try:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    except OSError as error:
        # The soak hung the pty up before the shell got it as its terminal.
        report("error %s" % error.strerror)
        obey(None)
    job = start_job()
    report("pid %d" % job)
    threading.Thread(target=obey, args=(job,), daemon=True).start()
    while True:
        _, status = os.waitpid(job, os.WUNTRACED | os.WCONTINUED)
        if os.WIFSTOPPED(status):
            take_terminal(os.getpgrp())
            report("stopped %d" % os.WSTOPSIG(status))
        elif os.WIFCONTINUED(status):
            report("continued")
        else:
            break
    take_terminal(os.getpgrp())
    if os.WIFSIGNALED(status):
        report("signal %d %d" % (os.WTERMSIG(status), 1 if os.WCOREDUMP(status) else 0))
    else:
        report("exit %d" % os.WEXITSTATUS(status))
    threading.Event().wait()  # until `quit`


# A hung-up terminal makes a failed write of our own an exception at exit:
# the soak hears of everything through the status pipe, and the exit is _exit.
try:
    main()
finally:
    os._exit(0)
