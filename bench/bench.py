#!/usr/bin/env python3
"""Benchmarks and the soak test for announce (issue #7, issue #5's soak).

Run it through bench/run or bench/soak; see `bench/run --help`. Standard library
only. Everything runs against private stacks from Tests/Support/teststack in a
directory /tmp/announce-bench-*, which is stopped and removed at the end, even
on Ctrl-C. Only processes this script started are ever signalled.
"""

import argparse
import atexit
import collections
import datetime
import json
import os
import platform
import random
import re
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESTSTACK = os.path.join(ROOT, "Tests", "Support", "teststack")
SCRATCH = os.path.join(ROOT, ".build-bench")
MARKER = "ANNOUNCE_BENCH_OWNER"  # in the environment of every client we start
MIB = 1024 * 1024


class BenchError(Exception):
    """The script itself cannot go on: a tool is missing, a build or a stack failed."""


def say(*parts):
    print(*parts, flush=True)


def note(*parts):
    print("  ", *parts, flush=True)


def now():
    return time.perf_counter()


# --------------------------------------------------------------- statistics


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def quantile(xs, q):
    if not xs:
        return float("nan")
    s = sorted(xs)
    pos = (len(s) - 1) * q
    lo, hi = int(pos), min(int(pos) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def ms(seconds):
    return "n/a" if seconds is None or seconds != seconds else f"{seconds * 1000:.0f} ms"


def sec(seconds):
    return "n/a" if seconds is None or seconds != seconds else f"{seconds:.2f} s"


# --------------------------------------------------------------- workspace


class Workspace:
    """A directory under /tmp for stacks and files; cleans up what it started."""

    def __init__(self, keep=False):
        self.dir = tempfile.mkdtemp(prefix="announce-bench-", dir="/tmp")
        self.keep = keep
        self.stacks = []
        self.procs = []
        self.closed = False
        atexit.register(self.close)

    def path(self, name):
        return os.path.join(self.dir, name)

    def start_stack(self, name, broken=False):
        d = self.path(name)
        self.stacks.append(d)
        args = [TESTSTACK, "start", d] + (["--broken-audio"] if broken else [])
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=90)
        if r.returncode != 0:
            raise BenchError(f"teststack start {d} failed: {r.stderr.strip()}")
        env = {}
        with open(os.path.join(d, "env")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                env[k] = v
        return env

    def stop_stack(self, d):
        subprocess.run([TESTSTACK, "stop", d], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=60)
        if d in self.stacks:
            self.stacks.remove(d)

    def spawn(self, args, env, **kw):
        p = subprocess.Popen(args, env=env, **kw)
        self.procs.append(p)
        return p

    def marked_pids(self, value=None):
        """PIDs whose environment carries our marker (detached children included)."""
        needle = f"{MARKER}={value or self.dir}".encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == os.getpid():
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if needle in f.read().split(b"\0"):
                        pids.append(int(entry))
            except OSError:
                pass
        return pids

    def close(self):
        if self.closed:
            return
        self.closed = True
        for p in self.procs:
            if p.poll() is None:
                try:
                    p.kill()
                    p.wait(timeout=5)
                except Exception:
                    pass
        for value in (self.dir,):
            for pid in self.marked_pids(value):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        for d in list(self.stacks):
            try:
                self.stop_stack(d)
            except Exception:
                pass
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        else:
            say(f"kept {self.dir}")


def client_env(ws, address, extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANNOUNCE_", "SPEECHD_", "PULSE_"))}
    env["LANG"] = "C.UTF-8"
    env["SPEECHD_ADDRESS"] = address
    # announce's speaking turns and --detach's outcome log live under these: keep them
    # in the work directory, away from the user's own.
    for var, sub in (("XDG_RUNTIME_DIR", "xdg-run"), ("XDG_STATE_HOME", "xdg-state")):
        env[var] = os.path.join(ws.dir, sub)
        os.makedirs(env[var], mode=0o700, exist_ok=True)
    env[MARKER] = ws.dir
    if extra:
        env.update(extra)
    return env


# --------------------------------------------------------------- building


def build(products):
    if shutil.which("swift") is None:
        raise BenchError("swift is not on PATH; install the Swift 6 toolchain (see README).")
    # As `make install` builds it: the Swift runtime linked in, which is what users run
    # (and it starts about twice as fast as a build that loads the runtime's shared objects).
    common = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", SCRATCH]
    for product in products:
        say(f"building {product} (release, static Swift runtime, {os.path.relpath(SCRATCH, ROOT)}) ...")
        r = subprocess.run(common + ["--product", product], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout[-4000:])
            raise BenchError(f"swift build --product {product} failed")
    r = subprocess.run(common + ["--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
    return r.stdout.strip()


def run_timed(args, env, timeout, ws=None, stdin=subprocess.DEVNULL):
    """(seconds, exit status or None when killed at the cap)."""
    start = now()
    p = subprocess.Popen(args, env=env, stdin=stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    if ws:
        ws.procs.append(p)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return now() - start, None
    return now() - start, rc


# --------------------------------------------------------------- SSIP proxy


class ProxyConn:
    def __init__(self, cid):
        self.cid = cid
        self.opened = now()
        self.client_name = ""
        self.blocks = collections.deque()  # texts of SPEAK data blocks not yet answered
        self.msgs = {}  # msg id -> dict(real, queued, begin, end, cancel)
        self.order = []  # msg ids in queueing order


class SSIPProxy:
    """Relays a unix socket to speech-dispatcher's, timestamping what passes.

    It records, per client connection, when each message was queued (the 225
    reply), whether it was a real message or announce's silent quiet probe
    (a single space), and when BEGIN, END and CANCEL arrived for it.
    """

    EVENT_CODES = {"701": "begin", "702": "end", "703": "cancel"}

    def __init__(self, listen_path, target_path):
        self.path = listen_path
        self.target = target_path
        self.lock = threading.Lock()
        self.conns = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(listen_path)
        self.server.listen(64)
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def address(self):
        return "unix_socket:" + self.path

    def _accept(self):
        while not self.closed:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                conn = ProxyConn(len(self.conns))
                self.conns.append(conn)
            threading.Thread(target=self._pump, args=(client, upstream, conn, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, conn, False), daemon=True).start()

    def _pump(self, src, dst, conn, from_client):
        buf = b""
        state = {"in_data": False, "data": [], "pending": []}
        while True:
            try:
                chunk = src.recv(65536)
            except OSError:
                chunk = b""
            t = now()
            if not chunk:
                for s in (dst, src):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return
            # Parse before forwarding: the reply to a client's data must never be
            # parsed before the data itself.
            buf += chunk
            *lines, buf = buf.split(b"\r\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                with self.lock:
                    if from_client:
                        self._client_line(conn, line, state)
                    else:
                        self._server_line(conn, line, state, t)
            try:
                dst.sendall(chunk)
            except OSError:
                pass

    @staticmethod
    def _client_line(conn, line, state):
        if state["in_data"]:
            if line == ".":
                state["in_data"] = False
                conn.blocks.append("\n".join(state["data"]))
            else:
                state["data"].append(line)
        elif line.upper() == "SPEAK":
            state["in_data"] = True
            state["data"] = []
        elif line.upper().startswith("SET SELF CLIENT_NAME"):
            conn.client_name = line.split(None, 3)[3] if len(line.split(None, 3)) > 3 else ""

    def _server_line(self, conn, line, state, t):
        code, sep = line[:3], line[3:4]
        if code == "225" and sep == "-":
            try:
                mid = int(line[4:])
            except ValueError:
                return
            text = conn.blocks.popleft() if conn.blocks else ""
            # Events can come before this reply (a discarded probe's CANCEL does).
            msg = conn.msgs.setdefault(mid, {})
            msg.update({"real": text.strip() != "", "queued": t, "text": text})
            conn.order.append(mid)
        elif code in ("700", "701", "702", "703", "704", "705"):
            if sep == "-":
                state["pending"].append(line[4:])
            else:
                kind = self.EVENT_CODES.get(code)
                try:
                    mid = int(state["pending"][0])
                except (IndexError, ValueError):
                    mid = None
                state["pending"] = []
                if kind and mid is not None:
                    msg = conn.msgs.setdefault(mid, {"real": None, "queued": None, "text": ""})
                    msg.setdefault(kind, t)

    def snapshot(self):
        with self.lock:
            return [(c.cid, c.client_name, c.opened, dict((k, dict(v)) for k, v in c.msgs.items()),
                     list(c.order)) for c in self.conns]

    def mark(self):
        with self.lock:
            return len(self.conns)

    def close(self):
        self.closed = True
        try:
            self.server.close()
        except OSError:
            pass


# --------------------------------------------------------------- measurements

SAVED = "Saved"


def measure_overhead(ctx):
    """1. Wall time of announce "Saved" vs spd-say -w "Saved", alternating A/B."""
    pairs = ctx.pairs
    say(f"\n[1] overhead: announce \"{SAVED}\" vs spd-say -w \"{SAVED}\", {pairs} alternating pairs")
    env = client_env(ctx.ws, ctx.address)
    a_cmd = [ctx.announce, SAVED]
    s_cmd = ["spd-say", "-w", SAVED]
    for _ in range(2):  # warm-up: page cache, module, first-connection costs
        run_timed(a_cmd, env, 20, ctx.ws)
        run_timed(s_cmd, env, 20, ctx.ws)
    a_times, s_times, ratios, failures = [], [], [], []
    for i in range(pairs):
        order = [("a", a_cmd), ("s", s_cmd)] if i % 2 == 0 else [("s", s_cmd), ("a", a_cmd)]
        got = {}
        for name, cmd in order:
            time.sleep(0.15)
            t, rc = run_timed(cmd, env, 20, ctx.ws)
            got[name] = t
            if rc != 0:
                failures.append(f"pair {i + 1}: {cmd[0]} exit {rc}")
        a_times.append(got["a"])
        s_times.append(got["s"])
        ratios.append(got["a"] / got["s"])
    r = {
        "pairs": pairs,
        "announce_median": median(a_times), "spdsay_median": median(s_times),
        "ratio_median": median(ratios), "ratio_p25": quantile(ratios, 0.25),
        "ratio_p75": quantile(ratios, 0.75), "ratio_min": min(ratios), "ratio_max": max(ratios),
        "failures": failures,
    }
    note(f"announce median {sec(r['announce_median'])}, spd-say median {sec(r['spdsay_median'])}")
    note(f"ratio median {r['ratio_median']:.3f} (IQR {r['ratio_p25']:.3f}-{r['ratio_p75']:.3f}, "
         f"range {r['ratio_min']:.3f}-{r['ratio_max']:.3f})")
    for f in failures:
        note("FAILED RUN:", f)
    if len(failures) >= pairs:
        raise BenchError("announce never spoke on the healthy stack; see the failures above")
    return r


def first_real(snapshot, since_conn, name_part=None):
    """The first real message on connections opened since `since_conn`."""
    for cid, name, opened, msgs, order in snapshot:
        if cid < since_conn or (name_part and name_part not in name):
            continue
        for mid in order:
            if msgs[mid].get("real"):
                return msgs[mid]
    return None


def probes_of(snapshot, since_conn):
    """announce's quiet probes (single-space messages) on connections since `since_conn`."""
    out = []
    for cid, name, opened, msgs, order in snapshot:
        if cid >= since_conn and "announce" in name:
            out += [msgs[mid] for mid in order if msgs[mid].get("real") is False]
    return out


def measure_cold_start(ctx):
    """2. From exec to the message queued in the daemon, and to its BEGIN."""
    reps = ctx.reps
    say(f"\n[2] cold start: exec -> message queued -> BEGIN, through a timestamping SSIP proxy, {reps} reps each")
    proxy = ctx.proxy
    env = client_env(ctx.ws, proxy.address)
    results = {"a": {"queued": [], "begin": []}, "s": {"queued": [], "begin": []}}
    cmds = {"a": [ctx.announce, SAVED], "s": ["spd-say", "-w", SAVED]}
    for i in range(reps + 1):
        for name in (("a", "s") if i % 2 == 0 else ("s", "a")):
            time.sleep(0.15)
            mark = proxy.mark()
            start = now()
            p = ctx.ws.spawn(cmds[name], env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            if i == 0:
                continue  # warm-up round
            msg = first_real(proxy.snapshot(), mark)
            if msg and msg.get("queued"):
                results[name]["queued"].append(msg["queued"] - start)
            if msg and msg.get("begin"):
                results[name]["begin"].append(msg["begin"] - start)
    r = {k: {m: median(v) for m, v in d.items()} for k, d in results.items()}
    r["n"] = {k: len(d["begin"]) for k, d in results.items()}
    note(f"announce: queued {ms(r['a']['queued'])}, BEGIN {ms(r['a']['begin'])} after exec (median of {r['n']['a']})")
    note(f"spd-say:  queued {ms(r['s']['queued'])}, BEGIN {ms(r['s']['begin'])} after exec (median of {r['n']['s']})")
    return r


LONG_TEXT = "This announcement is interrupted by other speech and then spoken again in full."


def measure_retry(ctx):
    """3. From the interrupting client's END to our retry's BEGIN."""
    reps = ctx.reps
    say(f"\n[3] retry latency: interrupter's END -> our retry's BEGIN, {reps} reps")
    proxy = ctx.proxy
    env = client_env(ctx.ws, proxy.address)
    latencies, problems, waits, tails = [], [], [], []
    busy_after_end = 0
    for i in range(reps):
        time.sleep(0.3)
        mark = proxy.mark()
        a = ctx.ws.spawn([ctx.announce, "--timeout", "15", LONG_TEXT], env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        # Wait for our first BEGIN, then interrupt.
        deadline = now() + 8
        while now() < deadline:
            msg = first_real(proxy.snapshot(), mark, "announce")
            if msg and msg.get("begin"):
                break
            time.sleep(0.01)
        time.sleep(0.25 + 0.05 * (i % 4))
        # Interrupters of different lengths, so that their END falls at every phase
        # of our polling rather than always at the same one.
        words = " ".join(["now"] * (i % 5))
        s = ctx.ws.spawn(["spd-say", "-w", f"Interrupting {words}".strip()], env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for p in (s, a):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                problems.append(f"rep {i + 1}: {p.args[0]} did not finish within 30 s")
        snap = proxy.snapshot()
        inter_end = None
        ours = []
        for cid, name, opened, msgs, order in snap:
            if cid < mark:
                continue
            for mid in order:
                m = msgs[mid]
                if "spd-say" in name and m.get("real") and m.get("end"):
                    inter_end = m["end"]
                if "announce" in name and m.get("real"):
                    ours.append(m)
        if a.returncode != 0:
            problems.append(f"rep {i + 1}: announce exit {a.returncode}")
        if inter_end is None or not ours or "cancel" not in ours[0]:
            problems.append(f"rep {i + 1}: the interruption did not happen as planned")
            continue
        retry = [m["begin"] for m in ours[1:] if m.get("begin") and m["begin"] >= inter_end]
        if not retry:
            problems.append(f"rep {i + 1}: no retry BEGIN after the interrupter's END")
            continue
        latencies.append(retry[0] - inter_end)
        # Where the time goes: waiting for our next quiet probe, then probe -> retry BEGIN.
        probes = [m for m in probes_of(snap, mark) if m.get("queued") and inter_end <= m["queued"] <= retry[0]]
        if probes:
            waits.append(probes[0]["queued"] - inter_end)
            tails.append(retry[0] - probes[-1]["queued"])
            busy_after_end += sum(1 for m in probes if "cancel" in m)
    r = {"n": len(latencies), "median": median(latencies),
         "min": min(latencies) if latencies else float("nan"),
         "max": max(latencies) if latencies else float("nan"), "problems": problems,
         "all": latencies, "probe_wait": median(waits), "probe_tail": median(tails),
         "busy_after_end": busy_after_end}
    note(f"median {ms(r['median'])} (range {ms(r['min'])}-{ms(r['max'])}, n={r['n']})")
    note(f"of which: END -> our next quiet probe {ms(r['probe_wait'])}, that probe -> retry BEGIN "
         f"{ms(r['probe_tail'])} (medians); probes after END that found the channel busy: {busy_after_end}")
    for p in problems:
        note("note:", p)
    return r


def measure_failure(ctx):
    """4. Time to a verdict when audio is broken, and when the server is absent."""
    say("\n[4] verdict on failure")
    cap = ctx.spd_cap
    r = {"broken": {"a": [], "s": []}, "absent": {"a": [], "s": []}, "cap": cap}
    for i in range(ctx.failure_reps):
        env_b = ctx.ws.start_stack(f"b{i}", broken=True)
        env = client_env(ctx.ws, env_b["SPEECHD_ADDRESS"])
        t, rc = run_timed([ctx.announce, SAVED], env, 60, ctx.ws)
        r["broken"]["a"].append((t, rc))
        ctx.ws.stop_stack(env_b["TESTSTACK_DIR"])
    # A fresh broken daemon for spd-say, which waits for ever.
    env_b = ctx.ws.start_stack("bs", broken=True)
    env = client_env(ctx.ws, env_b["SPEECHD_ADDRESS"])
    t, rc = run_timed(["spd-say", "-w", SAVED], env, cap, ctx.ws)
    r["broken"]["s"].append((t, rc))
    ctx.ws.stop_stack(env_b["TESTSTACK_DIR"])
    absent = "unix_socket:" + ctx.ws.path("absent.sock")
    env = client_env(ctx.ws, absent)
    for _ in range(ctx.reps):
        r["absent"]["a"].append(run_timed([ctx.announce, SAVED], env, 30, ctx.ws))
        r["absent"]["s"].append(run_timed(["spd-say", "-w", SAVED], env, cap, ctx.ws))

    def summary(runs):
        times = [t for t, _ in runs]
        codes = sorted({"killed at cap" if rc is None else f"exit {rc}" for _, rc in runs})
        return median(times), ", ".join(codes)

    for kind in ("broken", "absent"):
        for who in ("a", "s"):
            t, codes = summary(r[kind][who])
            r[kind][who + "_median"], r[kind][who + "_codes"] = t, codes
        note(f"{kind:6}: announce {sec(r[kind]['a_median'])} ({r[kind]['a_codes']}); "
             f"spd-say {sec(r[kind]['s_median'])} ({r[kind]['s_codes']})")
    return r


def measure_detach(ctx):
    """5. How long `announce --detach` keeps its caller (a shell hook) waiting."""
    say("\n[5] detach latency")
    if "--detach" not in ctx.help_text:
        note("not available: announce --help has no --detach")
        return {"available": False}
    times, codes = [], []
    for i in range(ctx.reps + 1):
        value = f"{ctx.ws.dir}/detach{i}"
        env = client_env(ctx.ws, ctx.address, {MARKER: value})
        t, rc = run_timed([ctx.announce, "--detach", SAVED], env, 20, ctx.ws)
        if i > 0:
            times.append(t)
            codes.append(rc)
        # Let the background delivery finish before the next run.
        deadline = now() + 15
        while ctx.ws.marked_pids(value) and now() < deadline:
            time.sleep(0.05)
        for pid in ctx.ws.marked_pids(value):
            os.kill(pid, signal.SIGKILL)
    r = {"available": True, "median": median(times), "max": max(times),
         "codes": sorted({f"exit {c}" if c is not None else "killed" for c in codes})}
    note(f"median {ms(r['median'])}, max {ms(r['max'])} ({', '.join(r['codes'])})")
    return r


def measure_core(ctx):
    """6a. The Swift benchmark: announcements per second with an instant backend."""
    say("\n[6] core throughput (Benchmarks/CoreThroughput, instant fake backend)")
    args = [ctx.core] + (["--quick"] if ctx.quick else [])
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=1800)
    if p.returncode != 0:
        sys.stdout.write(p.stdout)
        raise BenchError("CoreThroughput failed")
    r = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["RESULT"]:
            r[parts[1]] = {"median": float(parts[2]), "best": float(parts[3]), "us": float(parts[4])}
        elif parts[:1] == ["PEAK_RSS_KIB"]:
            r["million_rss"] = int(parts[1]) * 1024
            r["million_count"] = int(parts[2])
        elif line.strip():
            note(line)
    return r


def read_status(pid):
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "VmHWM"):
                    out[k] = int(v.split()[0]) * 1024
    except OSError:
        pass
    return out


def measure_flood_rss(ctx):
    """6b. Peak RSS while 1,000,000 lines arrive on standard input."""
    total = ctx.flood_lines
    say(f"\n[6b] peak RSS for {total:,} stdin lines (default queue bound)")
    env = client_env(ctx.ws, ctx.address)
    p = ctx.ws.spawn([ctx.announce, "--quiet", "--rate", "100", "--timeout", "0"], env,
                     stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    written = [0]
    done = threading.Event()

    def writer():
        chunk = 2000
        try:
            for start in range(1, total + 1, chunk):
                block = "".join(f"Flood line {n}\n" for n in range(start, min(start + chunk, total + 1)))
                p.stdin.write(block.encode())
                p.stdin.flush()
                written[0] = min(start + chunk - 1, total)
        except (BrokenPipeError, OSError, ValueError):
            pass
        done.set()

    threading.Thread(target=writer, daemon=True).start()
    peak = rss = 0
    last_progress, last_written = now(), 0
    start = now()
    state = "cap"
    while now() - start < ctx.flood_cap:
        st = read_status(p.pid)
        if not st:
            state = "exited"
            break
        peak, rss = max(peak, st.get("VmHWM", 0)), st.get("VmRSS", 0)
        if written[0] != last_written:
            last_written, last_progress = written[0], now()
        if done.is_set():
            time.sleep(2)  # let it take what is left in the pipe
            st = read_status(p.pid)
            peak = max(peak, st.get("VmHWM", 0))
            state = "read everything"
            break
        if now() - last_progress > 3:
            state = "back-pressure"
            break
        time.sleep(0.1)
    elapsed = now() - start
    accepted = written[0]
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    try:
        p.stdin.close()
    except OSError:
        pass
    r = {"lines": total, "accepted": accepted, "peak": peak, "rss": rss, "state": state,
         "elapsed": elapsed, "exit": p.returncode}
    how = {"back-pressure": f"stdin paused after {accepted:,} lines had been written (back-pressure)",
           "read everything": f"all {accepted:,} lines were written",
           "exited": "announce exited", "cap": f"cap of {ctx.flood_cap} s reached"}[state]
    note(f"peak RSS {peak / MIB:.1f} MiB; {how}, {elapsed:.1f} s; exit {p.returncode} after SIGTERM")
    return r


# --------------------------------------------------------------- soak


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
    by_text = {t: {"queued": 0, "final": []} for t in texts}
    id_text = {}
    state = {"finished": 0, "bad": [], "events": collections.Counter(), "reasons": collections.Counter(),
             "interrupted": 0}
    lock = threading.Condition()

    def reader():
        for raw in p.stdout:
            try:
                ev = json.loads(raw)
            except ValueError:
                with lock:
                    state["bad"].append(f"not JSON: {raw[:80]!r}")
                continue
            kind = ev.get("event")
            with lock:
                state["events"][kind] += 1
                if kind == "queued":
                    id_text[ev.get("id")] = ev.get("text")
                    if ev.get("text") in by_text:
                        by_text[ev["text"]]["queued"] += 1
                    else:
                        state["bad"].append(f"queued unknown text {ev.get('text')!r}")
                elif kind in ("spoken", "gave-up"):
                    text = id_text.get(ev.get("id"), ev.get("text"))
                    if text in by_text:
                        by_text[text]["final"].append(kind if kind == "spoken" else "gave-up:" + str(ev.get("reason")))
                    else:
                        state["bad"].append(f"outcome for unknown text {text!r}")
                    if kind == "gave-up":
                        state["reasons"][ev.get("reason")] += 1
                    state["finished"] += 1
                    lock.notify_all()
                elif kind == "interrupted":
                    state["interrupted"] += 1
        with lock:
            lock.notify_all()

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
    threads = [threading.Thread(target=f, daemon=True) for f in (reader, sampler, interrupter)]
    for t in threads:
        t.start()
    window = 8  # lines written but without an outcome: keeps any queue bound out of play
    hung = False
    try:
        for i, text in enumerate(texts):
            with lock:
                while i - state["finished"] >= window and p.poll() is None:
                    if now() - start > cap:
                        raise TimeoutError
                    lock.wait(0.5)
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
    missing = [t for t, v in by_text.items() if not v["final"]]
    doubled = [t for t, v in by_text.items() if len(v["final"]) > 1]
    unqueued = [t for t, v in by_text.items() if v["queued"] != 1]
    outcomes = collections.Counter(v["final"][0].split(":")[0] for v in by_text.values() if v["final"])
    half = len(samples) // 2
    first, last = samples[:half], samples[half:]
    margin = max(2 * MIB, 0.05 * (max(first) if first else 0))
    flat = bool(first and last) and max(last) <= max(first) + margin
    expected_exit = 0 if outcomes.get("gave-up", 0) == 0 else 1
    ok = not hung and not missing and not doubled and not unqueued and not state["bad"] \
        and p.returncode == expected_exit
    r = {"lines": lines, "wall": wall, "hung": hung, "exit": p.returncode, "expected_exit": expected_exit,
         "spoken": outcomes.get("spoken", 0), "gave_up": outcomes.get("gave-up", 0),
         "reasons": dict(state["reasons"]), "missing": len(missing), "doubled": len(doubled),
         "unqueued": len(unqueued), "bad": state["bad"][:5], "interruptions": interruptions[0],
         "interrupted_events": state["interrupted"], "samples": len(samples),
         "rss_first_max": max(first) if first else 0, "rss_last_max": max(last) if last else 0,
         "rss_min": min(samples) if samples else 0, "rss_median": median(samples) if samples else 0,
         "flat": flat, "ok": ok, "seed": seed}
    note(f"wall {wall:.1f} s; spoken {r['spoken']}, gave up {r['gave_up']} {r['reasons'] or ''}; "
         f"missing {r['missing']}, doubled {r['doubled']}; hung: {'YES' if hung else 'no'}; "
         f"exit {p.returncode} (expected {expected_exit})")
    note(f"{interruptions[0]} interruptions sent, {state['interrupted']} interrupted events")
    if samples:
        note(f"VmRSS over {len(samples)} samples: min {r['rss_min'] / MIB:.1f}, median "
             f"{r['rss_median'] / MIB:.1f}, max first half {r['rss_first_max'] / MIB:.1f}, "
             f"max second half {r['rss_last_max'] / MIB:.1f} MiB -> {'flat' if flat else 'GROWING'}")
    for b in r["bad"]:
        note("bad:", b)
    note("soak", "PASSED" if ok else "FAILED")
    return r


# --------------------------------------------------------------- report


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
    return {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "host": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpu": f"{cpu}, {os.cpu_count()} cores, {mem} RAM",
        "load": load,
        "swift": version(["swift", "--version"]),
        "speechd": version(["speech-dispatcher", "--version"]),
        "espeak": version(["espeak-ng", "--version"]),
        "commit": (git("rev-parse", "--short", "HEAD") or "?") + dirty,
    }


def goal(ok):
    return "n/a" if ok is None else ("met" if ok else "MISSED")


def table_rows(res):
    rows = []
    o = res.get("overhead")
    if o:
        rows.append(("1. Overhead, `\"Saved\"` wall time", sec(o["announce_median"]), sec(o["spdsay_median"]),
                     f"ratio median {o['ratio_median']:.3f} (IQR {o['ratio_p25']:.3f}-{o['ratio_p75']:.3f},"
                     f" range {o['ratio_min']:.3f}-{o['ratio_max']:.3f}, {o['pairs']} pairs)",
                     "≤ 1.03", goal(o["ratio_median"] <= 1.03)))
    c = res.get("cold")
    if c:
        rows.append(("2. Cold start, exec → queued in daemon", ms(c["a"]["queued"]), ms(c["s"]["queued"]),
                     f"medians of {c['n']['a']} / {c['n']['s']}", "", ""))
        rows.append(("2. Cold start, exec → BEGIN", ms(c["a"]["begin"]), ms(c["s"]["begin"]),
                     f"difference {ms(c['a']['begin'] - c['s']['begin'])}", "", ""))
    r = res.get("retry")
    if r:
        rows.append(("3. Retry latency, interrupter END → retry BEGIN", ms(r["median"]), "no retry",
                     f"range {ms(r['min'])}-{ms(r['max'])}, n={r['n']}", "≤ 150 ms",
                     goal(r["median"] <= 0.150) if r["n"] else "n/a"))
    f = res.get("failure")
    if f:
        b, a = f["broken"], f["absent"]
        s_broken = ("never: killed at the cap of " + sec(f["cap"])) if "killed" in b["s_codes"] \
            else f"{sec(b['s_median'])} ({b['s_codes']})"
        rows.append(("4. Verdict, broken audio", f"{sec(b['a_median'])} ({b['a_codes']})", s_broken, "", "", ""))
        rows.append(("4. Verdict, server absent", f"{ms(a['a_median'])} ({a['a_codes']})",
                     f"{ms(a['s_median'])} ({a['s_codes']})", "", "", ""))
    d = res.get("detach")
    if d is not None:
        if d.get("available"):
            rows.append(("5. Detach latency (`--detach`)", ms(d["median"]), "n/a",
                         f"max {ms(d['max'])}", "≤ 20 ms", goal(d["median"] <= 0.020)))
        else:
            rows.append(("5. Detach latency", "not available", "n/a", "no `--detach` in this build", "≤ 20 ms", "n/a"))
    k = res.get("core")
    if k:
        q = k.get("queue", {})
        s = k.get("stream", {})
        rows.append(("6. Core throughput: queue and state machine (instant answers)",
                     f"{q.get('median', 0):,.0f} /s", "n/a",
                     f"best {q.get('best', 0):,.0f} /s; {q.get('us', 0):.1f} µs each",
                     "≥ 100,000 /s", goal(q.get("median", 0) >= 100_000)))
        rows.append(("6. Through the async driver (Announcer, instant backend)", f"{s.get('median', 0):,.0f} /s", "n/a",
                     f"best {s.get('best', 0):,.0f} /s; with JSON events {k.get('stream+json', {}).get('median', 0):,.0f} /s;"
                     f" one at a time {k.get('sequential', {}).get('us', 0):.1f} µs each",
                     "", ""))
        if "million_rss" in k:
            rows.append((f"6. Core peak RSS, {k['million_count']:,} announcements (instant backend)",
                         f"{k['million_rss'] / MIB:.1f} MiB", "n/a", "whole benchmark process", "", ""))
    fl = res.get("flood")
    if fl:
        rows.append((f"6. Peak RSS, {fl['lines']:,} stdin lines", f"{fl['peak'] / MIB:.1f} MiB", "n/a",
                     f"{fl['state']}: {fl['accepted']:,} lines written", "≤ 32 MiB", goal(fl["peak"] <= 32 * MIB)))
    sk = res.get("soak")
    if sk:
        rows.append((f"Soak, {sk['lines']} lines, random interruptions",
                     f"{'PASSED' if sk['ok'] else 'FAILED'} in {sec(sk['wall'])}", "n/a",
                     f"spoken {sk['spoken']}, gave up {sk['gave_up']}, missing {sk['missing']}, doubled {sk['doubled']},"
                     f" hung {'yes' if sk['hung'] else 'no'}; VmRSS max {sk['rss_first_max'] / MIB:.1f} → "
                     f"{sk['rss_last_max'] / MIB:.1f} MiB ({'flat' if sk['flat'] else 'growing'})",
                     "every line one outcome, no hang, flat RSS",
                     goal(sk["ok"] and sk["flat"])))
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


def write_markdown(path, res, info, mode):
    rows = table_rows(res)
    out = [BEGIN_MARK, "", f"## Latest run ({mode})", ""]
    out += [f"- Date: {info['date']}", f"- Machine: {info['host']}; {info['cpu']}; load average at the end "
            f"{info['load']}", f"- Commit: {info['commit']}", f"- {info['swift']}; {info['speechd']}; "
            f"{info['espeak']}", ""]
    out += ["| figure | announce | spd-say | detail | goal | |", "|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    out.append("")
    retry = res.get("retry")
    if retry and retry.get("all"):
        out.append("Retry latencies (ms): " + ", ".join(f"{x * 1000:.0f}" for x in sorted(retry["all"])) + ".")
        out.append("")
    out += [END_MARK]
    block = "\n".join(out) + "\n"
    if os.path.exists(path):
        text = open(path).read()
        if BEGIN_MARK in text and END_MARK in text:
            pre, rest = text.split(BEGIN_MARK, 1)
            post = rest.split(END_MARK, 1)[1]
            text = pre + block.rstrip("\n") + post
        else:
            text = text.rstrip("\n") + "\n\n" + block
    else:
        text = "# Benchmarks\n\nWritten by `bench/run`; see the README's Benchmarks section.\n\n" + block
    with open(path, "w") as f:
        f.write(text)
    say(f"\nwrote {os.path.relpath(path, ROOT)}")


# --------------------------------------------------------------- main


def need_tools():
    for tool in ("spd-say", "speech-dispatcher", "pulseaudio", "parec", "timeout"):
        if shutil.which(tool) is None:
            raise BenchError(f"{tool} is not installed; run scripts/setup first.")
    if not os.access(TESTSTACK, os.X_OK):
        raise BenchError(f"{TESTSTACK} is missing or not executable.")


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/run", description=(
        "Benchmarks announce against spd-say on one private speech-dispatcher, and runs the "
        "soak test. Writes BENCHMARKS.md in full mode."))
    ap.add_argument("--quick", action="store_true",
                    help="smoke test for CI: few repetitions, a 50-line soak, 100,000 flood lines; "
                         "prints the figures, asserts no goal, does not write BENCHMARKS.md")
    ap.add_argument("--soak", action="store_true", help="also run the 1,000-line soak test")
    ap.add_argument("--soak-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--lines", type=int, default=None, help="soak lines (default 1000, 50 with --quick)")
    ap.add_argument("--pairs", type=int, default=None, help="overhead pairs (default 20, 4 with --quick)")
    ap.add_argument("--seed", type=int, default=None, help="seed for the soak's interruptions")
    ap.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"), help="where to write the results")
    ap.add_argument("--no-write", action="store_true", help="do not write BENCHMARKS.md")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (logs) under /tmp")
    args = ap.parse_args(argv)

    need_tools()
    bin_path = build(["announce"] if args.soak_only else ["announce", "CoreThroughput"])

    class Ctx:
        pass

    ctx = Ctx()
    ctx.quick = args.quick
    ctx.announce = os.path.join(bin_path, "announce")
    ctx.core = os.path.join(bin_path, "CoreThroughput")
    ctx.pairs = args.pairs or (4 if args.quick else 20)
    ctx.reps = 3 if args.quick else 10
    ctx.failure_reps = 1 if args.quick else 3
    ctx.spd_cap = 6.0 if args.quick else 20.0
    ctx.flood_lines = 100_000 if args.quick else 1_000_000
    ctx.flood_cap = 60 if args.quick else 180
    ctx.seed = args.seed if args.seed is not None else random.randrange(1, 1_000_000)
    help_run = subprocess.run([ctx.announce, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, timeout=20)
    if help_run.returncode != 0:
        raise BenchError(f"{ctx.announce} --help failed: {help_run.stdout[-500:]}")
    ctx.help_text = help_run.stdout

    ws = Workspace(keep=args.keep)
    ctx.ws = ws

    def on_signal(signum, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    res = {}
    try:
        say(f"starting a private stack in {ws.dir} ...")
        env = ws.start_stack("s")
        ctx.address = env["SPEECHD_ADDRESS"]
        sock = ctx.address.split(":", 1)[1]
        if args.soak_only:
            lines = args.lines or (50 if args.quick else 1000)
            res["soak"] = soak(ctx, lines)
            print_table(res)
            return 0 if res["soak"]["ok"] else 1
        res["overhead"] = measure_overhead(ctx)
        ctx.proxy = SSIPProxy(ws.path("p.sock"), sock)
        res["cold"] = measure_cold_start(ctx)
        res["retry"] = measure_retry(ctx)
        ctx.proxy.close()
        res["detach"] = measure_detach(ctx)
        res["flood"] = measure_flood_rss(ctx)
        if args.soak or args.quick:
            lines = args.lines or (50 if args.quick else 1000)
            res["soak"] = soak(ctx, lines)
        ws.stop_stack(env["TESTSTACK_DIR"])
        res["failure"] = measure_failure(ctx)
        res["core"] = measure_core(ctx)
    finally:
        ws.close()
    print_table(res)
    info = machine()
    if not args.quick and not args.no_write:
        write_markdown(args.output, res, info, "bench/run --soak" if args.soak else "bench/run")
    if res.get("soak") and not res["soak"]["ok"]:
        say("\nThe soak test FAILED: some line did not end in exactly one outcome, or announce hung.")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        print(f"bench: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        sys.exit(130)
