"""The results table (printed, and written between markers in BENCHMARKS.md)."""

import datetime
import os
import platform
import re
import subprocess
import textwrap
from dataclasses import dataclass, field
from typing import Optional

from .braille import Braille
from .notify import Notify
from .lean import Lean, lean_rows
from .catalogs import Catalogs, catalog_rows
from .scenarios import (FLOOD_RSS_GOAL, REPEATED_FLOOD_RATIO_GOAL, ColdStart, Core, Detach, Failure, Flood,
                        LongLine, Overhead, RepeatedFlood, Retry)
from .soak import Soak
from .stats import MIB, ms, say, sec
from .workspace import ROOT


# The Debian releases whose speech-dispatcher bench/run measures, in column order.
RELEASES = ("12", "13")
# The release the figures that do not depend on speech-dispatcher are measured on.
HOME_RELEASE = "12"


@dataclass
class ReleaseFigures:
    """The figures that depend on speech-dispatcher, measured on one release's stack."""

    release: str  # "12" or "13"
    speechd: str  # the Debian version of its speech-dispatcher, from the stack's env file
    espeak: str = "?"  # the Debian version of its espeak-ng
    overhead: Optional[Overhead] = None
    cold: Optional[ColdStart] = None
    long_line: Optional[LongLine] = None
    retry: Optional[Retry] = None
    failure: Optional[Failure] = None
    braille: Optional[Braille] = None
    notify: Optional[Notify] = None

    @property
    def version(self):
        """The upstream version: "0.12.0" of "0.12.0-5"."""
        return self.speechd.split(":", 1)[-1].rsplit("-", 1)[0]

    @property
    def label(self):
        return f"speech-dispatcher {self.version} (Debian {self.release})"


@dataclass
class Results:
    """Whatever this run measured; a scenario not run stays None."""

    releases: list = field(default_factory=list)  # of ReleaseFigures, in RELEASES order
    skipped: list = field(default_factory=list)  # releases not measured in this run
    detach: Optional[Detach] = None
    core: Optional[Core] = None
    flood: Optional[Flood] = None
    repeated: Optional[RepeatedFlood] = None
    waiting: Optional[list] = None  # of waiting.WaitingRun
    soak: Optional[Soak] = None
    fault_soak: Optional[object] = None
    lean: Optional[Lean] = None
    catalogs: Optional[Catalogs] = None
    others_on: Optional[ReleaseFigures] = None  # the release the other figures were measured on

    @property
    def others_label(self):
        return self.others_on.label if self.others_on else f"Debian {HOME_RELEASE}"


@dataclass
class Machine:
    date: str
    host: str
    cpu: str
    load: str
    swift: str
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
        commit=(git("rev-parse", "--short", "HEAD") or "?") + dirty,
    )


def goal(ok):
    return "n/a" if ok is None else ("met" if ok else "MISSED")


# ------------------------------------------------------------ figures that depend on speech-dispatcher
# A cell is (text, whether the goal is met, or None when there is none or nothing to judge by).


def overhead_cell(o):
    return (f"ratio median {o.ratio_median:.3f} (IQR {o.ratio_p25:.3f}-{o.ratio_p75:.3f}, range "
            f"{o.ratio_min:.3f}-{o.ratio_max:.3f}, {o.pairs} pairs); announce {sec(o.announce_median)}, "
            f"spd-say {sec(o.spdsay_median)}", o.ratio_median <= 1.03)


def queued_cell(c):
    return (f"announce {ms(c.announce.queued)}, spd-say {ms(c.spdsay.queued)} "
            f"(medians of {c.announce.n} / {c.spdsay.n})", None)


def begin_cell(c):
    difference = c.announce.begin - c.spdsay.begin
    measured = difference == difference  # not NaN: both got a BEGIN at least once
    return (f"announce {ms(c.announce.begin)}, spd-say {ms(c.spdsay.begin)}: difference "
            f"{difference * 1000:.1f} ms", difference <= 0.003 if measured else None)


def long_line_cell(t):
    if not t.begins:
        return ("not measured: no BEGIN came", None)
    return (f"median {ms(t.median)} (range {ms(min(t.begins))}-{ms(max(t.begins))}, n={len(t.begins)}); "
            f"{t.parts} parts", t.median <= 1.0)


def retry_cell(t):
    problems = f"; problems: {len(t.problems)}" if t.problems else ""
    return (f"median {ms(t.median)} (range {ms(t.min)}-{ms(t.max)}, n={t.n}); END → next quiet probe "
            f"{ms(t.probe_wait)}, probe → retry BEGIN {ms(t.probe_tail)}{problems}",
            t.median <= 0.150 if t.n else None)


