"""The results table (printed, and written between markers in BENCHMARKS.md)."""

import datetime
import os
import platform
import subprocess
from dataclasses import dataclass
from typing import Optional

from .lean import Lean, lean_rows
from .scenarios import ColdStart, Core, Detach, Failure, Flood, Overhead, Retry
from .soak import Soak
from .stats import MIB, ms, say, sec
from .workspace import ROOT


@dataclass
class Results:
    """Whatever this run measured; a scenario not run stays None."""

    overhead: Optional[Overhead] = None
    cold: Optional[ColdStart] = None
    retry: Optional[Retry] = None
    failure: Optional[Failure] = None
    detach: Optional[Detach] = None
    core: Optional[Core] = None
    flood: Optional[Flood] = None
    waiting: Optional[list] = None  # of waiting.WaitingRun
    soak: Optional[Soak] = None
    lean: Optional[Lean] = None


@dataclass
class Machine:
    date: str
    host: str
    cpu: str
    load: str
    swift: str
    speechd: str
    espeak: str
    commit: str


def machine():
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 1024 / 1024:.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass

    def version(args):
        try:
            out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=20).stdout.strip().splitlines()
            return out[0] if out else "?"
        except (OSError, subprocess.TimeoutExpired):
            return "?"

    def git(*args):
        try:
            return subprocess.run(["git", *args], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, timeout=10).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            return "?"

    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    try:
        load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return Machine(
        date=datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        host=f"{platform.system()} {platform.release()} {platform.machine()}",
        cpu=f"{cpu}, {os.cpu_count()} cores, {mem} RAM",
        load=load,
        swift=version(["swift", "--version"]),
        speechd=version(["speech-dispatcher", "--version"]),
        espeak=version(["espeak-ng", "--version"]),
        commit=(git("rev-parse", "--short", "HEAD") or "?") + dirty,
    )


def goal(ok):
    return "n/a" if ok is None else ("met" if ok else "MISSED")


def table_rows(res):
    rows = []
    o = res.overhead
    if o:
        rows.append(("1. Overhead, `\"Saved\"` wall time", sec(o.announce_median), sec(o.spdsay_median),
                     f"ratio median {o.ratio_median:.3f} (IQR {o.ratio_p25:.3f}-{o.ratio_p75:.3f},"
                     f" range {o.ratio_min:.3f}-{o.ratio_max:.3f}, {o.pairs} pairs)",
                     "≤ 1.03", goal(o.ratio_median <= 1.03)))
    c = res.cold
    if c:
        rows.append(("2. Cold start, exec → queued in daemon", ms(c.announce.queued), ms(c.spdsay.queued),
                     f"medians of {c.announce.n} / {c.spdsay.n}", "", ""))
        rows.append(("2. Cold start, exec → BEGIN", ms(c.announce.begin), ms(c.spdsay.begin),
                     f"difference {(c.announce.begin - c.spdsay.begin) * 1000:.1f} ms", "≤ spd-say + 3 ms",
                     goal(c.announce.begin - c.spdsay.begin <= 0.003)))
    r = res.retry
    if r:
        rows.append(("3. Retry latency, interrupter END → retry BEGIN", ms(r.median), "no retry",
                     f"range {ms(r.min)}-{ms(r.max)}, n={r.n}", "≤ 150 ms",
                     goal(r.median <= 0.150) if r.n else "n/a"))
    f = res.failure
    if f:
        b = f.broken_spdsay
        s_broken = ("never: killed at the cap of " + sec(f.cap)) if b.killed else f"{sec(b.median)} ({b.codes})"
        rows.append(("4. Verdict, broken audio", f"{sec(f.broken_announce.median)} ({f.broken_announce.codes})",
                     s_broken, "", "", ""))
        rows.append(("4. Verdict, server absent", f"{ms(f.absent_announce.median)} ({f.absent_announce.codes})",
                     f"{ms(f.absent_spdsay.median)} ({f.absent_spdsay.codes})", "", "", ""))
    d = res.detach
    if d is not None:
        if d.available:
            rows.append(("5. Detach latency (`--detach`)", ms(d.median), "n/a",
                         f"max {ms(d.max)}", "≤ 20 ms", goal(d.median <= 0.020)))
        else:
            rows.append(("5. Detach latency", "not available", "n/a", "no `--detach` in this build", "≤ 20 ms", "n/a"))
    k = res.core
    if k:
        rows.append(("6. Core throughput: queue and state machine (instant answers)",
                     f"{k.queue.median:,.0f} /s", "n/a",
                     f"best {k.queue.best:,.0f} /s; {k.queue.us:.1f} µs each",
                     "≥ 100,000 /s", goal(k.queue.median >= 100_000)))
        rows.append(("6. Through the async driver (Announcer, instant backend)", f"{k.stream.median:,.0f} /s", "n/a",
                     f"best {k.stream.best:,.0f} /s; one at a time {k.sequential.us:.1f} µs each", "", ""))
        if k.million_rss is not None:
            rows.append((f"6. Core peak RSS, {k.million_count:,} announcements (instant backend)",
                         f"{k.million_rss / MIB:.1f} MiB", "n/a", "whole benchmark process", "", ""))
    fl = res.flood
    if fl:
        rows.append((f"6. Peak RSS, {fl.lines:,} stdin lines", f"{fl.peak / MIB:.1f} MiB", "n/a",
                     f"{fl.state}: {fl.accepted:,} lines written", "≤ 32 MiB", goal(fl.peak <= 32 * MIB)))
    for w in res.waiting or []:
        rows.append((f"7. {w.waiting} processes waiting for turns, CPU", f"{w.cpu:.2f} s", "n/a",
                     f"{w.cpu_each_ms:.0f} ms each; wall {w.wall:.1f} s; {w.spoken} of {w.waiting} spoken"
                     f" within {w.cap:.0f} s", "", ""))
    sk = res.soak
    if sk:
        rows.append((f"Soak, {sk.lines} lines, random interruptions",
                     f"{'PASSED' if sk.ok else 'FAILED'} in {sec(sk.wall)}", "n/a",
                     f"spoken {sk.spoken}, gave up {sk.gave_up}, missing {sk.missing}, doubled {sk.doubled},"
                     f" hung {'yes' if sk.hung else 'no'}; VmRSS max {sk.rss_first_max / MIB:.1f} → "
                     f"{sk.rss_last_max / MIB:.1f} MiB ({'flat' if sk.flat else 'growing'})",
                     "every line one outcome, no hang, flat RSS",
                     goal(sk.ok and sk.flat)))
    rows += lean_rows(res.lean, goal)
    return rows


