"""Unit tests of the report's inputs and output: python3 -m unittest discover -s bench/tests"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from announce_bench.report import (BEGIN_MARK, END_MARK, Machine, ReleaseFigures, Results, grid_lines,  # noqa: E402
                                   release_head, release_notes, release_rows, render_section, replace_section,
                                   table_rows)
from announce_bench.scenarios import (ColdStart, Failure, Overhead, Retry, StartTimes, Verdicts,  # noqa: E402
                                      parse_core_output)
from announce_bench.waiting import WaitingRun  # noqa: E402

CORE_OUTPUT = """\
stream: 10000 announcements x 5 runs
RESULT stream 250000 260000 4.000
RESULT queue 900000 950000 1.111
RESULT sequential 50000 52000 20.000
RESULT stream+json 100000 110000 10.000
PEAK_RSS_KIB 20480 1000000
"""


class CoreOutputTests(unittest.TestCase):
    def test_results_peak_rss_and_other_lines(self):
        core, other = parse_core_output(CORE_OUTPUT)
        self.assertEqual(core.stream.median, 250000)
        self.assertEqual(core.queue.best, 950000)
        self.assertEqual(core.sequential.us, 20.0)
        self.assertEqual((core.million_rss, core.million_count), (20480 * 1024, 1000000))
        self.assertEqual(other, ["stream: 10000 announcements x 5 runs"])

    def test_the_table_has_no_json_stream_figure(self):
        core, _ = parse_core_output(CORE_OUTPUT)
        text = " ".join(" ".join(row) for row in table_rows(Results(core=core)))
        self.assertNotIn("JSON", text)
        self.assertIn("250,000 /s", text)


class SectionTests(unittest.TestCase):
    def test_only_the_text_between_the_markers_changes(self):
        old = f"# Benchmarks\n\nby hand\n\n{BEGIN_MARK}\nold figures\n{END_MARK}\n\nafter\n"
        new = replace_section(old, f"{BEGIN_MARK}\nnew figures\n{END_MARK}\n")
        self.assertEqual(new, f"# Benchmarks\n\nby hand\n\n{BEGIN_MARK}\nnew figures\n{END_MARK}\n\nafter\n")

    def test_waiting_rows_say_cpu_per_process(self):
        run = WaitingRun(waiting=200, cpu=4.0, wall=90.0, finished=200, spoken=200, cap=330.0)
        rows = table_rows(Results(waiting=[run]))
        self.assertEqual(rows[0][0], "7. 200 processes waiting for turns, CPU")
        self.assertIn("20 ms each", rows[0][3])


class LeanRowsTests(unittest.TestCase):
    def lean(self, **changes):
        from announce_bench.lean import Lean
        values = dict(size=20_000_000, stripped=14_000_000, spdsay_size=30_000, icudt_symbol=False, needs_icu=False,
                      loads_icu=True, version=0.004, spdsay_version=0.002, rss=9 * 1024 * 1024,
                      spdsay_rss=5 * 1024 * 1024, version_rss=8 * 1024 * 1024)
        values.update(changes)
        return Lean(**values)

    def goals(self, lean):
        res = Results()
        res.lean = lean
        return [row[5] for row in table_rows(res) if row[0].startswith("9.") and row[4]]

    def test_the_floor_is_a_row_without_a_goal_only_when_measured(self):
        def floor_rows(lean):
            res = Results()
            res.lean = lean
            return [row for row in table_rows(res) if "Floor" in row[0]]
        self.assertEqual(floor_rows(self.lean()), [])
        rows = floor_rows(self.lean(floor_version=0.0061, floor_rss=10 * 1024 * 1024))
        self.assertEqual([(row[1], row[4], row[5]) for row in rows], [("6.1 ms, 10.0 MiB", "", "")])

    def test_goals_met_and_missed(self):
        self.assertEqual(self.goals(self.lean()), ["met", "met", "met"])
        self.assertEqual(self.goals(self.lean(stripped=17_000_000, version=0.006, rss=11 * 1024 * 1024)),
                         ["MISSED", "MISSED", "MISSED"])
        self.assertEqual(self.goals(self.lean(icudt_symbol=True))[0], "MISSED")


def figures(release, speechd, retry_median, begin=0.017):
    return ReleaseFigures(
        release=release, speechd=speechd, espeak="1.51+dfsg-10",
        overhead=Overhead(pairs=20, announce_median=0.87, spdsay_median=0.87, ratio_median=1.0, ratio_p25=1.0,
                          ratio_p75=1.002, ratio_min=0.997, ratio_max=1.005, failures=[]),
        cold=ColdStart(announce=StartTimes(queued=0.014, begin=begin, n=10),
                       spdsay=StartTimes(queued=0.006, begin=0.008, n=10)),
        retry=Retry(n=3, median=retry_median, min=retry_median - 0.01, max=retry_median + 0.01, problems=[],
                    all=[retry_median - 0.01, retry_median, retry_median + 0.01], probe_wait=0.02,
                    probe_tail=0.003, busy_after_end=0),
        failure=Failure(cap=20.0, broken_announce=Verdicts([(5.08, 69)]), broken_spdsay=Verdicts([(20.0, None)]),
                        absent_announce=Verdicts([(0.016, 69)]), absent_spdsay=Verdicts([(0.391, 1)])))


BOTH = Results(releases=[figures("12", "0.11.4-2", 0.023), figures("13", "0.12.0-5", 0.460, begin=0.006)])
ONLY_12 = Results(releases=[figures("12", "0.11.4-2", 0.023)], skipped=["13"])
MACHINE = Machine(date="2026-11-24 15:00 UTC", host="Linux", cpu="2 cores", load="1.00", swift="Swift 6.3",
                  commit="abc1234")


class ReleaseTableTests(unittest.TestCase):
    def test_one_column_per_release_labelled_with_its_speech_dispatcher(self):
        self.assertEqual(release_head(BOTH), ("figure", "goal", "speech-dispatcher 0.11.4 (Debian 12)",
                                              "speech-dispatcher 0.12.0 (Debian 13)"))
        rows = release_rows(BOTH)
        self.assertEqual([len(row) for row in rows], [4] * 6)
        self.assertEqual([row[0][:2] for row in rows], ["1.", "2.", "2.", "3.", "4.", "4."])

    def test_each_release_has_its_own_verdict_on_each_goal(self):
        retry = next(row for row in release_rows(BOTH) if row[0].startswith("3."))
        self.assertEqual(retry[1], "≤ 150 ms")
        self.assertTrue(retry[2].startswith("median 23 ms (range 13 ms-33 ms, n=3)"))
        self.assertTrue(retry[2].endswith("; goal met"))
        self.assertTrue(retry[3].startswith("median 460 ms"))
        self.assertTrue(retry[3].endswith("; goal MISSED"))
        begin = next(row for row in release_rows(BOTH) if row[0] == "2. Cold start, exec → BEGIN")
        self.assertEqual((begin[2][-13:], begin[3][-10:]), ("; goal MISSED", "; goal met"))

    def test_a_figure_without_a_goal_has_no_verdict(self):
        absent = next(row for row in release_rows(BOTH) if row[0] == "4. Verdict, server absent")
        self.assertEqual(absent[1:], ("", "announce 16 ms (exit 69); spd-say 391 ms (exit 1)",
                                      "announce 16 ms (exit 69); spd-say 391 ms (exit 1)"))
        broken = next(row for row in release_rows(BOTH) if row[0] == "4. Verdict, broken audio")
        self.assertIn("spd-say never: killed at the cap of 20.00 s", broken[2])

    def test_the_retry_goal_line_names_each_release(self):
        self.assertEqual(release_notes(BOTH), [
            "Retry latency ≤ 150 ms (issue #20): met on speech-dispatcher 0.11.4 (Debian 12), median 23 ms; "
            "MISSED on speech-dispatcher 0.12.0 (Debian 13), median 460 ms."])

    def test_a_skipped_release_has_no_column_and_a_sentence_says_so(self):
        self.assertEqual(release_head(ONLY_12), ("figure", "goal", "speech-dispatcher 0.11.4 (Debian 12)"))
        self.assertEqual({len(row) for row in release_rows(ONLY_12)}, {3})
        self.assertIn("Debian 13's speech-dispatcher was not measured in this run (`bench/run --release 12`).",
                      release_notes(ONLY_12))

    def test_a_figure_one_release_did_not_measure_says_so(self):
        res = Results(releases=[figures("12", "0.11.4-2", 0.023), ReleaseFigures(release="13", speechd="0.12.0-5")])
        overhead = release_rows(res)[0]
        self.assertEqual(overhead[3], "not measured")

    def test_no_release_measured_means_no_release_rows(self):
        self.assertEqual(release_rows(Results(releases=[ReleaseFigures(release="12", speechd="0.11.4-2")])), [])

    def test_the_version_is_the_upstream_one(self):
        self.assertEqual(ReleaseFigures(release="13", speechd="1:0.12.0-5+b1").version, "0.12.0")


class RenderTests(unittest.TestCase):
    def test_the_section_has_both_columns_and_says_where_the_others_ran(self):
        res = Results(releases=BOTH.releases, others_on=BOTH.releases[0], core=parse_core_output(CORE_OUTPUT)[0])
        text = render_section(res, MACHINE, "bench/run")
        self.assertIn("| figure | goal | speech-dispatcher 0.11.4 (Debian 12) | speech-dispatcher 0.12.0 (Debian 13) |",
                      text)
        self.assertIn("- Debian 13: speech-dispatcher 0.12.0-5, espeak-ng 1.51+dfsg-10", text)
        self.assertIn("### The other figures, on speech-dispatcher 0.11.4 (Debian 12) only", text)
        self.assertIn("Retry latencies (ms), speech-dispatcher 0.11.4 (Debian 12): 13, 23, 33; "
                      "speech-dispatcher 0.12.0 (Debian 13): 450, 460, 470.", text)
        self.assertTrue(text.startswith(BEGIN_MARK) and text.rstrip().endswith(END_MARK))

    def test_a_table_row_has_as_many_cells_as_its_header(self):
        text = render_section(ONLY_12, MACHINE, "bench/run")
        table = [line for line in text.splitlines() if line.startswith("| ")]
        self.assertEqual({line.count(" | ") for line in table}, {2})

    def test_the_printed_table_wraps_long_cells_into_their_column(self):
        lines = grid_lines(("a", "b"), [("x", "one two three four")], [5, 9])
        self.assertEqual(lines, ["a  b", "x  one two", "   three", "   four"])

    def test_a_number_stays_with_its_unit(self):
        lines = grid_lines(("a",), [("difference 8.6 ms; goal met",)], [16])
        self.assertEqual(lines, ["a", "difference", "8.6 ms; goal met"])
        lines = grid_lines(("a",), [("spd-say 475 ms (exit 1)",)], [20])
        self.assertEqual(lines, ["a", "spd-say 475 ms", "(exit 1)"])


if __name__ == "__main__":
    unittest.main()