def broken_cell(f):
    b = f.broken_spdsay
    spdsay = f"never: killed at the cap of {sec(f.cap)}" if b.killed else f"{sec(b.median)} ({b.codes})"
    return f"announce {sec(f.broken_announce.median)} ({f.broken_announce.codes}); spd-say {spdsay}", None


def absent_cell(f):
    return (f"announce {ms(f.absent_announce.median)} ({f.absent_announce.codes}); spd-say "
            f"{ms(f.absent_spdsay.median)} ({f.absent_spdsay.codes})", None)


def braille_shown_cell(b):
    if not b.shown:
        return (f"not measured: {b.note or 'the text never appeared'}", None)
    return (f"median {ms(b.shown_median)} (range {ms(min(b.shown))}-{ms(max(b.shown))}, n={len(b.shown)})", None)


def braille_back_cell(b):
    if not b.back:
        return (f"not measured: {b.note or 'the line never came back'}", None)
    return (f"median {ms(b.back_median)} (range {ms(min(b.back))}-{ms(max(b.back))}, n={len(b.back)})",
            b.back_median < 0.050)


def notify_cell(n):
    if not n.announce or not n.notify_send:
        return (f"not measured: {n.note or 'no run ended with status 0'}", None)
    return (f"announce median {ms(n.announce_median)}, notify-send {ms(n.notify_send_median)} (n={len(n.announce)})",
            n.announce_median <= n.notify_send_median + 0.003)


def notify_rss_cell(n):
    if not n.announce:
        return (f"not measured: {n.note or 'no run ended with status 0'}", None)
    return (f"{n.peak_rss / 1048576:.1f} MiB", None)


# (figure, goal, the ReleaseFigures field it reads, its cell)
RELEASE_FIGURES = (
    ("1. Overhead, `\"Saved\"` wall time, announce / spd-say", "≤ 1.03", "overhead", overhead_cell),
    ("2. Cold start, exec → queued in daemon", "", "cold", queued_cell),
    ("2. Cold start, exec → BEGIN", "≤ spd-say + 3 ms", "cold", begin_cell),
    ("2. A 1 MiB line on standard input, exec → its first BEGIN", "≤ 1 s", "long_line", long_line_cell),
    ("3. Retry latency, interrupter END → retry BEGIN", "≤ 150 ms", "retry", retry_cell),
    ("4. Verdict, broken audio", "", "failure", broken_cell),
    ("4. Verdict, server absent", "", "failure", absent_cell),
    ("8. Braille, exec → text on the display (`--braille-only`)", "≤ exec → BEGIN", "braille", braille_shown_cell),
    ("8. Braille, routing key → the screen reader's line back", "< 50 ms", "braille", braille_back_cell),
    ("9. Desktop notification, exec → on dunst (`--notify-only`)", "≤ notify-send + 3 ms", "notify", notify_cell),
    ("9. Desktop notification, announce's peak memory", "", "notify", notify_rss_cell),
)


def release_head(res):
    """The release table's header: one column per release measured."""
    return ("figure", "goal") + tuple(r.label for r in res.releases)


def release_rows(res):
    """(figure, goal, one cell per release measured); a figure no release measured has no row."""
    rows = []
    for figure, target, name, cell_of in RELEASE_FIGURES:
        measured = [getattr(r, name) for r in res.releases]
        if not any(measured):
            continue
        texts = []
        for value in measured:
            if value is None:
                texts.append("not measured")
            else:
                text, ok = cell_of(value)
                texts.append(f"{text}; goal {goal(ok)}" if target else text)
        rows.append((figure, target, *texts))
    return rows


def release_notes(res):
    """Sentences under the release table: releases left out, and the retry goal on each release."""
    lines = []
    for release in res.skipped:
        lines.append(f"Debian {release}'s speech-dispatcher was not measured in this run "
                     f"(`bench/run --release {' '.join(r.release for r in res.releases)}`).")
    retried = [r for r in res.releases if r.retry]
    if retried:
        lines.append("Retry latency ≤ 150 ms (issue #20): " + "; ".join(
            f"{goal(r.retry.median <= 0.150 if r.retry.n else None)} on {r.label}, median {ms(r.retry.median)}"
            for r in retried) + ".")
    return lines


# ------------------------------------------------------------ the other figures, measured once


