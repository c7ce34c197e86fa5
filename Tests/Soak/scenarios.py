"""What one soak run does: a Spec, drawn from a seeded random generator.

A spec is everything about a run that the seed decides: the command line
after the binary, the environment it adds, whether it runs in a
pseudo-terminal, what the soak does to it and when (Actions), and its
bound: the longest the host may legitimately take, before the soak's
slack. `Spec.draw(seed, index, setting)` gives the same spec for the same
seed and index every time, so a failure is replayed by its seed.
"""
import dataclasses
import json
import random

# The fixture presenter's misbehaviours (Tests/PresenterHostTests/Fixtures/
# plugins/misbehaving.c, the sandbox tests' fixture): WHAT:HOOK.
MISBEHAVIOURS = ["crash", "abort", "exit", "sleep", "hang", "spin", "print", "tty", "thread", "fail", "linger",
                 "logflood", "alloc", "fork"]
HOOKS = ["create", "destroy", "show", "hide", "progress", "render", "key"]
# What a presenter running inside the host (--in-process) may do without
# taking the host with it: an in-process plugin is trusted, so a crash, a
# hang (logflood never returns) or a process it forks is the plugin's, not
# a defect of the host.
IN_PROCESS_SAFE = ["print", "thread", "fail", "tty"]
# Misbehaviours that end the presenter process with a core dump (or may:
# alloc runs into its address-space cap).
DUMPS_CORE = ["crash", "abort", "alloc"]

PRESENTERS = ["mbhud", "netactivity", "addbookmark", "fixture.misbehaving"]
SERVER_PAGES = ["delay/%d", "drip/%d", "stall", "silent", "cut", "status/404", "status/500", "big/2", "delay/%d"]

# The host's own budgets (see docs/ARCHITECTURE.md): what a run may take
# beyond its command, unloaded.
OUTCOME_LIMIT = 5.0     # the outcome display's bound after --min-show, where the host waits for it
END_HOOKS = 1.5         # drive's end: the hides, the last render and the destroy, at its 0.5 s budget
START_TIMEOUT = 5.0     # a presenter process's start and load
KILL_GRACE = 2.0        # --timeout: SIGTERM, then SIGKILL this much later
FETCH_GRACE = 1.0       # a fetch is killed this long after its timeout


@dataclasses.dataclass
class Action:
    """Something the soak does to a run: `what`, `delay` seconds after `trigger`.

    Triggers: `spawn` (the host was started), `output` (its first output:
    a frame or a line), `command-start` and `command-end` (the workload
    says so through its notify FIFO). What: `ctrl-c`, `ctrl-z` (typed on
    the pty; SIGTSTP by kill in plain mode), `sigterm`, `sighup`, `sigint`
    (kill to the host alone), `resize`, `hangup` (the pty closed), `keys:TEXT`
    (typed), `leave` (Esc every 0.7 s until the host ends), and for
    `drive --socket`, `clients` (connect the clients).
    """
    trigger: str
    delay: float
    what: str


@dataclasses.dataclass
class Spec:
    index: int
    kind: str
    terminal: bool
    argv: list
    env: dict
    actions: list
    bound: float
    label: str
    stdin_lines: list = None
    clients: list = None
    cores_expected: bool = False
    cols: int = 100
    rows: int = 30

    def describe(self):
        return "%s %s%s" % (self.kind, "pty" if self.terminal else "plain", (" " + self.label) if self.label else "")

    @staticmethod
    def draw(seed, index, setting):
        """The spec of run `index` under `seed`; `setting` holds the soak's paths and port."""
        rng = random.Random("%d:%d" % (seed, index))
        kind = rng.choices(["run", "drive-socket", "drive-stdin", "get-title", "screen"],
                           weights=[62, 12, 6, 14, 6])[0]
        builder = {"run": _run, "drive-socket": _drive_socket, "drive-stdin": _drive_stdin,
                   "get-title": _get_title, "screen": _screen}[kind]
        spec = builder(rng, index, setting)
        return spec


def _seconds(rng, low, high):
    return round(rng.uniform(low, high), 3)


