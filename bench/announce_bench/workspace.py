"""The work directory, its private stacks and processes, and the release build."""

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

from .stats import now, say

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTSTACK = os.path.join(ROOT, "Tests", "Support", "teststack")
DEBIAN13_ROOT = os.path.join(ROOT, "scripts", "debian13-root")
MARKER = "ANNOUNCE_BENCH_OWNER"  # in the environment of every client we start


class BenchError(Exception):
    """The benchmark itself cannot go on: a tool is missing, a build or a stack failed."""


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

    def start_stack(self, name, release, broken=False, socket_activated=False):
        """Starts a private stack on Debian `release`'s speech-dispatcher; returns its env file as a dict.

        With `socket_activated`, speech-dispatcher starts on the first connection, as
        0.12's speech-dispatcher.socket unit starts it."""
        d = self.path(name)
        self.stacks.append(d)
        args = ([TESTSTACK, "start", d] + (["--broken-audio"] if broken else [])
                + (["--socket-activated"] if socket_activated else []))
        env = {k: v for k, v in os.environ.items() if not k.startswith("TESTSTACK_")}
        env["TESTSTACK_RELEASE"] = release
        r = subprocess.run(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=90)
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
        for pid in self.marked_pids(self.dir):
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


def debian13_root():
    """Makes the Debian 13 root when it is missing (scripts/debian13-root needs root for that); its path."""
    r = subprocess.run([DEBIAN13_ROOT], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise BenchError("scripts/debian13-root could not make the Debian 13 root; see its message above, "
                         "or measure Debian 12 only with --release 12.")
    return r.stdout.strip()


def package_version(package, root=""):
    """The Debian version of `package` on this machine, or in the release root `root`."""
    admin = [f"--admindir={root}/var/lib/dpkg"] if root else []
    try:
        r = subprocess.run(["dpkg-query", *admin, "-W", "-f=${Version}", package], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else "?"


def client_env(ws, address, extra=None):
    """The environment of a client on `address`, with nothing of the caller's speech setup."""
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


def build(products):
    """Builds `products` as `make install` does; returns the binary directory."""
    if shutil.which("swift") is None:
        raise BenchError("swift is not on PATH; install the Swift 6 toolchain (see README).")
    # As `make install` and `make deb` build it, with the Makefile's own flags and folder, so
    # that the binary measured is the one users install and one release build serves all
    # three: the Swift runtime linked in (it starts about twice as fast as a build that loads
    # the runtime's shared objects), and the linker settings of the glibc at hand.
    flags = subprocess.run(["make", "-s", "install-build-flags"], cwd=ROOT, stdout=subprocess.PIPE,
                           text=True, check=True).stdout.split()
    if "--scratch-path" not in flags:
        raise BenchError("make install-build-flags printed no --scratch-path; the Makefile and bench disagree.")
    common = ["swift", "build"] + flags
    scratch = flags[flags.index("--scratch-path") + 1]
    for product in products:
        say(f"building {product} (release, static Swift runtime, {scratch}) ...")
        r = subprocess.run(common + ["--product", product], cwd=ROOT, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout[-4000:])
            raise BenchError(f"swift build --product {product} failed")
    r = subprocess.run(common + ["--show-bin-path"], cwd=ROOT, stdout=subprocess.PIPE, text=True, check=True)
    return r.stdout.strip()


def run_timed(args, env, timeout, ws=None, stdin=subprocess.DEVNULL):
    """(seconds, exit status or None when killed at the cap).

    The wait blocks in waitpid and a timer kills the run at the cap. Popen.wait(timeout=...)
    instead polls with sleeps that grow to 50 ms, so an exit was seen up to 50 ms late, at
    the same points after the start for every run: `spd-say -w "Saved"` measured 0.817 s
    or 0.867 s and nothing between, and the overhead ratio fell into two groups 5 % apart.
    """
    start = now()
    p = subprocess.Popen(args, env=env, stdin=stdin, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    if ws:
        ws.procs.append(p)
    capped = threading.Event()

    def kill_at_cap():
        capped.set()
        p.kill()

    timer = threading.Timer(timeout, kill_at_cap)
    timer.daemon = True
    timer.start()
    try:
        rc = p.wait()
    finally:
        timer.cancel()
    elapsed = now() - start
    return (elapsed, None) if capped.is_set() else (elapsed, rc)


def read_status(pid):
    """VmRSS and VmHWM of `pid` in bytes; empty when it has gone."""
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
