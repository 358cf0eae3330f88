"""The torch judge's comparison of one output (Judge.compare), on CPU
tensors: the element test, and a region left at zero where the answers are
below atol. Needs torch (the CPU build): skipped where it does not import."""
import unittest

try:
    import torch
except ImportError:
    torch = None


@unittest.skipIf(torch is None, "torch does not import here")
class Compare(unittest.TestCase):
    def setUp(self):
        import torch_judge

        self.judge = torch_judge.Judge.__new__(torch_judge.Judge)  # no device: compare needs only torch and the tolerances
        self.judge.torch = torch
        self.judge.job = {"tolerances": {"f32": {"rtol": 1e-2, "atol": 1e-2}}}
        self.shape = {"name": "rows", "sizes": {"M": 16, "N": 16384}}
        g = torch.Generator().manual_seed(11)
        self.expected = torch.softmax(torch.randn(16, 16384, generator=g), dim=-1)

    def compare(self, actual, errors=True):
        return self.judge.compare(self.shape, 1, 0, self.expected, actual, errors=errors)

    def test_a_skipped_region_fails_in_the_checks_and_in_the_timed_rounds(self):
        skipped = self.expected.clone()
        skipped[:, :2000] = 0
        for errors in (True, False):
            case = self.compare(skipped, errors)
            self.assertFalse(case["passed"], errors)
            self.assertEqual(case["kind"], "zero_region")
            self.assertIn("a region left at zero", case["detail"])
            self.assertEqual(case["mismatches"], 0)  # the element test alone passes it

    def test_an_honest_answer_passes(self):
        honest = torch.softmax(self.expected.log().double(), dim=-1).float()  # another order of operations
        for errors in (True, False):
            self.assertTrue(self.compare(honest, errors)["passed"])

    def test_a_wrong_element_is_still_a_mismatch(self):
        wrong = self.expected.clone()
        wrong[3, 7] = 0.5
        case = self.compare(wrong)
        self.assertEqual((case["passed"], case["kind"], case["mismatches"]), (False, "mismatch", 1))


if __name__ == "__main__":
    unittest.main()
