"""The bundled recommendation model (resources/models/rec_ranker) at small
sizes on the CPU: it runs, every stage is a region of its own, and the
preprocessing stages compute what their bundled problems' references do."""
import importlib.util
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "resources", "harness", "torch"))

try:
    import torch
except ImportError:  # pragma: no cover - a host without PyTorch
    torch = None

import model_profile  # noqa: E402


def small_model():
    spec = importlib.util.spec_from_file_location("rec_ranker", os.path.join(ROOT, "resources", "models", "rec_ranker",
                                                                             "model.py"))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    m.batch, m.dense_features, m.sparse_features, m.raw_ids, m.table_rows = 8, 5, 3, 1000, 100
    m.mean_events, m.max_events, m.keep = 6, 20, 4
    torch.manual_seed(3)
    return m


@unittest.skipIf(torch is None, "torch does not import here")
class RecRanker(unittest.TestCase):
    def test_it_runs_and_every_stage_is_a_region(self):
        m = small_model()
        model = m.Model().eval()
        with torch.no_grad():
            out = model(*m.get_inputs())
        self.assertEqual(tuple(out.shape), (8, 1))
        self.assertTrue(torch.isfinite(out).all())
        names = sorted(n for n, _ in model_profile.leaf_modules(model))
        self.assertEqual(names, sorted(["buckets", "remap", "truncate", "dense_embed", "sparse_embed", "fm", "norm", "conv",
                                        "attend", "up", "act", "head"]))

    def test_the_remap_finds_kept_ids_and_only_them(self):
        m = small_model()
        remap = m.IdRemap()
        table = remap.table.tolist()
        ids = torch.tensor([[table[0], table[5], table[-1]], [table[0] + 1 if table[0] + 1 not in table else 10**6, 0, 999]])
        got = remap(ids).tolist()
        for row, out in zip(ids.tolist(), got):
            for i, o in zip(row, out):
                self.assertEqual(o, table.index(i) + 1 if i in table else 0)

    def test_the_truncation_keeps_each_users_first_events(self):
        m = small_model()
        lengths = torch.tensor([1, 6, 0 + 2, 9])
        values = torch.arange(int(lengths.sum()) * m.dim, dtype=torch.float32).reshape(-1, m.dim)
        got = m.EventTruncate()(values, lengths)
        start = 0
        for u, n in enumerate(lengths.tolist()):
            for k in range(m.keep):
                expect = values[start + k] if k < n else torch.zeros(m.dim)
                self.assertTrue(torch.equal(got[u, k], expect), (u, k))
            start += n

    def test_the_buckets_are_per_feature_and_offset(self):
        m = small_model()
        b = m.FeatureBuckets()
        x = torch.randn(8, m.dense_features)
        got = b(x)
        for f in range(m.dense_features):
            expect = torch.bucketize(x[:, f], b.borders[f]) + f * (m.borders + 1)
            self.assertTrue(torch.equal(got[:, f], expect))


if __name__ == "__main__":
    unittest.main()
