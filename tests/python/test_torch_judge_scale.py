"""A region of an output left at zero where the answers are below atol
(torch_judge_scale): it fails, honest rounding and noise pass.
Needs torch (the CPU build): skipped where it does not import."""
import unittest

try:
    import torch
except ImportError:  # the judge's hosts have it; a bare Python need not
    torch = None

from torch_judge_scale import WholeOutput


def judged(expected, actual, atol, rtol, slices=3):
    w = WholeOutput(torch, atol)
    for e, a in zip(expected.reshape(-1).chunk(slices), actual.reshape(-1).chunk(slices)):
        w.add(e, a)
    return w.failure(), w.relative_error()


@unittest.skipIf(torch is None, "torch does not import here")
class WholeOutputs(unittest.TestCase):
    def setUp(self):
        g = torch.Generator().manual_seed(7)
        # A softmax over rows of 16384: every answer near 6e-5, all of them
        # below KernelBench's tolerance (atol = rtol = 1e-2).
        self.expected = torch.softmax(torch.randn(16, 16384, generator=g), dim=-1)
        self.atol, self.rtol = 1e-2, 1e-2

    def test_an_all_zero_answer_fails_though_every_element_is_within_atol(self):
        zeros = torch.zeros_like(self.expected)
        self.assertTrue(bool(torch.isclose(zeros, self.expected, rtol=self.rtol, atol=self.atol).all()))
        failure, rel = judged(self.expected, zeros, self.atol, self.rtol)
        self.assertAlmostEqual(rel, 1.0, places=6)
        self.assertIn("exactly 0", failure)

    def test_a_skipped_tenth_fails(self):
        skipped = self.expected.clone()
        skipped[:, : 16384 // 10] = 0
        failure, rel = judged(self.expected, skipped, self.atol, self.rtol)
        self.assertGreater(rel, 0.25)
        self.assertIsNotNone(failure)

    def test_honest_rounding_passes(self):
        for dtype, rtol in ((torch.float16, 1e-3), (torch.bfloat16, 1.6e-2), (torch.float32, 1e-4)):
            rounded = self.expected.to(dtype).to(torch.float32)
            failure, rel = judged(self.expected, rounded, self.atol, rtol)
            self.assertIsNone(failure, dtype)
            self.assertLess(rel, 1e-2, dtype)

    def test_noise_larger_than_the_answers_passes(self):
        # An output of cancellations: answers at noise level, an honest
        # kernel's differ by as much as they are large, and none is zero.
        g = torch.Generator().manual_seed(3)
        expected = torch.randn(10000, generator=g) * 1e-7
        honest = expected + torch.randn(10000, generator=g) * 1e-7
        failure, rel = judged(expected, honest, 1e-4, 1e-4)
        self.assertGreater(rel, 0.5)
        self.assertIsNone(failure)

    def test_underflow_to_zero_passes(self):
        expected = torch.cat([torch.full((1000,), 1e-3), torch.full((10,), 1e-30)])
        flushed = expected.clone()
        flushed[1000:] = 0
        self.assertIsNone(judged(expected, flushed, 1e-2, 1e-2)[0])

    def test_outputs_mostly_above_atol_are_left_to_the_element_test(self):
        big = self.expected * 1e4
        damaged = big.clone()
        damaged[0, 0] = 0
        self.assertIsNone(judged(big, damaged, self.atol, self.rtol)[0])

    def test_measured_in_pieces_alike(self):
        import torch_judge_scale

        skipped = self.expected.clone()
        skipped[:, :1000] = 0
        whole = judged(self.expected, skipped, self.atol, self.rtol)
        saved, torch_judge_scale.CHUNK = torch_judge_scale.CHUNK, 1000
        try:
            pieces = judged(self.expected, skipped, self.atol, self.rtol)
        finally:
            torch_judge_scale.CHUNK = saved
        self.assertEqual(whole[0], pieces[0])
        self.assertAlmostEqual(whole[1], pieces[1], places=9)

    def test_an_all_zero_expected_output_is_not_judged_as_a_whole(self):
        zeros = torch.zeros(100)
        self.assertIsNone(judged(zeros, zeros + 1e-9, 1e-4, 1e-4)[0])


if __name__ == "__main__":
    unittest.main()
