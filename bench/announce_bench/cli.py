"""bench/run's and bench/soak's command line."""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys

from .relay import SSIPRelay
from .report import HOME_RELEASE, RELEASES, ReleaseFigures, Results, machine, print_table, write_markdown
from .scenarios import (FLOOD_RSS_GOAL, Context, measure_cold_start, measure_core, measure_detach, measure_failure,
                        measure_flood_rss, measure_long_line, measure_overhead, measure_repeated_flood, measure_retry)
from .soak import soak
from .faultsoak import fault_soak
from .stats import say
from .braille import measure_braille
from .notify import measure_notify
from .lean import measure_lean
from .catalogs import measure_catalogs
from .waiting import measure_waiting
from .workspace import ROOT, TESTSTACK, BenchError, Workspace, build, debian13_root, package_version


def need_tools(releases):
    # Clients always run on this machine; for 13 the daemons are the Debian 13 root's.
    daemons = ("speech-dispatcher", "pulseaudio") if HOME_RELEASE in releases else ()
    for tool in ("spd-say", "parec", "timeout") + daemons:
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} is not installed; run scripts/setup first.")
    if not os.access(TESTSTACK, os.X_OK):
        raise BenchError(f"{TESTSTACK} is missing or not executable.")


def parse(argv):
    ap = argparse.ArgumentParser(prog="bench/run", description=(
        "Benchmarks announce against spd-say on private speech-dispatchers: the figures that depend on "
        "speech-dispatcher on Debian 12's 0.11.4 and Debian 13's 0.12 side by side, the others on Debian 12's; "
        "and runs the soak test. Writes BENCHMARKS.md in full mode."))
    ap.add_argument("--quick", action="store_true",
                    help="smoke test for CI: few repetitions, a 50-line soak, 100,000 flood lines; "
                         "prints the figures, asserts only the memory goal (peak RSS of the stdin flood), "
                         "does not write BENCHMARKS.md")
    ap.add_argument("--soak", action="store_true",
                    help="also run the 1,000-line soak test and the 1,000-line fault soak")
    ap.add_argument("--release", choices=RELEASES, default=None,
                    help="for development: measure on this Debian release's speech-dispatcher only (with 13, "
                         "only the figures that depend on it); does not write BENCHMARKS.md, which shows both")
    ap.add_argument("--soak-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--faults", action="store_true",
                    help="with bench/soak: run the fault soak (floods, killed daemons, SIGTSTP, replays) instead")
    ap.add_argument("--bin-path", default=None,
                    help="for development: use the announce in this folder instead of building one")
    ap.add_argument("--lines", type=int, default=None,
                    help="soak lines (default 1000; with --quick, a 60-line fault soak instead of the soak)")
    ap.add_argument("--pairs", type=int, default=None, help="overhead pairs (default 20, 4 with --quick)")
    ap.add_argument("--waiting", default=None,
                    help="comma-separated numbers of processes for the waiting-for-turns figure "
                         "(default 10,40,100,200; 10,40 with --quick)")
    ap.add_argument("--seed", type=int, default=None, help="seed for the soak's interruptions")
    ap.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"), help="where to write the results")
    ap.add_argument("--no-write", action="store_true", help="do not write BENCHMARKS.md")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs) under /tmp")
    return ap.parse_args(argv)


