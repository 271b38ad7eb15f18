#!/usr/bin/env python3
"""Which sentence-boundary index marks does espeak-ng report through speech-dispatcher?

Speaks SSML texts with a mark at every sentence boundary, placed in several ways,
over a raw SSIP connection to $SPEECHD_ADDRESS (unix_socket:PATH), and counts the
marks reported. Run it against the private test stack:

    s=$(mktemp -d /tmp/s.XXXXXX) && Tests/Support/teststack start "$s" && env $(cat "$s"/env) bench/marks.py
"""
import os, socket, sys, time

RUNS = int(sys.argv[1]) if len(sys.argv) > 1 else 3

SENTENCES = [
    ["The first step copied all the files.", "The second step compiled the sources.",
     "The third step ran every test in the suite.", "The fourth step wrote the report."],
    ["Is it done?", "Yes!", "The build finished in 3.14 seconds.", "See the log, e.g. the last line."],
    ["Backup started…", "It copied 12 files.", "Dr. Smith was told."],
    ["line one", "line two", "and line three"],  # joined by line breaks, no punctuation
]

def ends_line(a):
    return a[-1] not in ".!?…"

# Placement: how sentence a and the next one b are joined, with m the mark.
PLACEMENTS = {
    "none": lambda a, b, m: f"{a}{sep(a)}{b}",             # no boundary marks: the baseline
    "after-stop": lambda a, b, m: f"{a}{m}{sep(a)}{b}",    # "one.<mark/> two"
    "after-space": lambda a, b, m: f"{a}{sep(a)}{m}{b}",   # "one. <mark/>two"
    "before-stop": lambda a, b, m: (f"{a}{m}{sep(a)}{b}" if ends_line(a)
                                    else f"{a[:-1]}{m}{a[-1]}{sep(a)}{b}"),  # "one<mark/>. two"
}

def sep(a):
    return "\n" if ends_line(a) else " "

def connect():
    address = os.environ["SPEECHD_ADDRESS"]
    assert address.startswith("unix_socket:")
    s = socket.socket(socket.AF_UNIX)
    s.connect(address.split(":", 1)[1])
    return s

class SSIP:
    def __init__(self):
        self.s = connect(); self.buf = b""; self.events = []
        self.cmd("SET SELF CLIENT_NAME user:marks:main")
        self.cmd("SET SELF SSML_MODE on")
        self.cmd("SET SELF NOTIFICATION ALL on")
    def line(self):
        while b"\r\n" not in self.buf:
            self.buf += self.s.recv(4096)
        l, self.buf = self.buf.split(b"\r\n", 1)
        return l.decode()
    def reply(self):
        lines = []
        while True:
            l = self.line(); lines.append(l)
            if l[3] == " ":
                if l.startswith("7"):  # asynchronous event
                    self.events.append((time.monotonic(), lines)); lines = []; continue
                return lines
    def cmd(self, c):
        self.s.sendall((c + "\r\n").encode()); return self.reply()
    def speak(self, text):
        self.cmd("SPEAK")
        data = "\r\n".join(".." + l if l.startswith(".") else l for l in text.split("\n"))
        r = self.cmd(data + "\r\n.")
        return r[0].split("-", 1)[1]
    def wait_end(self, msg):
        while True:
            for _, ev in self.events:
                if ev[0].split("-", 1)[1] == msg and ev[-1][:3] in ("702", "703"):
                    return
            self.reply_event()
    def reply_event(self):
        lines = []
        while True:
            l = self.line(); lines.append(l)
            if l[3] == " ":
                self.events.append((time.monotonic(), lines)); return

def main():
    c = SSIP()
    c.wait_end(c.speak("<speak>warm up</speak>"))
    for name, join in PLACEMENTS.items():
        got = total = 0
        lost = {}
        durations = []
        for _ in range(RUNS):
            for sents in SENTENCES:
                text = sents[0]
                for i, b in enumerate(sents[1:], 1):
                    text = join(text, b, f'<mark name="b{i}"/>')
                c.events = []
                sent = time.monotonic()
                msg = c.speak(f"<speak>{text}<mark name=\"final\"/></speak>")
                c.wait_end(msg)
                ours = [(t, ev) for t, ev in c.events if ev[0].split("-", 1)[1] == msg]
                begin = next(t for t, ev in ours if ev[-1].startswith("701"))
                end = next(t for t, ev in ours if ev[-1][:3] in ("702", "703"))
                durations.append(end - begin)
                marks = {ev[2].split("-", 1)[1]: t for t, ev in ours if ev[-1].startswith("700")}
                for i in range(1, len(sents)):
                    if name == "none": continue
                    total += 1
                    if f"b{i}" in marks: got += 1
                    else:
                        key = sents[i - 1][-1] if not ends_line(sents[i - 1]) else "line break"
                        lost[key] = lost.get(key, 0) + 1
        per_run = sum(durations) / RUNS
        print(f"{name:12} {got:2}/{total:2} boundary marks reported; lost after: {lost or 'none'};"
              f" speaking time of the four texts {per_run:.2f} s")

main()
