"""What the torch judge accepts of a runner's self-timed parts
(torch_judge_protocol): a runner hosts the candidate, so each value is
validated, and what is not a duration is refused rather than raising
inside the judge."""
import signal
import unittest

import torch_judge_protocol as protocol


class ReportedSeconds(unittest.TestCase):
    def test_a_runners_account_is_kept_and_padded(self):
        told = [1e-6, 2e-5, 3e-4, 4e-3, 5e-5, 6e-5]
        self.assertEqual(protocol.reported_seconds(told), told + [0.0])
        self.assertEqual(protocol.reported_seconds(told + [7e-6]), told + [7e-6])
        self.assertEqual(protocol.reported_seconds([0, 0, 0, 0, 0, 0, 0]), [0.0] * 7)

    def test_nothing_sent_reads_as_zeros(self):
        self.assertEqual(protocol.reported_seconds(None), [0.0] * protocol.SELF_TIMED_PARTS)

    def test_what_is_not_a_duration_is_refused(self):
        good = [1e-6] * 7
        for bad in (10**400, -1.0, float("nan"), float("inf"), 1e12, True, "1e-6", None, [1e-6]):
            with self.subTest(bad=bad):
                self.assertIsNone(protocol.reported_seconds(good[:3] + [bad] + good[4:]))
        for shape in ("fast", {"t": 1}, [1e-6] * 5, [1e-6] * 8, 3.0):
            with self.subTest(shape=shape):
                self.assertIsNone(protocol.reported_seconds(shape))

    def test_a_message_about_it_is_bounded(self):
        self.assertLessEqual(len(protocol.describe([10**400] * 50)), 120)
        self.assertEqual(protocol.describe([1, 2]), "[1, 2]")


class OutsideSignal(unittest.TestCase):
    def test_a_kill_from_another_process_is_named(self):
        self.assertEqual(protocol.outside_signal(-signal.SIGKILL, killed_by_judge=False), "SIGKILL")
        self.assertEqual(protocol.outside_signal(-signal.SIGTERM, killed_by_judge=False), "SIGTERM")

    def test_the_judges_kill_a_crash_and_an_exit_are_not(self):
        self.assertIsNone(protocol.outside_signal(-signal.SIGKILL, killed_by_judge=True))
        for own in (signal.SIGSEGV, signal.SIGABRT, signal.SIGSYS):
            self.assertIsNone(protocol.outside_signal(-own, killed_by_judge=False))
        self.assertIsNone(protocol.outside_signal(1, killed_by_judge=False))
        self.assertIsNone(protocol.outside_signal(None, killed_by_judge=False))


if __name__ == "__main__":
    unittest.main()
