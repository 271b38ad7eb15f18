"""The fault soak (issue #47, item 5): announcements through floods, a speech-dispatcher
killed and restarted, a brltty killed and restarted, SIGTSTP and SIGCONT, and replays, all
interleaved at random, on a speech stack and a brltty of its own.

It checks what a user is promised whatever happens around announce:
- every line fed to announce ends in exactly one outcome per channel: one `spoken` or
  `gave-up` event for speech and, with braille, one `shown` or `not-shown` event;
- nothing hangs: every step has a bound, and a run or replay still going at its bound is
  killed and counted as a hang;
- the history keeps its promise: every line that was not heard is still in
  `announce history --missed`, or was spoken by a replay since, and no line is spoken twice.
"""

import collections
import json
import os
import random
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

from .braille import VirtualDisplay
from .stats import note, now, say
from .workspace import TESTSTACK, client_env

FAULTS = ("flood", "daemon", "brltty", "stop", "replay", "plain")
SPEECH_OUTCOMES = ("spoken", "gave-up")
BRAILLE_OUTCOMES = ("shown", "not-shown")
LINES_PER_RUN = 6
FLOOD_LINES = 24  # written at once into a queue of 8, so that flood control drops some
STEP_BOUND = 90.0  # seconds any one run or replay may take before it counts as hung


@dataclass
class FaultSoak:
    lines: int
    seed: int
    wall: float
    braille: bool
    steps: dict
    speech: dict
    shown: dict
    missing: list
    doubled: list
    hangs: list
    bad_exits: list
    spoken_twice: list
    missed_lost: list
    replays: int
    ok: bool


@dataclass
class LineFate:
    """The outcomes one line came to, by channel."""

    braille_on: bool = False  # whether the run it was fed to showed braille
    speech: list = field(default_factory=list)
    braille: list = field(default_factory=list)


