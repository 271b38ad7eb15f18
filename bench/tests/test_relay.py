"""Unit tests of the SSIP relay's parsing: python3 -m unittest discover -s bench/tests"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from announce_bench.relay import (Connection, SSIPTranscript, first_real, is_quiet_probe, probes_of,  # noqa: E402
                                  split_lines)


def transcript(name="announce:main"):
    t = SSIPTranscript(Connection(cid=0, opened=0.0))
    t.client_line(f"SET SELF CLIENT_NAME {name}")
    return t


def speak(t, text, mid, at):
    t.client_line("SPEAK")
    t.server_line("230 OK RECEIVING DATA", at)
    for line in text.split("\n"):
        t.client_line(line)
    t.client_line(".")
    t.server_line(f"225-{mid}", at)
    t.server_line("225 OK MESSAGE QUEUED", at)


def event(t, code, mid, at, name="BEGIN"):
    t.server_line(f"{code}-{mid}", at)
    t.server_line(f"{code}-7", at)  # the client id
    t.server_line(f"{code} {name}", at)


class SplitLinesTests(unittest.TestCase):
    def test_a_line_split_across_chunks_comes_out_once_whole(self):
        lines, rest = split_lines(b"", b"225-1")
        self.assertEqual((lines, rest), ([], b"225-1"))
        lines, rest = split_lines(rest, b"2\r\n225 OK MESSAGE QUEUED\r\n70")
        self.assertEqual(lines, ["225-12", "225 OK MESSAGE QUEUED"])
        self.assertEqual(rest, b"70")


class TranscriptTests(unittest.TestCase):
    def test_client_name_is_the_third_word_on(self):
        t = transcript("announce:main:tty")
        self.assertEqual(t.connection.client_name, "announce:main:tty")

    def test_queued_reply_takes_the_text_of_the_oldest_unanswered_block(self):
        t = transcript()
        t.client_line("SPEAK")
        t.client_line("first line")
        t.client_line("second line")
        t.client_line(".")
        t.client_line("SPEAK")
        t.client_line(" ")
        t.client_line(".")
        t.server_line("225-5", 1.0)
        t.server_line("225 OK MESSAGE QUEUED", 1.0)
        t.server_line("225-6", 2.0)
        t.server_line("225 OK MESSAGE QUEUED", 2.0)
        conn = t.connection
        self.assertEqual(conn.order, [5, 6])
        self.assertEqual(conn.messages[5].text, "first line\nsecond line")
        self.assertTrue(conn.messages[5].real)
        self.assertEqual(conn.messages[5].queued, 1.0)
        self.assertIs(conn.messages[6].real, False)  # the quiet probe

    def test_events_are_timed_by_their_message_id_not_the_client_id(self):
        t = transcript()
        speak(t, "Saved", 9, 1.0)
        event(t, "701", 9, 1.5)
        event(t, "702", 9, 2.0, "END")
        msg = t.connection.messages[9]
        self.assertEqual((msg.begin, msg.end, msg.cancel), (1.5, 2.0, None))
        self.assertNotIn(7, t.connection.messages)

    def test_the_first_of_a_repeated_event_counts(self):
        t = transcript()
        speak(t, "Saved", 3, 0.0)
        event(t, "701", 3, 1.0)
        event(t, "701", 3, 5.0)
        self.assertEqual(t.connection.messages[3].begin, 1.0)

    def test_a_cancel_before_the_queued_reply_is_kept(self):
        t = transcript()
        t.client_line("SPEAK")
        t.client_line(" ")
        t.client_line(".")
        event(t, "703", 4, 0.5, "CANCELED")
        t.server_line("225-4", 0.6)
        t.server_line("225 OK MESSAGE QUEUED", 0.6)
        msg = t.connection.messages[4]
        self.assertEqual((msg.cancel, msg.queued, msg.real), (0.5, 0.6, False))

    def test_index_marks_and_other_replies_leave_messages_alone(self):
        t = transcript()
        speak(t, "Saved", 2, 0.0)
        event(t, "700", 2, 0.7, "INDEX MARK")
        t.server_line("208 OK ALL SET", 0.8)
        t.server_line("225-x", 0.9)  # not a number: ignored
        msg = t.connection.messages[2]
        self.assertEqual((msg.begin, msg.end, msg.cancel), (None, None, None))
        self.assertEqual(t.connection.order, [2])

    def test_data_lines_that_look_like_commands_are_text(self):
        t = transcript()
        t.client_line("SPEAK")
        t.client_line("SET SELF CLIENT_NAME spoofed")
        t.client_line(".")
        self.assertEqual(t.connection.client_name, "announce:main")
        self.assertEqual(list(t.blocks), ["SET SELF CLIENT_NAME spoofed"])


class QuietProbeTests(unittest.TestCase):
    def test_the_empty_ssml_document_and_the_old_single_space_are_probes(self):
        for text in ("<speak></speak>", "<speak/>", " ", "", "<speak xml:lang='en'>\n</speak>"):
            self.assertTrue(is_quiet_probe(text), text)

    def test_a_document_that_says_something_is_real(self):
        for text in ("<speak>Saved</speak>", "Saved", "<speak><mark name='a'/>x</speak>", "<speak></speak>."):
            self.assertFalse(is_quiet_probe(text), text)

    def test_an_ssml_probe_after_the_interruption_is_not_taken_for_the_retry(self):
        t = transcript()
        speak(t, "<speak>Long text</speak>", 1, 0.0)
        speak(t, "<speak></speak>", 2, 1.0)
        event(t, "701", 2, 1.01)
        speak(t, "<speak>Long text</speak>", 3, 1.02)
        real = [m for m in t.connection.in_order() if m.real]
        self.assertEqual([m.queued for m in real], [0.0, 1.02])
        self.assertEqual([m.queued for m in probes_of([t.connection], 0)], [1.0])


class SnapshotHelperTests(unittest.TestCase):
    def test_first_real_skips_probes_older_connections_and_other_clients(self):
        old, spd, ours = transcript(), transcript("spd-say:main"), transcript()
        speak(old, "old", 1, 0.0)
        speak(spd, "theirs", 2, 1.0)
        speak(ours, "<speak></speak>", 3, 2.0)
        speak(ours, "<speak>mine</speak>", 4, 3.0)
        snap = [old.connection, spd.connection, ours.connection]
        self.assertEqual(first_real(snap, 1, "announce").text, "<speak>mine</speak>")
        self.assertEqual(first_real(snap, 1).text, "theirs")
        self.assertEqual([m.queued for m in probes_of(snap, 1)], [2.0])


if __name__ == "__main__":
    unittest.main()
