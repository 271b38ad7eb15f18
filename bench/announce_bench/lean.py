"""Issue #12: the lean binary, side by side with spd-say in the same run: the stripped
size of the binary `make install` builds, `--version` wall time, the peak RSS of
`announce "Saved"`, and whether the binary carries or links ICU."""

import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass

from .stats import MIB, median, note, now, say
from .workspace import BenchError, client_env


@dataclass
class Lean:
    size: int  # bytes, as built
    stripped: int  # bytes, after strip --strip-unneeded
    spdsay_size: int  # bytes of spd-say as Debian ships it (stripped)
    icudt_symbol: bool  # ICU's data table inside the binary
    needs_icu: bool  # a NEEDED entry of the binary names libicu
    loads_icu: bool  # libicu is loaded at all, through some library the binary needs
    version: float  # median wall seconds of `--version`
    spdsay_version: float
    rss: int  # bytes, peak RSS of `announce "Saved"` (max of runs)
    spdsay_rss: int  # bytes, peak RSS of `spd-say -w "Saved"`
    version_rss: int  # bytes, peak RSS of `announce --version`
    floor_version: float = 0.0  # median wall seconds of ParserFloor's `--version` (0: not measured)
    floor_rss: int = 0  # bytes, peak RSS of ParserFloor's `--version`


def run_rusage(args, env, timeout=30):
    """(wall seconds, peak RSS in bytes, exit status) of one run.

    The peak comes from GNU time (`/usr/bin/time -f %M`), which forks from its own small
    process: a child forked from this Python process keeps Python's 30-odd MiB as its
    peak (Linux carries the peak across exec), so wait4's ru_maxrss here would be wrong.
    """
    with tempfile.NamedTemporaryFile(mode="r") as out:
        start = now()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name, *args], env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, check=False)
        elapsed = now() - start
        text = out.read().strip().splitlines()
    kib = int(text[-1]) if text and text[-1].isdigit() else 0
    return elapsed, kib * 1024, p.returncode


def run_wall(args, env):
    start = now()
    subprocess.run(args, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return now() - start


def stripped_size(binary):
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "announce")
        shutil.copy(binary, copy)
        subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", "--remove-section=.note", copy],
                       check=True)
        return os.path.getsize(copy)


def icu_links(binary):
    """(an icudt symbol inside, a NEEDED entry names libicu, libicu loaded through some library)."""
    symbols = subprocess.run(["nm", binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    dynamic = subprocess.run(["readelf", "-d", binary], stdout=subprocess.PIPE, text=True).stdout
    loaded = subprocess.run(["ldd", binary], stdout=subprocess.PIPE, text=True).stdout
    needed = "".join(line for line in dynamic.splitlines() if "NEEDED" in line)
    return "icudt" in symbols, "libicu" in needed, "libicu" in loaded


def measure_lean(ctx):
    runs = 7 if ctx.quick else 31
    if not os.access("/usr/bin/time", os.X_OK):
        raise BenchError("/usr/bin/time is not installed (Debian package time); run scripts/setup first.")
    say(f"\n[9] lean binary: size, --version ({runs} alternating runs), peak RSS of \"Saved\"")
    env = client_env(ctx.ws, ctx.address)
    spd_say = shutil.which("spd-say")
    icudt, needs, loads = icu_links(ctx.announce)
    floor = ctx.floor if ctx.floor and os.access(ctx.floor, os.X_OK) else None
    a_version, s_version, f_version = [], [], []
    for _ in range(runs):
        a_version.append(run_wall([ctx.announce, "--version"], env))
        s_version.append(run_wall([spd_say, "--version"], env))
        if floor:
            f_version.append(run_wall([floor, "--version"], env))
    a_rss, s_rss = [], []
    for _ in range(3 if ctx.quick else 5):
        a_rss.append(run_rusage([ctx.announce, "Saved"], env)[1])
        s_rss.append(run_rusage([spd_say, "-w", "Saved"], env)[1])
    r = Lean(size=os.path.getsize(ctx.announce), stripped=stripped_size(ctx.announce),
             spdsay_size=os.path.getsize(spd_say), icudt_symbol=icudt, needs_icu=needs, loads_icu=loads,
             version=median(a_version), spdsay_version=median(s_version), rss=max(a_rss), spdsay_rss=max(s_rss),
             version_rss=max(run_rusage([ctx.announce, "--version"], env)[1] for _ in range(3)))
    if floor:
        r.floor_version = median(f_version)
        r.floor_rss = max(run_rusage([floor, "--version"], env)[1] for _ in range(3))
    note(f"stripped {r.stripped / 1e6:.1f} MB (spd-say {r.spdsay_size / 1e6:.2f} MB); --version "
         f"{r.version * 1000:.1f} ms vs spd-say {r.spdsay_version * 1000:.1f} ms; peak RSS \"Saved\" "
         f"{r.rss / MIB:.1f} MiB vs spd-say {r.spdsay_rss / MIB:.1f} MiB; icudt symbol {r.icudt_symbol}, "
         f"NEEDED libicu {r.needs_icu}, libicu loaded through a library {r.loads_icu}")
    if floor:
        note(f"floor (a do-nothing swift-argument-parser command, built the same way): --version "
             f"{r.floor_version * 1000:.1f} ms, peak RSS {r.floor_rss / MIB:.1f} MiB")
    return r


def lean_rows(r, goal):
    if not r:
        return []
    through = " (Debian's libxml2 loads libicuuc; its data is a shared file, not in the binary)" \
        if r.loads_icu and not r.needs_icu else ""
    return [
        ("9. Binary size, stripped (`make install` build)", f"{r.stripped / 1e6:.1f} MB", f"{r.spdsay_size / 1e6:.2f} MB",
         f"unstripped {r.size / 1e6:.1f} MB; icudt symbol {'yes' if r.icudt_symbol else 'no'}; "
         f"links libicu itself {'yes' if r.needs_icu else 'no'}{through}",
         "≤ 16 MB, no ICU", goal(r.stripped <= 16e6 and not r.icudt_symbol and not r.needs_icu)),
        ("9. `--version` wall time", f"{r.version * 1000:.1f} ms", f"{r.spdsay_version * 1000:.1f} ms",
         "medians, alternating runs", "≤ 5 ms", goal(r.version <= 0.005)),
        ("9. Peak RSS, `\"Saved\"` (spd-say -w)", f"{r.rss / MIB:.1f} MiB", f"{r.spdsay_rss / MIB:.1f} MiB",
         f"max of runs; `--version` {r.version_rss / MIB:.1f} MiB", "≤ 10 MiB", goal(r.rss <= 10 * MIB)),
    ] + ([
        ("9. Floor: a do-nothing swift-argument-parser command, built the same way (`Benchmarks/ParserFloor`)",
         f"{r.floor_version * 1000:.1f} ms, {r.floor_rss / MIB:.1f} MiB", "n/a",
         "`--version`: median wall time, peak RSS; no announce code runs", "", ""),
    ] if r.floor_version else [])
