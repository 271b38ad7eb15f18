"""A unix-socket relay to speech-dispatcher that timestamps what passes.

The parsing (SSIPTranscript) is separate from the sockets (SSIPRelay), so that
tests can feed it lines: see bench/tests/test_relay.py.
"""

import collections
import copy
import re
import socket
import threading
from dataclasses import dataclass, field
from typing import Optional

from .stats import now


@dataclass
class Message:
    """One message as speech-dispatcher saw it; times are `stats.now()` values."""

    real: Optional[bool] = None  # False for announce's quiet probe (see is_quiet_probe)
    text: str = ""
    queued: Optional[float] = None  # the 225 reply
    begin: Optional[float] = None
    end: Optional[float] = None
    cancel: Optional[float] = None


@dataclass
class Connection:
    """What one client connection said and heard."""

    cid: int
    opened: float
    client_name: str = ""
    messages: dict = field(default_factory=dict)  # message id -> Message
    order: list = field(default_factory=list)  # message ids in queueing order

    def in_order(self):
        return [self.messages[mid] for mid in self.order]


# announce's quiet probe: an empty SSML document; a single space before it, which
# speech-dispatcher 0.12 speaks as the word "space" (SSMLDocument.silent).
QUIET_PROBE = re.compile(r"\s*(<speak\b[^>]*>\s*</speak>|<speak\b[^>]*/>)?\s*")


def is_quiet_probe(text):
    """Whether a SPEAK data block says nothing: announce's quiet probe, old or new."""
    return QUIET_PROBE.fullmatch(text) is not None


EVENT_KINDS = {"701": "begin", "702": "end", "703": "cancel"}
EVENT_CODES = ("700", "701", "702", "703", "704", "705")


class SSIPTranscript:
    """Parses one connection's SSIP lines (without CR LF) into a Connection.

    Client lines: SET SELF CLIENT_NAME, SPEAK and its data block up to ".".
    Server lines: "225-<id>" then "225 OK MESSAGE QUEUED" for each SPEAK; events as
    "70x-<msg id>", "70x-<client id>", [more "70x-" lines], "70x <TEXT>".
    """

    def __init__(self, connection):
        self.connection = connection
        self.in_data = False
        self.data = []
        self.blocks = collections.deque()  # texts of SPEAK data blocks not yet answered
        self.pending = []  # the "70x-" lines of the event being read

    def client_line(self, line):
        conn = self.connection
        if self.in_data:
            if line == ".":
                self.in_data = False
                self.blocks.append("\n".join(self.data))
            else:
                self.data.append(line)
        elif line.upper() == "SPEAK":
            self.in_data = True
            self.data = []
        elif line.upper().startswith("SET SELF CLIENT_NAME"):
            words = line.split(None, 3)
            conn.client_name = words[3] if len(words) > 3 else ""

    def server_line(self, line, t):
        conn = self.connection
        code, sep = line[:3], line[3:4]
        if code == "225" and sep == "-":
            try:
                mid = int(line[4:])
            except ValueError:
                return
            text = self.blocks.popleft() if self.blocks else ""
            # Events can come before this reply (a discarded probe's CANCEL does).
            msg = conn.messages.setdefault(mid, Message())
            msg.real, msg.queued, msg.text = not is_quiet_probe(text), t, text
            conn.order.append(mid)
        elif code in EVENT_CODES:
            if sep == "-":
                self.pending.append(line[4:])
                return
            kind = EVENT_KINDS.get(code)
            try:
                mid = int(self.pending[0])
            except (IndexError, ValueError):
                mid = None
            self.pending = []
            if kind and mid is not None:
                msg = conn.messages.setdefault(mid, Message())
                if getattr(msg, kind) is None:
                    setattr(msg, kind, t)


def split_lines(buffer, chunk):
    """(complete lines, rest): SSIP lines end in CR LF and may span chunks."""
    *lines, rest = (buffer + chunk).split(b"\r\n")
    return [raw.decode("utf-8", "replace") for raw in lines], rest


class SSIPRelay:
    """Relays a unix socket to speech-dispatcher's, timestamping what passes.

    It records, per client connection, when each message was queued (the 225
    reply), whether it was a real message or announce's silent quiet probe,
    and when BEGIN, END and CANCEL arrived for it.
    """

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
                conn = Connection(cid=len(self.conns), opened=now())
                self.conns.append(conn)
            transcript = SSIPTranscript(conn)
            threading.Thread(target=self._pump, args=(client, upstream, transcript, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client, transcript, False), daemon=True).start()

    def _pump(self, src, dst, transcript, from_client):
        buf = b""
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
            lines, buf = split_lines(buf, chunk)
            with self.lock:
                for line in lines:
                    if from_client:
                        transcript.client_line(line)
                    else:
                        transcript.server_line(line, t)
            try:
                dst.sendall(chunk)
            except OSError:
                pass

    def snapshot(self):
        """A copy of every connection so far, safe to read while the relay runs."""
        with self.lock:
            return copy.deepcopy(self.conns)

    def mark(self):
        """The number of connections so far: pass it as `since` to the helpers below."""
        with self.lock:
            return len(self.conns)

    def close(self):
        self.closed = True
        try:
            self.server.close()
        except OSError:
            pass


def first_real(snapshot, since, name_part=None):
    """The first real message on connections opened since the mark `since`."""
    for conn in snapshot[since:]:
        if name_part and name_part not in conn.client_name:
            continue
        for msg in conn.in_order():
            if msg.real:
                return msg
    return None


def probes_of(snapshot, since):
    """announce's quiet probes (messages that say nothing) on connections since `since`."""
    return [msg for conn in snapshot[since:] if "announce" in conn.client_name
            for msg in conn.in_order() if msg.real is False]
