"""The soak test (issue #5): many lines while another client interrupts at random."""

import collections
import json
import random
import subprocess
import threading
from dataclasses import dataclass, field

from .stats import MIB, median, note, now, say
from .workspace import client_env, read_status


@dataclass
class LineFate:
    """What happened to one line: how often it was queued, and its final events."""

    queued: int = 0
    final: list = field(default_factory=list)  # "spoken" or "gave-up:<reason>"


@dataclass
class Soak:
    lines: int
    seed: int
    wall: float
    hung: bool
    exit: int
    expected_exit: int
    spoken: int
    gave_up: int
    reasons: dict
    missing: int
    doubled: int
    unqueued: int
    bad: list
    interruptions: int
    interrupted_events: int
    samples: int
    rss_first_max: int
    rss_last_max: int
    rss_min: int
    rss_median: float
    flat: bool
    ok: bool


class EventTally:
    """Reads announce's --json events and keeps what each line came to."""

    def __init__(self, texts):
        self.by_text = {t: LineFate() for t in texts}
        self.id_text = {}
        self.finished = 0
        self.bad = []
        self.reasons = collections.Counter()
        self.interrupted = 0
        self.cond = threading.Condition()

    def read(self, stream):
        for raw in stream:
            try:
                ev = json.loads(raw)
            except ValueError:
                with self.cond:
                    self.bad.append(f"not JSON: {raw[:80]!r}")
                continue
            with self.cond:
                self.take(ev)
        with self.cond:
            self.cond.notify_all()

    def take(self, ev):
        kind = ev.get("event")
        if kind == "queued":
            self.id_text[ev.get("id")] = ev.get("text")
            if ev.get("text") in self.by_text:
                self.by_text[ev["text"]].queued += 1
            else:
                self.bad.append(f"queued unknown text {ev.get('text')!r}")
        elif kind in ("spoken", "gave-up"):
            text = self.id_text.get(ev.get("id"), ev.get("text"))
            if text in self.by_text:
                self.by_text[text].final.append(kind if kind == "spoken" else "gave-up:" + str(ev.get("reason")))
            else:
                self.bad.append(f"outcome for unknown text {text!r}")
            if kind == "gave-up":
                self.reasons[ev.get("reason")] += 1
            self.finished += 1
            self.cond.notify_all()
        elif kind == "interrupted":
            self.interrupted += 1


def soak(ctx, lines):
    """Issue #5: `lines` lines piped in while another client interrupts at random."""
    seed = ctx.seed
    rng = random.Random(seed)
    say(f"\n[soak] {lines} lines at --rate 100 with random interruptions (seed {seed})")
    env = client_env(ctx.ws, ctx.address)
    cap = lines * 3.0 + 60
    args = [ctx.announce, "--json", "--rate", "100"]
    p = ctx.ws.spawn(args, env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    texts = [f"Soak line {n}" for n in range(1, lines + 1)]
    tally = EventTally(texts)
    samples = []
    stop = threading.Event()

    def sampler():
        while not stop.is_set():
            st = read_status(p.pid)
            if not st:
                return
            samples.append(st.get("VmRSS", 0))
            stop.wait(1.0)

    interruptions = [0]

    def interrupter():
        n = 0
        while not stop.wait(rng.uniform(0.5, 4.0)):
            n += 1
            priority = rng.choice(["text", "message"])
            try:
                subprocess.run(["spd-say", "-P", priority, f"Interruption {n}"], env=env, timeout=5,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                interruptions[0] += 1
            except subprocess.TimeoutExpired:
                pass

    start = now()
    threads = [threading.Thread(target=f, daemon=True)
               for f in (lambda: tally.read(p.stdout), sampler, interrupter)]
    for t in threads:
        t.start()
    window = 8  # lines written but without an outcome: keeps any queue bound out of play
    hung = False
    try:
        for i, text in enumerate(texts):
            with tally.cond:
                while i - tally.finished >= window and p.poll() is None:
                    if now() - start > cap:
                        raise TimeoutError
                    tally.cond.wait(0.5)
            if p.poll() is not None:
                break
            p.stdin.write((text + "\n").encode())
            p.stdin.flush()
        p.stdin.close()
        p.wait(timeout=max(1, cap - (now() - start)))
    except (TimeoutError, subprocess.TimeoutExpired):
        hung = True
        p.kill()
        p.wait()
    except (BrokenPipeError, OSError):
        p.wait(timeout=30)
    wall = now() - start
    stop.set()
    threads[0].join(timeout=5)
    fates = tally.by_text.values()
    missing = sum(1 for v in fates if not v.final)
    doubled = sum(1 for v in fates if len(v.final) > 1)
    unqueued = sum(1 for v in fates if v.queued != 1)
    outcomes = collections.Counter(v.final[0].split(":")[0] for v in fates if v.final)
    half = len(samples) // 2
    first, last = samples[:half], samples[half:]
    margin = max(2 * MIB, 0.05 * (max(first) if first else 0))
    flat = bool(first and last) and max(last) <= max(first) + margin
    expected_exit = 0 if outcomes.get("gave-up", 0) == 0 else 1
    ok = not hung and not missing and not doubled and not unqueued and not tally.bad \
        and p.returncode == expected_exit
    r = Soak(lines=lines, seed=seed, wall=wall, hung=hung, exit=p.returncode, expected_exit=expected_exit,
             spoken=outcomes.get("spoken", 0), gave_up=outcomes.get("gave-up", 0),
             reasons=dict(tally.reasons), missing=missing, doubled=doubled, unqueued=unqueued,
             bad=tally.bad[:5], interruptions=interruptions[0], interrupted_events=tally.interrupted,
             samples=len(samples), rss_first_max=max(first) if first else 0,
             rss_last_max=max(last) if last else 0, rss_min=min(samples) if samples else 0,
             rss_median=median(samples) if samples else 0, flat=flat, ok=ok)
    note(f"wall {wall:.1f} s; spoken {r.spoken}, gave up {r.gave_up} {r.reasons or ''}; "
         f"missing {r.missing}, doubled {r.doubled}; hung: {'YES' if hung else 'no'}; "
         f"exit {p.returncode} (expected {expected_exit})")
    note(f"{r.interruptions} interruptions sent, {r.interrupted_events} interrupted events")
    if samples:
        note(f"VmRSS over {len(samples)} samples: min {r.rss_min / MIB:.1f}, median "
             f"{r.rss_median / MIB:.1f}, max first half {r.rss_first_max / MIB:.1f}, "
             f"max second half {r.rss_last_max / MIB:.1f} MiB -> {'flat' if flat else 'GROWING'}")
    for b in r.bad:
        note("bad:", b)
    note("soak", "PASSED" if ok else "FAILED")
    return r