def table_rows(res):
    """The figures that do not depend on speech-dispatcher, measured on HOME_RELEASE only."""
    rows = []
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
                     f"{fl.state}: {fl.accepted:,} lines written", "≤ 32 MiB", goal(fl.peak <= FLOOD_RSS_GOAL)))
    rf = res.repeated
    if rf:
        rows.append((f"6. {rf.lines:,} identical stdin lines, history on vs off", f"{rf.ratio:.2f}×", "n/a",
                     f"on {sec(rf.with_history)}, off {sec(rf.without_history)}", f"≤ {REPEATED_FLOOD_RATIO_GOAL}×",
                     goal(rf.ratio <= REPEATED_FLOOD_RATIO_GOAL)))
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
    fs = res.fault_soak
    if fs:
        rows.append((f"Fault soak, {fs.lines} lines, {sum(fs.steps.values())} steps",
                     f"{'PASSED' if fs.ok else 'FAILED'} in {sec(fs.wall)}", "n/a",
                     f"steps {fs.steps}; speech {fs.speech}; braille {fs.shown if fs.braille else 'off'}; "
                     f"missing {len(fs.missing)}, doubled {len(fs.doubled)}, hung {len(fs.hangs)}, "
                     f"spoken twice {len(fs.spoken_twice)}, missed and lost {len(fs.missed_lost)}",
                     "one outcome a channel, no hang, history kept", goal(fs.ok)))
    rows += lean_rows(res.lean, goal)
    rows += catalog_rows(res.catalogs, goal)
    return rows


OTHER_HEAD = ("figure", "announce", "spd-say", "detail", "goal", "")


# A number and its unit stay on one line when a cell is wrapped.
NUMBER_AND_UNIT = re.compile(r"(\d|exit) (ms|s|MiB|MB|pairs|\d)\b")


def wrap(cell, width):
    joined = NUMBER_AND_UNIT.sub("\\1\u00a0\\2", str(cell))
    return [line.replace("\u00a0", " ") for line in textwrap.wrap(joined, width)] or [""]


def grid_lines(head, rows, widest):
    """A plain-text table: columns padded, a cell wider than `widest[i]` wrapped onto more lines."""
    widths = [min(max(len(str(r[i])) for r in rows + [head]), widest[i]) for i in range(len(head))]
    lines = []
    for row in [head] + rows:
        cells = [wrap(c, w) for c, w in zip(row, widths)]
        for k in range(max(len(c) for c in cells)):
            lines.append("  ".join((c[k] if k < len(c) else "").ljust(w) for c, w in zip(cells, widths)).rstrip())
    return lines


def print_table(res):
    rows = release_rows(res)
    if rows:
        say("\nFigures that depend on speech-dispatcher, one column per release:\n")
        for line in grid_lines(release_head(res), rows, [34, 16] + [48] * len(res.releases)):
            say(line)
        for line in release_notes(res):
            say(line)
    rows = table_rows(res)
    if rows:
        say(f"\nThe other figures, on {res.others_label} only:\n")
        for line in grid_lines(OTHER_HEAD, rows, [48, 18, 14, 60, 24, 6]):
            say(line)


BEGIN_MARK = "<!-- bench/run: generated section begins; edit outside the markers -->"
END_MARK = "<!-- bench/run: generated section ends -->"


def markdown_table(head, rows):
    cells = [head] + [["---"] * len(head)] + rows
    return ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in cells]


def release_line(r):
    where = "this machine" if r.release == HOME_RELEASE else "its daemons in a Debian 13 root, under chroot"
    return f"- Debian {r.release}: speech-dispatcher {r.speechd}, espeak-ng {r.espeak} ({where})"


def render_section(res, info, mode):
    """The generated section, markers included."""
    out = [BEGIN_MARK, "", f"## Latest run ({mode})", ""]
    out += [f"- Date: {info.date}", f"- Machine: {info.host}; {info.cpu}; load average at the end "
            f"{info.load}", f"- Commit: {info.commit}", f"- {info.swift}"]
    out += [release_line(r) for r in res.releases] + [""]
    rows = release_rows(res)
    if rows:
        out += ["### Figures that depend on speech-dispatcher, one column per release", ""]
        out += markdown_table(release_head(res), rows) + [""]
        notes = release_notes(res)
        latencies = [f"{r.label}: " + ", ".join(f"{x * 1000:.0f}" for x in sorted(r.retry.all))
                     for r in res.releases if r.retry and r.retry.all]
        if latencies:
            notes.append("Retry latencies (ms), " + "; ".join(latencies) + ".")
        out += [line for note in notes for line in (note, "")]
    rows = table_rows(res)
    if rows:
        out += [f"### The other figures, on {res.others_label} only", ""]
        out += markdown_table(OTHER_HEAD, rows) + [""]
    out += [END_MARK]
    return "\n".join(out) + "\n"


def replace_section(text, block):
    """`text` with its generated section replaced by `block` (appended when absent)."""
    if text is None:
        return "# Benchmarks\n\nWritten by `bench/run`; see the Benchmarks section of CONTRIBUTING.md.\n\n" + block
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