def _disruptions(rng, terminal, triggers, kinds=None):
    """0 to 2 signals or keys, and 0 to 3 resizes, at random moments."""
    kinds = kinds or (["ctrl-c", "ctrl-z", "sigterm", "sighup", "sigint", "ctrl-z", "hangup"] if terminal
                      else ["sigterm", "sighup", "sigint", "sigtstp", "sigtstp"])
    actions = []
    count = rng.choices([0, 1, 2], weights=[35, 45, 20])[0]
    for _ in range(count):
        what = rng.choice(kinds)
        if what == "hangup" and rng.random() < 0.6:
            what = "ctrl-z"  # a hangup ends the terminal checks: keep it rare
        actions.append(Action(rng.choice(triggers), _delay(rng), what))
    if terminal:
        for _ in range(rng.choices([0, 1, 3], weights=[50, 30, 20])[0]):
            actions.append(Action(rng.choice(triggers), _delay(rng), "resize"))
    return actions


def _delay(rng):
    # Mostly at once (the moment itself: start-up, a frame, the end of the
    # command, the outcome), sometimes a little later, into the next phase.
    return rng.choice([0.0, 0.0, _seconds(rng, 0, 0.03), _seconds(rng, 0, 0.2), _seconds(rng, 0.2, 0.8)])


def _global_flags(rng, setting):
    flags = ["--plugin-dir", setting["plugins"]]
    if rng.random() < 0.1:
        flags.append(rng.choice(["--no-cache", "--rescan"]))
    if rng.random() < 0.15:
        flags.insert(0, "--trace")
    return flags


def _terminal_env(rng, terminal):
    env = {}
    if terminal:
        env["TERM"] = "xterm-256color"
        if rng.random() < 0.1:
            env[rng.choice(["CI", "TERM"])] = "dumb" if rng.random() < 0.5 else "1"  # plain lines on a tty
    if rng.random() < 0.1:
        env["NO_COLOR"] = "1"
    if rng.random() < 0.05:
        env["ACCESSIBLE"] = "1"
    return env


def _presenter(rng, env, in_process):
    """A presenter and, for the fixture, its misbehaviour; also whether a core is expected."""
    presenter = rng.choices(PRESENTERS, weights=[35, 10, 10, 45])[0]
    cores = False
    budget = 0.25
    if presenter == "fixture.misbehaving":
        what = rng.choice(IN_PROCESS_SAFE if in_process else MISBEHAVIOURS)
        if what == "alloc" and rng.random() < 0.7:
            what = "sleep"  # 2 GiB each: keep them few
        env["FIXTURE_MISBEHAVE"] = "%s:%s" % (what, rng.choice(HOOKS))
        if rng.random() < 0.3:
            env["FIXTURE_SKIP"] = str(rng.randint(1, 5))
        if what == "sleep":
            env["FIXTURE_SLEEP_MS"] = str(rng.choice([50, 300, 1000]))
        if rng.random() < 0.1 and not in_process:
            env["FIXTURE_SLOW_LOAD_MS"] = str(rng.choice([100, 1000]))
        cores = what in DUMPS_CORE
        budget = rng.choice([0.1, 0.25, 0.5, 1.0])
    return presenter, budget, cores


def _workload(rng, setting):
    """The command and the seconds it runs for, unloaded (a torrent's time is its bytes')."""
    status = rng.choice([0, 0, 0, 1, 3])
    script = setting["workload"]
    kind = rng.choices(["sleep", "lines", "torrent", "progress", "children", "quick", "missing"],
                       weights=[25, 12, 12, 16, 10, 20, 5])[0]
    if kind == "sleep":
        seconds = rng.choice([0.0, 0.05, 0.2, 0.5, 1.0, 2.0])
        return ["sh", script, "sleep", str(seconds), str(status)], seconds
    if kind == "lines":
        seconds = rng.choice([0, 0.1, 0.5])
        return ["sh", script, "lines", str(rng.choice([10, 1000, 20000])), str(seconds), str(status)], seconds + 1
    if kind == "torrent":
        size = rng.choice([100_000, 2_000_000, 20_000_000])
        return ["sh", script, "torrent", str(size), str(status)], 1 + size / 5_000_000
    if kind == "progress":
        count = rng.choice([100, 10_000, 200_000])
        return ["sh", script, "progress", str(count), str(status)], 1 + count / 50_000
    if kind == "children":
        seconds = rng.choice([0.1, 0.5, 1.5])
        return ["sh", script, "children", str(seconds), str(status)], seconds
    if kind == "quick":
        return rng.choice([["true"], ["false"], ["sh", script, "quick", str(status)]]), 0
    return [rng.choice(["/nonexistent/soak-command", "soak-no-such-command"])], 0