class Run:
    """One `announce --json` process, fed lines and read as it goes."""

    def __init__(self, ctx, env, braille, extra=()):
        args = [ctx.announce, "--json", "--rate", "100", "--timeout", "4", "--braille-flash", "1"]
        args += (["--braille"] if braille else []) + list(extra)
        self.braille = braille
        self.p = ctx.ws.spawn(args, env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        self.fates = {}
        self.texts = {}
        self.errors = []
        self.finished = 0
        self.cond = threading.Condition()
        self.readers = [threading.Thread(target=self._events, daemon=True),
                        threading.Thread(target=self._errors, daemon=True)]
        for t in self.readers:
            t.start()

    def _events(self):
        for raw in self.p.stdout:
            try:
                ev = json.loads(raw)
            except ValueError:
                continue
            with self.cond:
                self._take(ev)
                self.cond.notify_all()

    def _take(self, ev):
        kind, ident = ev.get("event"), ev.get("id")
        if not isinstance(ident, int) or ident < 0:
            return  # flood control's own summary ("12 messages skipped")
        if kind == "queued":
            self.texts[ident] = ev.get("text")
        text = self.texts.get(ident, ev.get("text"))
        if text not in self.fates:
            return
        if kind in SPEECH_OUTCOMES:
            self.fates[text].speech.append(kind if kind == "spoken" else "gave-up:" + str(ev.get("reason")))
            self.finished += 1
        elif kind in BRAILLE_OUTCOMES:
            self.fates[text].braille.append(kind if kind == "shown" else "not-shown:" + str(ev.get("reason")))

    def _errors(self):
        for raw in self.p.stderr:
            self.errors.append(raw.decode(errors="replace").rstrip())

    def write(self, texts):
        with self.cond:
            for text in texts:
                self.fates[text] = LineFate(braille_on=self.braille)
        try:
            self.p.stdin.write("".join(t + "\n" for t in texts).encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def wait_for_outcomes(self, count, timeout):
        """Waits until `count` lines have a speech outcome, or `timeout` passes."""
        deadline = now() + timeout
        with self.cond:
            while self.finished < count and self.p.poll() is None and now() < deadline:
                self.cond.wait(0.2)

    def end(self, bound):
        """Closes standard input and waits for the exit within `bound`; the exit status, or None when
        it had to be killed."""
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=bound)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None
        finally:
            for t in self.readers:
                t.join(timeout=5)
        return self.p.returncode


class FaultStack:
    """The soak's own speech stack and brltty, which its faults kill and start again."""

    def __init__(self, ctx, release):
        self.ws = ctx.ws
        self.release = release
        self.speech_dir = ctx.ws.path("fault-speech")
        self.braille_dir = ctx.ws.path("fault-braille")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TESTSTACK_")}
        self.env["TESTSTACK_RELEASE"] = release
        stack = ctx.ws.start_stack("fault-speech", release)
        self.address = stack["SPEECHD_ADDRESS"]
        self.display = None
        self.brlapi_host = None

    def kill_daemon(self):
        """SIGKILL to speech-dispatcher, as the OOM killer or a crash ends it."""
        pid = self._stack_env(self.speech_dir).get("TESTSTACK_SD_PID")
        if pid:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass

    def restart_daemon(self):
        self.ws.stop_stack(self.speech_dir)
        self.ws.start_stack("fault-speech", self.release)

    def start_brltty(self):
        """Starts brltty alone in its own folder and attaches the Virtual display; False when braille
        cannot run here."""
        r = subprocess.run([TESTSTACK, "braille-start", self.braille_dir], env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        if r.returncode != 0:
            say(f"fault soak: teststack braille-start failed: {r.stderr.strip()}")
            return False
        stack = self._stack_env(self.braille_dir)
        self.brlapi_host = stack.get("BRLAPI_HOST")
        self.display = VirtualDisplay(stack.get("TESTSTACK_VR_SOCKET", os.path.join(self.braille_dir, "vr.sock")))
        return self.brlapi_host is not None

    def stop_brltty(self):
        if self.display is not None:
            self.display.close()
            self.display = None
        subprocess.run([TESTSTACK, "braille-stop", self.braille_dir], env=self.env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)

    def close(self):
        self.stop_brltty()
        self.ws.stop_stack(self.speech_dir)

    @staticmethod
    def _stack_env(d):
        try:
            with open(os.path.join(d, "env")) as f:
                return dict(line.rstrip("\n").partition("=")[::2] for line in f if "=" in line)
        except OSError:
            return {}


def history(ctx, env, missed):
    """The log's records, newest first: all of them, or the missed ones only."""
    args = [ctx.announce, "history", "--json", "-n", "1000000"] + (["--missed"] if missed else [])
    r = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=60)
    records = []
    for raw in r.stdout.splitlines():
        try:
            records.append(json.loads(raw))
        except ValueError:
            pass
    return records


def fault_soak(ctx, lines, release):
    """Issue #47, item 5: `lines` lines through faults chosen at random, in runs of a few lines."""
    seed = ctx.seed
    rng = random.Random(seed)
    say(f"\n[fault soak] {lines} lines through floods, a killed speech-dispatcher and brltty, SIGTSTP and "
        f"replays (seed {seed}, Debian {release})")
    stack = FaultStack(ctx, release)
    braille = stack.start_brltty()
    if not braille:
        note("braille is not available here, so the soak runs without it")

    def env():
        e = client_env(ctx.ws, stack.address)
        # The soak's history is its own, apart from the other figures' runs.
        e["XDG_STATE_HOME"] = ctx.ws.path("fault-state")
        if braille:
            e.update(BRLAPI_HOST=stack.brlapi_host, BRLAPI_AUTH="none", WINDOWPATH="7")
            for k in ("XDG_VTNR", "DISPLAY", "WAYLAND_DISPLAY"):
                e.pop(k, None)
        return e

    fates = {}
    steps = collections.Counter()
    hangs, bad_exits = [], []
    replays = 0
    sent = 0
    start = now()
    try:
        while sent < lines:
            fault = rng.choice(FAULTS)
            steps[fault] += 1
            label = f"step {sum(steps.values())} ({fault})"
            if fault == "replay":
                replays += 1
                r = subprocess.Popen([ctx.announce, "replay", "-q"], env=env(), stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                ctx.ws.procs.append(r)
                try:
                    rc = r.wait(timeout=STEP_BOUND)
                except subprocess.TimeoutExpired:
                    r.kill()
                    r.wait()
                    hangs.append(label)
                    continue
                if rc not in (0, 1):
                    bad_exits.append(f"{label}: replay exit {rc}")
                continue
            count = min(FLOOD_LINES if fault == "flood" else LINES_PER_RUN, lines - sent)
            texts = [f"Fault soak line {sent + n + 1}" for n in range(count)]
            sent += count
            run = Run(ctx, env(), braille, ["--max-queue", "8"] if fault == "flood" else ())
            if fault == "flood":
                run.write(texts)
            else:
                half = count // 2
                run.write(texts[:half])
                run.wait_for_outcomes(1, 10)
                if fault == "daemon":
                    stack.kill_daemon()
                    time.sleep(rng.uniform(0.2, 1.5))
                    run.write(texts[half:half + 1])
                    stack.restart_daemon()
                    rest = texts[half + 1:]
                elif fault == "brltty" and braille:
                    stack.stop_brltty()
                    run.write(texts[half:half + 1])
                    time.sleep(rng.uniform(0.2, 1.5))
                    braille = stack.start_brltty()
                    rest = texts[half + 1:]
                elif fault == "stop":
                    run.p.send_signal(signal.SIGTSTP)
                    time.sleep(rng.uniform(0.2, 2.0))
                    run.p.send_signal(signal.SIGCONT)
                    rest = texts[half:]
                else:
                    rest = texts[half:]
                run.write(rest)
            rc = run.end(STEP_BOUND)
            if rc is None:
                hangs.append(label)
            elif rc not in (0, 1, 69):
                bad_exits.append(f"{label}: exit {rc}: {run.errors[-1:] or ''}")
            fates.update(run.fates)
        wall = now() - start
        # Once more with everything up, so that the history's invariants are checked after a replay.
        replays += 1
        subprocess.run([ctx.announce, "replay", "-q", "-n", "1000000"], env=env(), stdin=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=STEP_BOUND * 4)
        records = history(ctx, env(), missed=False)
        still_missed = {r.get("text") for r in history(ctx, env(), missed=True)}
    finally:
        stack.close()

    missing = [t for t, f in fates.items() if not f.speech or (f.braille_on and not f.braille)]
    doubled = [t for t, f in fates.items() if len(f.speech) > 1 or len(f.braille) > 1]
    spoken_records = collections.Counter(r.get("text") for r in records if r.get("event") == "spoken")
    spoken_twice = [t for t in fates if spoken_records[t] > 1]
    # A line not heard when it was sent is either spoken by a replay since, or still missed.
    not_heard = [t for t, f in fates.items() if f.speech and f.speech[0] != "spoken"]
    missed_lost = [t for t in not_heard if spoken_records[t] == 0 and t not in still_missed]
    speech = collections.Counter(f.speech[0].split(":")[0] if f.speech else "none" for f in fates.values())
    shown = collections.Counter(f.braille[0].split(":")[0] if f.braille else "none" for f in fates.values())
    ok = not (missing or doubled or hangs or bad_exits or spoken_twice or missed_lost)
    r = FaultSoak(lines=len(fates), seed=seed, wall=wall, braille=braille, steps=dict(steps), speech=dict(speech),
                  shown=dict(shown), missing=missing[:5], doubled=doubled[:5], hangs=hangs, bad_exits=bad_exits[:5],
                  spoken_twice=spoken_twice[:5], missed_lost=missed_lost[:5], replays=replays, ok=ok)
    note(f"{r.lines} lines in {wall:.0f} s; steps {dict(steps)}")
    note(f"speech outcomes {r.speech}; braille outcomes {r.shown}")
    note(f"missing an outcome {len(missing)}, more than one {len(doubled)}, hangs {len(hangs)}, "
         f"unexpected exits {len(bad_exits)}, spoken twice {len(spoken_twice)}, missed and lost {len(missed_lost)}")
    for name, items in (("missing", r.missing), ("doubled", r.doubled), ("hung", r.hangs),
                        ("exit", r.bad_exits), ("spoken twice", r.spoken_twice), ("lost", r.missed_lost)):
        for item in items:
            note(f"{name}: {item}")
    note("fault soak", "PASSED" if ok else "FAILED")
    return r

