"""What a run left of its terminal: the modes its output set, and the tty's settings.

The soak does not emulate the screen (a run's output can be megabytes);
it follows only the modes a host may set and must put back: the cursor
(DECTCEM, `ESC[?25l` hides it), the alternate screen (1049, 1047, 47),
bracketed paste (2004) and mouse reporting (1000-1006). A full reset
(`ESC c`) puts them all back.
"""
import re
import termios

MODES = {"25": "cursor hidden", "1049": "alternate screen", "1047": "alternate screen", "47": "alternate screen",
         "2004": "bracketed paste", "1000": "mouse reporting", "1002": "mouse reporting",
         "1003": "mouse reporting", "1006": "mouse reporting"}
# The state a mode is wrong in: DECTCEM is on by default, the others off.
DEFAULT_ON = {"25"}
SEQUENCE = re.compile(rb"\x1b\[\?([0-9;]*)([hl])|\x1bc")


class ModeTracker:
    """Feeds on a run's output and knows which modes are left wrong."""

    def __init__(self):
        self.state = {}
        self.tail = b""

    def feed(self, data):
        data = self.tail + data
        end = 0
        for match in SEQUENCE.finditer(data):
            end = match.end()
            if match.group(0) == b"\x1bc":
                self.state.clear()
                continue
            on = match.group(2) == b"h"
            for mode in match.group(1).decode().split(";"):
                if mode in MODES:
                    self.state[mode] = on
        # An escape sequence cut by the read is kept for the next one.
        cut = data.rfind(b"\x1b", end)
        self.tail = data[cut:][-32:] if cut >= 0 and len(data) - cut < 32 else b""

    def wrong(self):
        """The modes left as the host must not leave them, by name."""
        names = set()
        for mode, on in self.state.items():
            if on != (mode in DEFAULT_ON):
                names.add(MODES[mode])
        return sorted(names)


def settings_wrong(fd):
    """What is wrong with the tty's settings (read through the pty's master): raw mode, no echo."""
    try:
        attributes = termios.tcgetattr(fd)
    except termios.error:
        return []  # hung up: nothing to read
    lflag = attributes[3]
    wrong = []
    if not lflag & termios.ICANON:
        wrong.append("raw mode (ICANON off)")
    if not lflag & termios.ECHO:
        wrong.append("echo off")
    if not lflag & termios.ISIG:
        wrong.append("signals off (ISIG)")
    return wrong
