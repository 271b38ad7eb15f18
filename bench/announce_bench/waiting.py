"""Issue #16: what it costs when many announce processes wait for their speaking turn."""

import os
import signal
import subprocess
import time
from dataclasses import dataclass

from .stats import note, now, say
from .workspace import client_env


@dataclass
class WaitingRun:
    """N processes started at once on one daemon, each with its own short text."""

    waiting: int
    cpu: float  # user + system seconds of all N processes, start to exit
    wall: float  # from the first start to the last exit (or the cap)
    finished: int  # exited by themselves before the cap
    spoken: int  # of those, exit status 0
    cap: float

    @property
    def cpu_each_ms(self):
        return self.cpu / self.waiting * 1000 if self.waiting else float("nan")


def measure_waiting(ctx):
    """Starts N processes at once and sums their CPU time (from wait4's rusage).

    Every process but one spends most of its life waiting for its turn, so the sum
    is the cost of waiting; speaking one text is a small constant per process.
    """
    say(f"\n[7] waiting for turns: {', '.join(map(str, ctx.waiting_counts))} processes started at once")
    runs = []
    for n in ctx.waiting_counts:
        runs.append(run_waiting(ctx, n))
        r = runs[-1]
        note(f"{n:4} processes: {r.cpu:.2f} CPU s ({r.cpu_each_ms:.0f} ms each), wall {r.wall:.1f} s, "
             f"{r.finished} finished ({r.spoken} spoken) within the cap of {r.cap:.0f} s")
    return runs


def run_waiting(ctx, n):
    env = client_env(ctx.ws, ctx.address)
    # About 0.4 s of speech per process at --rate 100, plus a generous margin.
    cap = 30 + n * 1.5
    procs = []
    start = now()
    for i in range(n):
        procs.append(subprocess.Popen([ctx.announce, "--rate", "100", f"Turn {i + 1}"], env=env,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
    cpu = 0.0
    finished = spoken = 0
    left = {p.pid for p in procs}

    def reap(pid, flags):
        nonlocal cpu
        got, status, usage = os.wait4(pid, flags)
        if got == 0:
            return None
        left.discard(pid)
        cpu += usage.ru_utime + usage.ru_stime
        return status

    while left and now() - start < cap:
        for pid in list(left):
            status = reap(pid, os.WNOHANG)
            if status is not None:
                finished += 1
                spoken += os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
        time.sleep(0.05)
    wall = now() - start
    for pid in list(left):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        reap(pid, 0)
    for p in procs:
        p.returncode = p.returncode if p.returncode is not None else -9  # reaped above
    return WaitingRun(waiting=n, cpu=cpu, wall=wall, finished=finished, spoken=spoken, cap=cap)