def _run(rng, index, setting):
    terminal = rng.random() < 0.6
    env = _terminal_env(rng, terminal)
    in_process = rng.random() < 0.1
    presenter, budget, cores = _presenter(rng, env, in_process)
    argv = _global_flags(rng, setting) + ["run", "--presenter", presenter, "--hook-timeout", str(budget)]
    if in_process:
        argv.append("--in-process")
    min_show = rng.choice([0, 0.1, 0.5, 0.5, 1.0])
    argv += ["--min-show", str(min_show)]
    # run waits for the outcome only with --linger (drawn from the same
    # draw, so that a seed still makes the runs it made).
    linger = min_show == 1.0
    if linger:
        argv.append("--linger")
    output = rng.choices(["on-failure", "stream", "tail", "tail=2", "hide"], weights=[30, 20, 25, 10, 15])[0]
    argv += ["--output", output]
    for flag, chance in (("--static", 0.08), ("-v", 0.15)):
        if rng.random() < chance:
            argv.append(flag)
    if rng.random() < 0.15:
        argv += ["--color", rng.choice(["always", "never"])]
    if rng.random() < 0.1:
        argv += ["--terminal-progress", "always"]
    if rng.random() < 0.1:
        argv += ["--grace", str(rng.choice([0.05, 0.3]))]
    if rng.random() < 0.15:
        argv += ["--log", "run.log"]
    if rng.random() < 0.15:
        argv += ["--events", rng.choice(["events.jsonl", "events.jsonl", "-"])]
    if rng.random() < 0.3:
        argv += ["--working", "Soaking", "--success", "Soaked", "--failure", "Soak failed"]
    command, seconds = _workload(rng, setting)
    timeout = 0.0
    if rng.random() < 0.15:
        timeout = rng.choice([0.1, 0.3, 1.0, 5.0])
        argv += ["--timeout", str(timeout)]
    argv += ["--"] + command
    triggers = ["spawn", "output", "command-start", "command-end", "command-end"]
    actions = _disruptions(rng, terminal, triggers)
    hooks = 8 * budget  # a few hooks may each run to the budget before the presenter is taken off
    bound = START_TIMEOUT + seconds + hooks + (linger and min_show + OUTCOME_LIMIT) + (timeout and KILL_GRACE)
    label = "--presenter %s%s %s" % (presenter, " " + env["FIXTURE_MISBEHAVE"] if "FIXTURE_MISBEHAVE" in env else "",
                                      " ".join(command[2:3] if command[0] == "sh" else command[:1]))
    return Spec(index, "run", terminal, argv, env, actions, bound, label, cores_expected=cores,
                cols=rng.choice([20, 80, 100, 200]), rows=rng.choice([5, 24, 40]))


def _drive_lines(rng, count, prefix):
    """Driver lines: actions started, moved and ended, with bad lines among them."""
    lines, running = [], []
    for number in range(count):
        choice = rng.random()
        if choice < 0.05:
            lines.append(rng.choice(["not json", '{"start": ""}', '{"fail": "nobody"}', '{"progress": "x"}',
                                     '{"start": "a", "succeed": "a"}', "{" * 2000]))
        elif choice < 0.35 or not running:
            ident = "%s%d" % (prefix, number)
            running.append(ident)
            lines.append(json.dumps({"start": ident, "working": "Driving %s" % ident, "success": "Driven"}))
        elif choice < 0.8:
            lines.append(json.dumps({"progress": rng.choice(running), "fraction": round(rng.random(), 3),
                                     "message": "step %d" % number}))
        else:
            ident = running.pop(rng.randrange(len(running)))
            verb = rng.choice(["succeed", "fail"])
            lines.append(json.dumps({verb: ident}))
    return lines


def _drive_socket(rng, index, setting):
    terminal = rng.random() < 0.5
    env = _terminal_env(rng, terminal)
    argv = ["--plugin-dir", setting["plugins"], "drive", "--socket", "drive.sock",
            "--min-show", str(rng.choice([0, 0.3])), "--hook-timeout", "0.5"]
    if rng.random() < 0.3:
        argv += ["--presenter", rng.choice(["netactivity", "addbookmark"])]
    clients = []
    for number in range(rng.choice([1, 2, 5, 12])):
        clients.append({
            "at": _seconds(rng, 0, 1.5),
            "lines": _drive_lines(rng, rng.choice([3, 50, 2000]), "c%d-" % number),
            # Vanish: close in the middle of the lines; deaf: never read the replies.
            "vanish": rng.random() < 0.4,
            "deaf": rng.random() < 0.3,
        })
    last = max(client["at"] for client in clients)
    # It runs until a signal: sent with kill, which reaches it wherever it
    # is (a Ctrl-C typed while it is in the background goes to the shell).
    stop = _seconds(rng, 0, 1.0) + last
    actions = [Action("spawn", 0.0, "clients"), Action("spawn", stop, rng.choice(["sigterm", "sigint", "sighup"]))]
    if terminal and rng.random() < 0.4:
        actions.append(Action("spawn", _seconds(rng, 0, stop), rng.choice(["resize", "ctrl-z", "ctrl-c"])))
    bound = START_TIMEOUT + stop + END_HOOKS
    return Spec(index, "drive-socket", terminal, argv, env, actions, bound, "%d clients" % len(clients),
                clients=clients, cols=rng.choice([40, 100]), rows=rng.choice([10, 30]))


