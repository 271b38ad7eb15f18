"""Medians, quantiles and the units the report prints."""

import statistics
import time

MIB = 1024 * 1024
NAN = float("nan")


def now():
    return time.perf_counter()


def say(*parts):
    print(*parts, flush=True)


def note(*parts):
    print("  ", *parts, flush=True)


def median(xs):
    return statistics.median(xs) if xs else NAN


def quantile(xs, q):
    if not xs:
        return NAN
    s = sorted(xs)
    pos = (len(s) - 1) * q
    lo, hi = int(pos), min(int(pos) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def ms(seconds):
    return "n/a" if seconds is None or seconds != seconds else f"{seconds * 1000:.0f} ms"


def sec(seconds):
    return "n/a" if seconds is None or seconds != seconds else f"{seconds:.2f} s"