def context(args, bin_path, ws):
    announce = os.path.join(bin_path, "announce")
    help_run = subprocess.run([announce, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=20)
    if help_run.returncode != 0:
        raise BenchError(f"{announce} --help failed: {help_run.stdout[-500:]}")
    waiting = args.waiting or ("10,40" if args.quick else "10,40,100,200")
    try:
        counts = tuple(int(n) for n in waiting.split(",") if n.strip())
    except ValueError:
        raise BenchError(f"--waiting takes numbers separated by commas, not {waiting!r}")
    return Context(
        ws=ws, announce=announce, core=os.path.join(bin_path, "CoreThroughput"), help_text=help_run.stdout,
        floor=os.path.join(bin_path, "ParserFloor"),
        quick=args.quick, pairs=args.pairs or (4 if args.quick else 20), reps=3 if args.quick else 10,
        failure_reps=1 if args.quick else 3, spd_cap=6.0 if args.quick else 20.0,
        flood_lines=100_000 if args.quick else 1_000_000, flood_cap=60 if args.quick else 180,
        waiting_counts=counts,
        seed=args.seed if args.seed is not None else random.randrange(1, 1_000_000))


def start_release(ctx, release, res):
    """Starts a stack on `release`'s speech-dispatcher for the scenarios; its ReleaseFigures and env."""
    ctx.release = release
    say(f"\nstarting a private stack on Debian {release}'s speech-dispatcher in {ctx.ws.dir} ...")
    env = ctx.ws.start_stack(f"s{release}", release)
    ctx.address = env["SPEECHD_ADDRESS"]
    figures = ReleaseFigures(release=release, speechd=env.get("TESTSTACK_SPEECHD_VERSION", "?"),
                             espeak=package_version("espeak-ng", env.get("TESTSTACK_RELEASE_ROOT", "")))
    res.releases.append(figures)
    say(f"speech-dispatcher {figures.speechd}, espeak-ng {figures.espeak}")
    return figures, env


def measure_speechd_figures(ctx, figures):
    """The figures that depend on speech-dispatcher and need a working stack."""
    figures.overhead = measure_overhead(ctx)
    ctx.relay = SSIPRelay(ctx.ws.path(f"p{ctx.release}.sock"), ctx.address.split(":", 1)[1])
    figures.cold = measure_cold_start(ctx)
    figures.long_line = measure_long_line(ctx)
    figures.retry = measure_retry(ctx)
    ctx.relay.close()


def measure_others(ctx, res, soak_lines, fault_lines):
    """The figures measured once, on HOME_RELEASE's stack, except the core's, which needs none."""
    res.detach = measure_detach(ctx)
    res.lean = measure_lean(ctx)
    res.catalogs = measure_catalogs(ctx)
    res.flood = measure_flood_rss(ctx)
    res.repeated = measure_repeated_flood(ctx)
    res.waiting = measure_waiting(ctx)
    if soak_lines:
        res.soak = soak(ctx, soak_lines)
    if fault_lines:
        res.fault_soak = fault_soak(ctx, fault_lines, HOME_RELEASE)


def main(argv):
    args = parse(argv)
    releases = (args.release,) if args.release else RELEASES
    need_tools(releases)
    if "13" in releases:
        say(f"the Debian 13 root: {debian13_root()}")
    bin_path = args.bin_path or build(["announce"] if args.soak_only else ["announce", "CoreThroughput", "ParserFloor"])
    ws = Workspace(keep=args.keep)
    ctx = context(args, bin_path, ws)

    def on_signal(signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    res = Results(skipped=[r for r in RELEASES if r not in releases])
    soak_lines = args.lines or 1000
    # CI's short form: the fault soak covers what the short soak did (one outcome a line, no
    # hang) under faults, in about the same time.
    fault_lines = (args.lines or 60) if args.quick else (soak_lines if args.soak else 0)
    try:
        if args.soak_only and args.faults:
            res.fault_soak = fault_soak(ctx, soak_lines, releases[0])
            return 0 if res.fault_soak.ok else 1
        if args.soak_only:
            res.others_on, _ = start_release(ctx, releases[0], res)
            res.soak = soak(ctx, soak_lines)
            print_table(res)
            return 0 if res.soak.ok else 1
        for release in releases:
            figures, env = start_release(ctx, release, res)
            measure_speechd_figures(ctx, figures)
            figures.braille = measure_braille(ctx, env["TESTSTACK_DIR"], env, ctx.reps)
            figures.notify = measure_notify(ctx.announce, release, ctx.reps)
            if release == HOME_RELEASE:
                res.others_on = figures
                measure_others(ctx, res, soak_lines if args.soak else 0, fault_lines)
            ws.stop_stack(env["TESTSTACK_DIR"])
            figures.failure = measure_failure(ctx)
        if HOME_RELEASE in releases:
            res.core = measure_core(ctx)
    finally:
        ws.close()
    print_table(res)
    info = machine()
    if args.release and not args.quick and not args.no_write:
        say(f"\nnot writing {os.path.relpath(args.output, ROOT)}: it shows both releases; run without --release.")
    elif not args.quick and not args.no_write:
        write_markdown(args.output, res, info, "bench/run --soak" if args.soak else "bench/run")
    if res.flood and res.flood.peak > FLOOD_RSS_GOAL:
        say(f"\nThe memory goal was MISSED: peak RSS {res.flood.peak / (1 << 20):.1f} MiB for "
            f"{res.flood.lines:,} stdin lines, over {FLOOD_RSS_GOAL >> 20} MiB.")
        return 1
    if res.soak and not res.soak.ok:
        say("\nThe soak test FAILED: some line did not end in exactly one outcome, or announce hung.")
        return 1
    if res.fault_soak and not res.fault_soak.ok:
        say("\nThe fault soak FAILED: a line without exactly one outcome per channel, a hang, an "
            "unexpected exit status, or a missed announcement lost or spoken twice.")
        return 1
    return 0


def run(argv):
    """main() with the exit statuses bench/run documents."""
    try:
        return main(argv)
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        return 130