def _drive_stdin(rng, index, setting):
    terminal = rng.random() < 0.5
    env = _terminal_env(rng, terminal)
    argv = ["--plugin-dir", setting["plugins"], "drive", "--min-show", str(rng.choice([0, 0.3])),
            "--hook-timeout", "0.5"]
    lines = _drive_lines(rng, rng.choice([5, 200, 5000]), "s")
    triggers = ["spawn", "output"]
    actions = _disruptions(rng, terminal, triggers)
    bound = START_TIMEOUT + 1.0 + len(lines) / 2000 + END_HOOKS + 0.3
    return Spec(index, "drive-stdin", terminal, argv, env, actions, bound, "%d lines" % len(lines),
                stdin_lines=lines)


def _page(rng, setting):
    page = rng.choice(SERVER_PAGES)
    if "%d" in page:
        page = page % rng.choice([0, 50, 300, 1500])
    return "http://127.0.0.1:%d/%s?title=Soak%%20%d" % (setting["port"], page, rng.randint(0, 999))


def _get_title(rng, index, setting):
    terminal = rng.random() < 0.5
    env = _terminal_env(rng, terminal)
    timeout = rng.choice([0.2, 0.5, 1.0, 2.0])
    argv = ["--plugin-dir", setting["plugins"], "add-bookmark", "--url", _page(rng, setting),
            "--timeout", str(timeout), "--hook-timeout", "0.5"]
    if rng.random() < 0.5:
        argv += ["--add", "--store", "bookmarks.json"]
        if rng.random() < 0.3:
            argv += ["--title", "Given"]
    else:
        argv.append("--get-title")
    if rng.random() < 0.3:
        argv += ["--presenter", rng.choice(["mbhud", "netactivity"])]
    actions = _disruptions(rng, terminal, ["spawn", "output", "output"])
    bound = START_TIMEOUT + timeout + FETCH_GRACE + OUTCOME_LIMIT + 1.0
    return Spec(index, "get-title", terminal, argv, env, actions, bound, argv[4])


def _screen(rng, index, setting):
    """The Add Bookmark screen, typed at: raw mode and the alternate screen, to be given back."""
    env = _terminal_env(rng, True)
    env.pop("CI", None)
    env["TERM"] = "xterm-256color"
    timeout = rng.choice([0.3, 1.0])
    argv = ["--plugin-dir", setting["plugins"], "add-bookmark", "--store", "bookmarks.json",
            "--timeout", str(timeout), "--hook-timeout", "0.5"]
    actions, at = [], 0.0
    for _ in range(rng.randint(1, 6)):
        at += _seconds(rng, 0.05, 0.6)
        keys = rng.choice(["URL", "\t", "\x1b[Z", "\r", "\x1b[B", "abc", "\x1b[200~pasted\x1b[201~", "\x7f"])
        if keys == "URL":
            keys = _page(rng, setting)
        actions.append(Action("output", at, "keys:" + keys))
    at += _seconds(rng, 0, 1.5)
    # It ends when told to: Esc, Ctrl-C (a key in raw mode), or a signal;
    # then, after a Ctrl-Z and fg, Esc until it leaves (the first Esc may
    # only dismiss an outcome the HUD shows: MBHud takes any key for that).
    actions.append(Action("output", at, rng.choice(["keys:\x1b", "keys:\x03", "sigterm", "sighup", "ctrl-z"])))
    actions.append(Action("output", at + 2.5, "leave"))
    actions += [a for a in _disruptions(rng, True, ["spawn", "output"]) if a.what == "resize"]
    bound = START_TIMEOUT + at + 2.5 + timeout + FETCH_GRACE + OUTCOME_LIMIT
    return Spec(index, "screen", True, argv, env, actions, bound, "%d keys" % (len(actions) - 2),
                cols=rng.choice([60, 100]), rows=rng.choice([20, 30]))
