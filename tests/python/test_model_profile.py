"""The model profiler (resources/harness/torch/model_profile.py) on the CPU:
regions are the leaf modules with their bytes, ops their own times, shares of
one step; a file that is not a model says what it lacks."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "resources", "harness", "torch"))

try:
    import torch
except ImportError:  # pragma: no cover - a host without PyTorch
    torch = None

import model_profile  # noqa: E402

RANKER = os.path.join(ROOT, "tests", "data", "models", "tiny_ranker.py")


@unittest.skipIf(torch is None, "torch does not import here")
class Profile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.result = model_profile.profile(RANKER, steps=3, warmup=1)

    def test_every_leaf_module_is_a_region_with_its_bytes(self):
        regions = {r["name"]: r for r in self.result["regions"]}
        self.assertEqual(sorted(regions), ["act", "down", "mix", "norm", "up"])
        self.assertEqual(regions["up"]["kind"], "Linear")
        self.assertEqual(regions["up"]["calls"], 1)
        # Softmax over 512 x 16 floats: reads its input, writes its output.
        self.assertEqual(regions["mix"]["bytes"], 2 * 512 * 16 * 4)
        # Linear(64, 256): input, weight, bias, output.
        self.assertEqual(regions["up"]["bytes"], (512 * 64 + 64 * 256 + 256 + 512 * 256) * 4)

    def test_an_embedding_reads_the_rows_its_indices_name(self):
        table = torch.nn.Embedding(100_000, 64)
        ids = torch.randint(0, 100_000, (32, 4))
        self.assertEqual(model_profile.parameter_bytes(torch, table, (ids,)), 32 * 4 * 64 * 4)
        small = torch.nn.Embedding(10, 64)
        self.assertEqual(model_profile.parameter_bytes(torch, small, (ids % 10,)), 10 * 64 * 4)  # never past the table
        linear = torch.nn.Linear(8, 2)
        self.assertEqual(model_profile.parameter_bytes(torch, linear, (torch.ones(3, 8),)), (8 * 2 + 2) * 4)

    def test_shares_are_of_one_step_and_add_up_to_at_most_it(self):
        self.assertGreater(self.result["step_s"], 0)
        shares = [r["share"] for r in self.result["regions"]]
        self.assertTrue(all(0 < s <= 1 for s in shares), shares)
        self.assertLessEqual(sum(shares), 1.05)
        self.assertLessEqual(sum(o["share"] for o in self.result["ops"]), 1.05)

    def test_ops_are_the_models_own_with_their_shapes(self):
        ops = {o["name"]: o for o in self.result["ops"]}
        self.assertEqual(ops["aten::addmm"]["calls"], 2)
        self.assertIn("[512, 256]", ops["aten::silu"]["shapes"])
        self.assertNotIn("aten::zeros", ops)  # the region marks cost no op of their own
        self.assertEqual([o["time_s"] for o in self.result["ops"]], sorted((o["time_s"] for o in self.result["ops"]),
                                                                           reverse=True))

    def test_a_file_without_a_model_says_what_it_lacks(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "not_a_model.py")
            with open(path, "w") as f:
                f.write("import torch\n\ndef get_inputs():\n    return [torch.ones(2)]\n")
            with self.assertRaises(ValueError) as caught:
                model_profile.profile(path, steps=1, warmup=0)
        self.assertIn("has no Model", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
