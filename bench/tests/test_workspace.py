"""Unit tests of how the benchmark times a run: python3 -m unittest discover -s bench/tests"""

import os
import subprocess
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from announce_bench.workspace import run_timed  # noqa: E402


class RunTimedTests(unittest.TestCase):
    def test_waits_in_waitpid_instead_of_polling(self):
        # Popen.wait(timeout=...) polls with sleeps of up to 50 ms, which rounds wall
        # times up to the next poll; the overhead figure needs the exit as it happens.
        timeouts = []
        real_wait = subprocess.Popen.wait

        def spy(self, timeout=None):
            timeouts.append(timeout)
            return real_wait(self, timeout)

        with mock.patch.object(subprocess.Popen, "wait", spy):
            elapsed, rc = run_timed(["sh", "-c", "exit 3"], os.environ.copy(), 30)
        self.assertEqual(rc, 3)
        self.assertEqual(timeouts, [None])
        self.assertGreater(elapsed, 0)

    def test_a_run_past_its_cap_is_killed_and_has_no_status(self):
        elapsed, rc = run_timed(["sleep", "30"], os.environ.copy(), 0.2)
        self.assertIsNone(rc)
        self.assertGreaterEqual(elapsed, 0.2)
        self.assertLess(elapsed, 20)


if __name__ == "__main__":
    unittest.main()
