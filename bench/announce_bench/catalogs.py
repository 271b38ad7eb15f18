"""Issue #38: what the catalogs of announce's own sentences cost at start-up: the CPU
time (user + system) of `announce replay` with nothing to replay (it prints one
translated sentence, and connects to nothing) under LANG=C, and under de_DE.UTF-8 with
and without the German catalog beside the binary, in alternating runs. CPU time, not wall
time: on a shared 2-core machine the wall time of one start varies by more than the
0.5 ms goal (the debug build's medians moved by 0.6 ms between two cases that differ in
nothing), while the CPU time of the same runs stays within about 0.1 ms."""

import os
import shutil
import subprocess
from dataclasses import dataclass

from .stats import median, note, say
from .workspace import ROOT, BenchError


def run_cpu(args, env):
    """The CPU seconds, user and system, of one run of `args`, its output thrown away."""
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve(args[0], args, env)
    _, _, usage = os.wait4(pid, 0)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Catalogs:
    c_locale: float  # median CPU seconds under LANG=C
    with_catalog: float  # under LANG=de_DE.UTF-8, the German catalog installed
    without_catalog: float  # the same with no catalogs beside the binary


def measure_catalogs(ctx):
    runs = 7 if ctx.quick else 101
    say(f"\n[12] catalogs: `announce replay` with nothing to replay ({runs} alternating runs)")
    locales = ctx.ws.path("locales")
    os.makedirs(locales, exist_ok=True)
    # A private LOCPATH: the machine's own locales are never changed.
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", os.path.join(locales, "de_DE.UTF-8")],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    if not os.path.isdir(os.path.join(locales, "de_DE.UTF-8")):
        raise BenchError("localedef could not make de_DE.UTF-8; install Debian's locales (scripts/setup --test).")
    catalogs = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(ctx.announce)), "../share/locale"))
    subprocess.run([os.path.join(ROOT, "scripts/build-catalogs"), catalogs], check=True)
    state = ctx.ws.path("catalog-state")
    base = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    base.update(XDG_STATE_HOME=state, LOCPATH=locales)
    c_env, de_env = dict(base, LANG="C"), dict(base, LANG="de_DE.UTF-8")
    args = [ctx.announce, "replay"]
    c, with_, without = [], [], []
    hidden = catalogs + ".hidden"
    try:
        for _ in range(runs):
            c.append(run_cpu(args, c_env))
            with_.append(run_cpu(args, de_env))
            os.rename(catalogs, hidden)
            without.append(run_cpu(args, de_env))
            os.rename(hidden, catalogs)
    finally:
        if os.path.isdir(hidden):
            os.rename(hidden, catalogs)
        shutil.rmtree(state, ignore_errors=True)
    r = Catalogs(c_locale=median(c), with_catalog=median(with_), without_catalog=median(without))
    note(f"LANG=C {r.c_locale * 1000:.2f} ms; de_DE.UTF-8 with the catalog {r.with_catalog * 1000:.2f} ms, "
         f"without {r.without_catalog * 1000:.2f} ms")
    return r


def catalog_rows(r, goal):
    if not r:
        return []
    cost = r.with_catalog - r.without_catalog
    return [
        ("12. Start-up CPU time with the German catalog (`announce replay`, nothing to replay)",
         f"{cost * 1000:+.2f} ms", "n/a",
         f"median CPU time: de_DE.UTF-8 {r.with_catalog * 1000:.2f} ms with the catalog, "
         f"{r.without_catalog * 1000:.2f} ms without; LANG=C {r.c_locale * 1000:.2f} ms",
         "≤ 0.5 ms", goal(cost <= 0.0005)),
    ]
