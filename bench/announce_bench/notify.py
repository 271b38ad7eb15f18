"""Desktop notification figures (issue #48): exec → the notification on the server, for
`announce --notify-only` beside `notify-send` on the same dunst, and announce's peak memory.

Both clients exit once the server has answered `Notify` with the notification's id: with
`--timeout 0` announce's wait ends at once and leaves the notification on screen, as
notify-send does. The desktop is Tests/Support/notifystack (Xvfb, a session bus, the real
dunst of the release)."""

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field

from .lean import run_rusage
from .stats import median, now, say
from .workspace import ROOT

NOTIFYSTACK = os.path.join(ROOT, "Tests", "Support", "notifystack")
TEXT = "Saved"


@dataclass
class Notify:
    announce: list = field(default_factory=list)  # seconds, exec → exit after the server's answer
    notify_send: list = field(default_factory=list)
    peak_rss: int = 0  # bytes, the largest of three announce runs under GNU time
    note: str = ""

    @property
    def announce_median(self):
        return median(self.announce) if self.announce else float("nan")

    @property
    def notify_send_median(self):
        return median(self.notify_send) if self.notify_send else float("nan")


def timed(args, env):
    """(seconds, exit status) of one run.

    Not its peak RSS: wait4's ru_maxrss of a child forked from this Python process keeps
    Python's own peak across exec (25 to 37 MiB in bench/run, against announce's 16), so
    the memory is measured apart, under GNU time (lean.run_rusage)."""
    start = now()
    p = subprocess.run(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
    return now() - start, p.returncode


def measure_notify(announce, release, reps):
    """The notification figures on the dunst of `release`; a note says why when not measured."""
    say(f"\n[9] desktop notification: exec -> on the server, announce --notify-only beside notify-send, "
        f"{reps} reps (Debian {release})")
    result = Notify()
    if not shutil.which("notify-send"):
        result.note = "notify-send is not installed (libnotify-bin)"
        return result
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("TESTSTACK_")}
    run_env["TESTSTACK_RELEASE"] = release
    folder = tempfile.mkdtemp(prefix="an-bench-notify.")
    try:
        r = subprocess.run([NOTIFYSTACK, "start", folder], env=run_env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        if r.returncode != 0:
            result.note = f"notifystack start failed: {r.stderr.strip()}"
            return result
        with open(os.path.join(folder, "notify-env")) as f:
            desktop = dict(line.split("=", 1) for line in f.read().splitlines() if "=" in line)
        client = {k: v for k, v in os.environ.items() if not k.startswith(("ANNOUNCE_", "DBUS_"))}
        client.update({k: desktop[k] for k in ("DBUS_SESSION_BUS_ADDRESS", "DISPLAY")})
        client["XDG_STATE_HOME"] = os.path.join(folder, "state")
        commands = {
            "a": [announce, "--notify-only", "--timeout", "0", "--no-history", TEXT],
            "n": ["notify-send", TEXT],
        }
        for i in range(reps + 1):
            for key in ("a", "n") if i % 2 == 0 else ("n", "a"):
                seconds, status = timed(commands[key], client)
                subprocess.run([NOTIFYSTACK, "ctl", folder, "close-all"], env=run_env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
                if i == 0 or status != 0:  # the first round warms the page cache
                    continue
                (result.announce if key == "a" else result.notify_send).append(seconds)
        for _ in range(3):
            _, rss, status = run_rusage(commands["a"], client)
            subprocess.run([NOTIFYSTACK, "ctl", folder, "close-all"], env=run_env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
            if status == 0:
                result.peak_rss = max(result.peak_rss, rss)
        say(f"  announce median {result.announce_median * 1000:.1f} ms, notify-send median "
            f"{result.notify_send_median * 1000:.1f} ms, announce's peak RSS {result.peak_rss / 1048576:.1f} MiB")
    finally:
        subprocess.run([NOTIFYSTACK, "stop", folder], env=run_env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    return result
