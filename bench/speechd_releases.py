#!/usr/bin/env python3
"""Measures what differs between speech-dispatcher releases, on the wire.

    bench/speechd_releases.py [--runs N] [--release 12|13 ...]

For each release it starts a private stack with Tests/Support/teststack (through
announce_bench's Workspace, as bench/run does), talks SSIP to it directly (no libspeechd,
no announce), records the null sink, and prints one table: how each form of quiet probe
behaves on an idle channel (time from BEGIN to END, and whether it made a sound), how
soon a probe after another client's END is answered, how soon after a screen reader's
"CANCEL self" the channel reads as quiet, and the timings of a short message.
docs/speech-dispatcher.md reports its figures.
Standard library only.
"""

import argparse
import os
import socket
import statistics
import subprocess
import sys
import threading
import time

from announce_bench.workspace import TESTSTACK, BenchError, Workspace, debian13_root

EVENTS = {"700": "mark", "701": "begin", "702": "end", "703": "cancel", "704": "pause", "705": "resume"}


class Client:
    """One SSIP connection: commands get their replies in order; events are timestamped."""

    def __init__(self, path, name):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.lock = threading.Condition()
        self.replies = []
        self.events = []  # (time, kind, message id, extra)
        self.pending = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.command(f"SET SELF CLIENT_NAME user:{name}:main")
        self.command("SET SELF NOTIFICATION ALL on")

    def read(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            t = time.monotonic()
            *lines, buffer = (buffer + chunk).split(b"\r\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace")
                code, sep = line[:3], line[3:4]
                with self.lock:
                    if code in EVENTS:
                        if sep == "-":
                            self.pending.append(line[4:])
                        else:
                            mid = int(self.pending[0]) if self.pending else None
                            extra = self.pending[2] if len(self.pending) > 2 else None
                            self.events.append((t, EVENTS[code], mid, extra))
                            self.pending = []
                    elif sep == "-":
                        self.pending.append(line[4:])
                    else:
                        self.replies.append((line, self.pending))
                        self.pending = []
                    self.lock.notify_all()

    def command(self, line, data=None):
        with self.lock:
            count = len(self.replies)
        payload = line + "\r\n"
        if data is not None:
            self.sock.sendall(payload.encode())
            with self.lock:
                self.lock.wait_for(lambda: len(self.replies) > count, 5)
                count = len(self.replies)
            body = "\r\n".join(".." + l if l.startswith(".") else l for l in data.split("\n"))
            payload = body + "\r\n.\r\n"
        sent = time.monotonic()
        self.sock.sendall(payload.encode())
        with self.lock:
            if not self.lock.wait_for(lambda: len(self.replies) > count, 5):
                raise RuntimeError(f"no reply to {line}")
            reply, extra = self.replies[count]
        return sent, reply, extra

    def say(self, text, priority="text", ssml=True):
        self.command(f"SET SELF SSML_MODE {'on' if ssml else 'off'}")
        self.command(f"SET SELF PRIORITY {priority}")
        sent, reply, extra = self.command("SPEAK", text)
        return sent, int(extra[0]) if extra else None

    def wait(self, mid, kinds=("end", "cancel"), timeout=10.0):
        with self.lock:
            self.lock.wait_for(lambda: self.first(mid, kinds) is not None, timeout)
            return self.first(mid, kinds)

    def first(self, mid, kinds):
        for t, kind, m, _ in self.events:
            if m == mid and kind in kinds:
                return t, kind
        return None

    def close(self):
        try:
            self.command("QUIT")
        except (OSError, RuntimeError):
            pass
        self.sock.close()


def record(ws, stack, path):
    """Records the stack's null sink into `path` until terminated."""
    return ws.spawn([TESTSTACK, "record", stack["TESTSTACK_DIR"], path], env=os.environ)


def speech_seconds(path):
    out = subprocess.run([TESTSTACK, "speech-seconds", path], capture_output=True, text=True)
    return float(out.stdout.strip() or 0)


def socket_of(stack):
    return stack["SPEECHD_ADDRESS"].split(":", 1)[1]


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def median(values):
    return statistics.median(values) if values else float("nan")


PROBES = [
    ("SSML one space", " ", True),
    ("SSML <speak></speak> (announce)", "<speak></speak>", True),
    ("text mode empty", "", False),
    ("text mode one space", " ", False),
]


def measure(release, runs, ws):
    stack = ws.start_stack(f"r{release}", release)
    rows = {}
    try:
        client = Client(socket_of(stack), "measure")
        other = Client(socket_of(stack), "other")
        version = stack.get("TESTSTACK_SPEECHD_VERSION", "?")
        # A short message: say → BEGIN, BEGIN → END.
        begins, totals = [], []
        for _ in range(runs):
            sent, mid = client.say("<speak>Saved<mark name=\"m\"/></speak>")
            done = client.wait(mid)
            begin = client.first(mid, ("begin",))
            if begin and done:
                begins.append(begin[0] - sent)
                totals.append(done[0] - sent)
        rows["\"Saved\": SPEAK → BEGIN, ms"] = ms(median(begins))
        rows["\"Saved\": SPEAK → END, ms"] = ms(median(totals))
        # Probe forms on an idle channel, recorded.
        for label, text, ssml in PROBES:
            path = ws.path(f"probe-{release}-{len(rows)}.raw")
            recorder = record(ws, stack, path)
            time.sleep(0.4)
            spans, ends = [], 0
            for _ in range(runs):
                _, mid = client.say(text, priority="notification", ssml=ssml)
                done = client.wait(mid, timeout=3)
                begin = client.first(mid, ("begin",))
                if done and done[1] == "end":
                    ends += 1
                    if begin:
                        spans.append(done[0] - begin[0])
            time.sleep(0.3)
            recorder.terminate()
            recorder.wait()
            sound = speech_seconds(path)
            rows[f"probe {label}: BEGIN → END, ms"] = f"{ms(median(spans))} ({ends}/{runs} END)"
            rows[f"probe {label}: sound for {runs} probes, s"] = f"{sound:.2f}"
        # Another client's message ends; how soon is a probe sent then answered with END?
        delays = []
        for _ in range(runs):
            _, mid = other.say("<speak>Interrupting</speak>", priority="message")
            done = other.wait(mid)
            _, probe = client.say("<speak></speak>", priority="notification")
            answer = client.wait(probe, timeout=3)
            if done and answer and answer[1] == "end":
                delays.append(answer[0] - done[0])
        rows["other client's END → probe's END, ms"] = ms(median(delays))
        # A screen reader cancels its own speech (CANCEL self) and speaks again later:
        # probes sent one after another from the CANCEL on; when does the first read quiet?
        first_busy, quiet_after, busy_counts = 0, [], []
        for _ in range(runs):
            _, mid = other.say("<speak>This is a long line that a screen reader reads</speak>",
                               priority="message")
            other.wait(mid, kinds=("begin",))
            time.sleep(0.2)
            cancelled = time.monotonic()
            other.command("CANCEL self")
            busy = 0
            while time.monotonic() - cancelled < 2:
                _, probe = client.say("<speak></speak>", priority="notification")
                answer = client.wait(probe, timeout=3)
                if answer and answer[1] == "end":
                    quiet_after.append(answer[0] - cancelled)
                    break
                busy += 1
            busy_counts.append(busy)
            first_busy += busy > 0
            time.sleep(0.2)
        rows["CANCEL self, then probes back to back: first one busy"] = f"{first_busy}/{runs}"
        rows["CANCEL self → first quiet probe's END, ms"] = ms(median(quiet_after))
        rows["busy probes before it (median)"] = f"{median(busy_counts):.0f}"
        client.close()
        other.close()
        return version, rows
    finally:
        ws.stop_stack(stack["TESTSTACK_DIR"])


def activation(release, ws):
    """Seconds from the first connection to the END of the first message."""
    stack = ws.start_stack(f"a{release}", release, socket_activated=True)
    try:
        start = time.monotonic()
        try:
            client = Client(socket_of(stack), "first")
            _, mid = client.say("<speak>Hello</speak>")
            done = client.wait(mid, timeout=20)
        except (OSError, RuntimeError):
            return "no answer"
        return f"{time.monotonic() - start:.2f} s" if done else "no END in 20 s"
    finally:
        ws.stop_stack(stack["TESTSTACK_DIR"])


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/speechd_releases.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--release", action="append", choices=["12", "13"])
    args = ap.parse_args(argv)
    releases = args.release or ["12", "13"]
    columns = {}
    ws = Workspace()
    try:
        if "13" in releases:
            debian13_root()
        for release in releases:
            version, rows = measure(release, args.runs, ws)
            rows["socket-activated: connect → first END"] = activation(release, ws)
            columns[f"{version} (Debian {release})"] = rows
    except BenchError as e:
        print(f"speechd_releases.py: {e}", file=sys.stderr)
        return 1
    finally:
        ws.close()
    names = list(next(iter(columns.values())))
    print("| measured (median of %d) | %s |" % (args.runs, " | ".join(columns)))
    print("|---|" + "---|" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(rows.get(name, "") for rows in columns.values()) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
