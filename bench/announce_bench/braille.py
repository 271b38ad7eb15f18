"""Braille figures (issue #33): exec → the text on brltty's Virtual display, and a
routing key → the screen reader's line back, on the release's brltty (teststack
braille-start beside the speech stack)."""

import os
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Optional

from .stats import median, say
from .workspace import TESTSTACK

READER_LINE = "screen reader line"

# The stand-in screen reader, as Orca holds the display: priority 50 on the session's tty
# (WINDOWPATH), its line written once, held until standard input closes. It runs under
# Debian's python3, which has python3-brlapi, whatever python3 runs the bench.
READER = """
import brlapi, sys
c = brlapi.Connection()
c.enterTtyModeWithPath()
c.writeText(sys.argv[1])
print("ready", flush=True)
sys.stdin.read()
c.leaveTtyMode()
c.closeConnection()
"""
SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass
class Braille:
    shown: list  # seconds, exec → text on the display
    back: list  # seconds, routing key → the screen reader's line back
    note: str = ""

    @property
    def shown_median(self):
        return median(self.shown) if self.shown else float("nan")

    @property
    def back_median(self):
        return median(self.back) if self.back else float("nan")


class VirtualDisplay:
    """The display end of brltty's Virtual driver: the texts shown, with their times."""

    def __init__(self, path, cells=40):
        deadline = time.monotonic() + 5
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)
        self.sock.sendall(f"cells {cells}\n".encode())
        self.frames = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.wait_for(lambda t: True, 5)

    def _read(self):
        for line in self.sock.makefile("rb"):
            if line.startswith(b'Visual "'):
                text = line.decode(errors="replace").rstrip()[8:-1].replace('\\"', '"').rstrip()
                with self.cond:
                    self.frames.append((time.monotonic(), text))
                    self.cond.notify_all()

    def wait_for(self, accept, timeout, since=0.0):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, text in self.frames:
                    if t >= since and accept(text):
                        return t
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(left)

    def press(self, key):
        self.sock.sendall(f"{key}\n".encode())

    def close(self):
        self.sock.close()


def measure_braille(ctx, stack_dir, env, reps):
    """The braille figures on the brltty of `env`'s release; None when braille cannot be measured here."""
    if subprocess.run([SYSTEM_PYTHON, "-c", "import brlapi"], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL).returncode != 0:
        say("braille: python3-brlapi is not installed, so the braille figures are not measured")
        return None
    say(f"\n[8] braille: exec -> text on the Virtual display, routing key -> screen reader's line back, "
        f"{reps} reps (Debian {ctx.release})")
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("TESTSTACK_")}
    run_env["TESTSTACK_RELEASE"] = env.get("TESTSTACK_RELEASE", ctx.release)
    r = subprocess.run([TESTSTACK, "braille-start", stack_dir], env=run_env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    if r.returncode != 0:
        say(f"braille: teststack braille-start failed: {r.stderr.strip()}")
        return None
    display = reader = None
    try:
        with open(os.path.join(stack_dir, "env")) as f:
            stack = dict(line.rstrip("\n").partition("=")[::2] for line in f if "=" in line)
        host = stack["BRLAPI_HOST"]
        display = VirtualDisplay(stack.get("TESTSTACK_VR_SOCKET", os.path.join(stack_dir, "vr.sock")))
        client = dict(os.environ, **{k: stack[k] for k in ("SPEECHD_ADDRESS",) if k in stack})
        client.update(BRLAPI_HOST=host, BRLAPI_AUTH="none", WINDOWPATH="7")
        for k in ("XDG_VTNR", "DISPLAY", "WAYLAND_DISPLAY"):
            client.pop(k, None)
        client["XDG_STATE_HOME"] = os.path.join(stack_dir, "braille-state")
        reader = subprocess.Popen([SYSTEM_PYTHON, "-c", READER, READER_LINE], env=client,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        reader.stdout.readline()
        if display.wait_for(lambda t: t == READER_LINE, 5) is None:
            return Braille([], [], "the stand-in screen reader's line never appeared")
        shown, back = [], []
        for i in range(reps):
            text = f"Build {i} failed"
            started = time.monotonic()
            p = subprocess.Popen([ctx.announce, "--braille-only", "--braille-flash", "30", text], env=client,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            t = display.wait_for(lambda s, text=text: s == text, 10, since=started)
            if t is not None:
                shown.append(t - started)
                pressed = time.monotonic()
                display.press("route 3")
                b = display.wait_for(lambda s: s == READER_LINE, 5, since=pressed)
                if b is not None:
                    back.append(b - pressed)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            time.sleep(0.3)  # the Virtual driver loses keys pressed in quick succession
        return Braille(shown, back)
    finally:
        if reader is not None:
            reader.stdin.close()
            try:
                reader.wait(timeout=5)
            except subprocess.TimeoutExpired:
                reader.kill()
                reader.wait()
        if display is not None:
            display.close()
        subprocess.run([TESTSTACK, "braille-stop", stack_dir], env=run_env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