def print_table(res):
    rows = table_rows(res)
    head = ("figure", "announce", "spd-say", "detail", "goal", "")
    widths = [max(len(str(r[i])) for r in rows + [head]) for i in range(6)]
    widths[3] = min(widths[3], 70)
    say("\n" + "  ".join(str(h).ljust(w) for h, w in zip(head, widths)))
    for r in rows:
        say("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))


BEGIN_MARK = "<!-- bench/run: generated section begins; edit outside the markers -->"
END_MARK = "<!-- bench/run: generated section ends -->"


def render_section(res, info, mode):
    """The generated section, markers included."""
    out = [BEGIN_MARK, "", f"## Latest run ({mode})", ""]
    out += [f"- Date: {info.date}", f"- Machine: {info.host}; {info.cpu}; load average at the end "
            f"{info.load}", f"- Commit: {info.commit}", f"- {info.swift}; {info.speechd}; "
            f"{info.espeak}", ""]
    out += ["| figure | announce | spd-say | detail | goal | |", "|---|---|---|---|---|---|"]
    for r in table_rows(res):
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    out.append("")
    if res.retry and res.retry.all:
        out.append("Retry latencies (ms): " + ", ".join(f"{x * 1000:.0f}" for x in sorted(res.retry.all)) + ".")
        out.append("")
    out += [END_MARK]
    return "\n".join(out) + "\n"


def replace_section(text, block):
    """`text` with its generated section replaced by `block` (appended when absent)."""
    if text is None:
        return "# Benchmarks\n\nWritten by `bench/run`; see the README's Benchmarks section.\n\n" + block
    if BEGIN_MARK in text and END_MARK in text:
        pre, rest = text.split(BEGIN_MARK, 1)
        post = rest.split(END_MARK, 1)[1]
        return pre + block.rstrip("\n") + post
    return text.rstrip("\n") + "\n\n" + block


def write_markdown(path, res, info, mode):
    old = open(path).read() if os.path.exists(path) else None
    with open(path, "w") as f:
        f.write(replace_section(old, render_section(res, info, mode)))
    say(f"\nwrote {os.path.relpath(path, ROOT)}")
