"""A model's regions matched to bundled problems by behaviour, and kernels
called in a module's place (resources/harness/torch/model_regions.py,
model_kernels.py, model_swap.py), on the CPU with the bundled C++ problems:
names never decide a match, a binding sees tensors transposed or flattened,
and a swapped kernel that computes something else is caught by the check."""
import json
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

import model_kernels  # noqa: E402
import model_regions  # noqa: E402
import model_swap  # noqa: E402
import model_torch_problems  # noqa: E402

PROBLEMS = os.path.join(ROOT, "resources", "problems", "cpu")
SMALL = os.path.join(ROOT, "tests", "data", "models", "small_sequence.py")


def spec_of(name):
    with open(os.path.join(PROBLEMS, name, "problem.json")) as f:
        return json.load(f)


def draws(module, make, n=2):
    out = []
    for _ in range(n):
        args = make()
        with torch.no_grad():
            out.append((args, module(*args)))
    return out


@unittest.skipIf(torch is None, "torch does not import here")
class Match(unittest.TestCase):
    def setUp(self):
        self.build = tempfile.TemporaryDirectory()
        torch.manual_seed(0)

    def tearDown(self):
        self.build.cleanup()

    def match(self, problem, module, make):
        return model_regions.match(torch, os.path.join(PROBLEMS, problem), spec_of(problem), module, draws(module, make),
                                   self.build.name)

    def test_a_layer_norm_over_three_dimensions_is_the_layernorm_problem(self):
        norm = torch.nn.LayerNorm(24)
        with torch.no_grad():
            norm.weight.uniform_(0.5, 1.5)
            norm.bias.uniform_(-1, 1)
        b = self.match("layernorm", norm, lambda: (torch.randn(5, 7, 24) * 3 + 1,))
        self.assertIsNotNone(b)
        self.assertEqual(b["sizes"], {"M": 35, "N": 24})
        x = [i for i in b["inputs"] if i["arg"] == "x"][0]
        self.assertEqual((x["from"], x["flatten"]), ("input:0", "leading"))
        self.assertEqual({i["arg"]: i["from"] for i in b["inputs"]}, {"x": "input:0", "gamma": "param:weight", "beta": "param:bias"})
        # The reference through the binding, on inputs of another batch size.
        lib = model_kernels.compile_kernel(os.path.join(PROBLEMS, "layernorm", "reference.cpp"), b, [], spec_of("layernorm"),
                                           self.build.name)
        x = torch.randn(3, 11, 24)
        got = model_kernels.call(torch, lib, b, norm, (x,))[0]
        self.assertEqual(list(got.shape), [3, 11, 24])
        self.assertTrue(torch.allclose(got, norm(x).detach(), rtol=1e-5, atol=1e-5))

    def test_a_module_named_layernorm_that_is_not_one_matches_nothing(self):
        sys.path.insert(0, os.path.dirname(SMALL))
        import small_sequence

        decoy = small_sequence.LayerNorm()
        make = lambda: (torch.randn(6, 32) * 3 + 1,)  # noqa: E731
        for problem in ("layernorm", "rmsnorm_fwd", "softmax"):
            self.assertIsNone(self.match(problem, decoy, make), problem)

    def test_a_transposed_causal_conv_is_the_dwconv_problem(self):
        sys.path.insert(0, os.path.dirname(SMALL))
        import small_sequence

        conv = small_sequence.CausalConv()
        b = self.match("dwconv1d_silu", conv, lambda: (torch.randn(4, 48, 32),))
        self.assertIsNotNone(b)
        views = {i["arg"]: (i["perm"], i["flatten"]) for i in b["inputs"]}
        self.assertEqual(views["x"], ([0, 2, 1], None))  # [batch, events, width] seen as [B, C, L]
        self.assertEqual(b["sizes"], {"B": 4, "C": 32, "L": 48, "K": 4})

    def test_a_module_that_ignores_an_input_the_problem_uses_matches_nothing(self):
        class Shifted(torch.nn.Module):
            def forward(self, x):  # a softmax of x + 1: equal to softmax(x), so it matches
                return torch.softmax(x + 1, dim=-1)

        class Scaled(torch.nn.Module):
            def forward(self, x):  # a softmax of 2x: not the softmax of x
                return torch.softmax(2 * x, dim=-1)

        make = lambda: (torch.randn(8, 40),)  # noqa: E731
        self.assertIsNotNone(self.match("softmax", Shifted(), make))
        self.assertIsNone(self.match("softmax", Scaled(), make))


@unittest.skipIf(torch is None, "torch does not import here")
class RegionFile(unittest.TestCase):
    """A region's KernelBench file as a judge uses it: sizes applied, plain
    top-level assignments recomputed, the region built by the model's own
    constructor (with its init arguments) and fed by the model."""

    def test_the_region_survives_the_judge_recomputing_assignments(self):
        import torch_sizes

        ranker = os.path.join(ROOT, "tests", "data", "models", "tiny_ranker.py")
        with tempfile.TemporaryDirectory() as d:
            _, path = model_regions.write_region_file(d, "tiny", ranker, "up")
            with open(path) as f:
                source = f.read()
            module = model_profile_load(path)
            torch_sizes.apply_sizes(module, {}, torch_sizes.derived_assignments(source))
            region = module.Model(*module.get_init_inputs())
            inputs = module.get_inputs()
            self.assertEqual([list(x.shape) for x in inputs], [[512, 64]])  # what the layer norm hands the Linear
            self.assertEqual(list(region(*inputs).shape), [512, 256])


TWINS = """import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.LayerNorm(24)
        self.b = nn.LayerNorm(24)
        self.c = nn.LayerNorm(24, eps=1e-3)

    def forward(self, x):
        return self.c(self.b(self.a(x) * 2))


def get_inputs():
    return [torch.randn(16, 24)]
"""


@unittest.skipIf(torch is None, "torch does not import here")
class Twins(unittest.TestCase):
    def test_like_modules_share_one_problem_and_unlike_ones_do_not(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "twins.py")
            with open(path, "w") as f:
                f.write(TWINS)
            answer = model_regions.extract(path, os.path.join(d, "out"), PROBLEMS, ["a", "b", "c"])
        regions = {r["name"]: r for r in answer["regions"]}
        self.assertEqual(regions["b"].get("same_as"), "a")
        self.assertEqual(regions["b"]["problem"], regions["a"]["problem"])
        self.assertEqual(regions["b"].get("matched"), "layernorm")
        self.assertNotIn("same_as", regions["c"])  # another eps: another function
        self.assertNotEqual(regions["c"]["problem"], regions["a"]["problem"])


class SlowerInTheModel(unittest.TestCase):
    def test_a_kernel_faster_alone_that_slows_the_model_is_flagged(self):
        rows = [{"variant": "only a", "interval": [0.90, 0.97]}, {"variant": "only b", "interval": [0.95, 1.02]},
                {"variant": "only c", "interval": [0.80, 0.90]}, {"variant": "swapped", "interval": [0.9, 0.95]}]
        kernels = [{"region": "a", "speedup": 2.0}, {"region": "b", "speedup": 3.0}, {"region": "c", "speedup": 0.9}]
        model_swap.flag_slower_in_model(rows, kernels)
        self.assertTrue(rows[0]["slower_in_model"])
        self.assertFalse(rows[1]["slower_in_model"])  # its interval holds 1: not shown slower
        self.assertFalse(rows[2]["slower_in_model"])  # not faster alone either
        self.assertNotIn("slower_in_model", rows[3])


def model_profile_load(path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("region_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WRONG_LAYERNORM = """
void layernorm(const float* x, const float* gamma, const float* beta, float* y, int64_t M, int64_t N, float eps) {
    for (int64_t m = 0; m < M; ++m) {
        double s = 0, q = 0;
        for (int64_t n = 0; n < N; ++n) s += x[m * N + n];
        const double mean = s / N;
        for (int64_t n = 0; n < N; ++n) q += (x[m * N + n] - mean) * (x[m * N + n] - mean);
        const double r = 1.0 / std::sqrt(q / N + eps);
        for (int64_t n = 0; n < N; ++n) y[m * N + n] = float((x[m * N + n] - mean) * r * gamma[n]);  // forgets beta
    }
}
"""


class ExtractedFolder(unittest.TestCase):
    """small_sequence's conv, norm and scale extracted against PROBLEMS_DIR
    once per class; kernels.json written by each test."""

    PROBLEMS_DIR = PROBLEMS
    LANGUAGE = "cpp"

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        answer = model_regions.extract(SMALL, cls.dir.name, cls.PROBLEMS_DIR, ["conv", "norm", "scale"])
        with open(os.path.join(cls.dir.name, "model.json"), "w") as f:
            json.dump(answer, f)
        cls.regions = {r["name"]: r for r in answer["regions"]}

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def kernels(self, entries):
        with open(os.path.join(self.dir.name, "kernels.json"), "w") as f:
            json.dump({"kernels": entries}, f)

    def entry(self, region, source):
        problem = os.path.join(self.dir.name, self.regions[region]["problem"], "problem.json")
        return {"region": region, "language": self.LANGUAGE, "source": source, "defines": [], "problem": problem}


@unittest.skipIf(torch is None, "torch does not import here")
class Swap(ExtractedFolder):
    """model_swap.check on a pipeline folder: the reference in the module's
    place passes; a kernel that forgets beta is caught at its region and in
    the whole model."""

    def test_the_extraction_matches_by_behaviour(self):
        self.assertEqual(self.regions["conv"].get("matched"), "dwconv1d_silu")
        self.assertEqual(self.regions["norm"].get("matched"), "layernorm")
        self.assertNotIn("matched", self.regions["scale"])  # named LayerNorm, computes something else
        self.assertTrue(os.path.isfile(self.regions["scale"]["source"]))
        with open(os.path.join(self.dir.name, self.regions["norm"]["problem"], "problem.json")) as f:
            spec = json.load(f)
        self.assertEqual(spec["shapes"]["time"], [{"name": "model", "sizes": {"M": 64 * 48, "N": 32}}])

    def test_references_in_place_pass_and_a_wrong_kernel_is_caught(self):
        ref = lambda p: os.path.join(PROBLEMS, p, "reference.cpp")  # noqa: E731
        self.kernels([self.entry("conv", ref("dwconv1d_silu")), self.entry("norm", ref("layernorm"))])
        good = model_swap.check(self.dir.name, 0)
        self.assertTrue(good["model_ok"], good)
        self.assertEqual([r["ok"] for r in good["regions"]], [True, True])

        wrong = os.path.join(self.dir.name, "wrong_layernorm.cpp")
        with open(wrong, "w") as f:
            f.write(WRONG_LAYERNORM)
        self.kernels([self.entry("norm", wrong)])
        bad = model_swap.check(self.dir.name, 0)
        self.assertFalse(bad["model_ok"])
        self.assertFalse(bad["regions"][0]["ok"])
        self.assertIn("elements beyond", bad["regions"][0]["why"])

    def test_ab_times_every_variant_on_the_same_inputs(self):
        ref = os.path.join(PROBLEMS, "layernorm", "reference.cpp")
        self.kernels([self.entry("norm", ref)])
        result = model_swap.ab(self.dir.name, 3, 0)
        names = [v["variant"] for v in result["variants"]]
        self.assertIn("eager", names)
        self.assertIn("swapped", names)
        for v in result["variants"]:
            self.assertGreater(v["median_s"], 0)
            self.assertLessEqual(v["interval"][0], v["speedup"] + 1e-12)
            self.assertGreaterEqual(v["interval"][1], v["speedup"] - 1e-12)


GPU_PROBLEMS = os.path.join(ROOT, "resources", "problems", "gpu")

WRONG_GPU_LAYERNORM = """import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, normalized_size, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(normalized_size))
        self.bias = nn.Parameter(torch.zeros(normalized_size))

    def forward(self, x):
        mean = x.mean(dim=-1, keepdim=True)
        var = ((x - mean) ** 2).mean(dim=-1, keepdim=True)
        return (x - mean) / torch.sqrt(var + self.eps) * self.weight  # forgets the bias
"""


@unittest.skipIf(torch is None, "torch does not import here")
class TorchProblems(ExtractedFolder):
    """The bundled GPU problems are torch modules: a region matches one when
    its tensors, bound to the problem's forward inputs and Model state, make
    the reference give the region's outputs. Their references run on the
    CPU too, so the matching and the swap are checked here."""

    PROBLEMS_DIR = GPU_PROBLEMS
    LANGUAGE = "python"

    def test_regions_match_torch_problems_through_their_state(self):
        self.assertEqual(self.regions["norm"].get("matched"), "gpu_layernorm")
        norm = {i["arg"]: i["from"] for i in self.regions["norm"]["binding"]["inputs"]}
        self.assertEqual(norm, {"input:0": "input:0", "state:weight": "param:weight", "state:bias": "param:bias"})
        self.assertEqual(self.regions["conv"].get("matched"), "gpu_dwconv1d_silu")
        conv = {i["arg"]: (i["perm"], i["flatten"]) for i in self.regions["conv"]["binding"]["inputs"]}
        self.assertEqual(conv["input:0"], ([0, 2, 1], None))
        self.assertEqual(conv["state:weight"], (None, "leading"))  # [C, 1, K] seen as [C, K]
        self.assertNotIn("matched", self.regions["scale"])

    def test_the_problem_shapes_are_learned_from_the_reference(self):
        with open(os.path.join(GPU_PROBLEMS, "gpu_layernorm", "problem.json")) as f:
            spec = json.load(f)
        args = {a["name"]: a["shape"] for a in model_torch_problems.arguments(torch, os.path.join(GPU_PROBLEMS, "gpu_layernorm"), spec)}
        self.assertEqual(args, {"input:0": ["M", "N"], "state:weight": ["N"], "state:bias": ["N"], "output:0": ["M", "N"]})

    def test_a_winner_is_built_with_the_region_state_and_checked(self):
        ref = lambda r: os.path.join(self.dir.name, self.regions[r]["problem"], "reference.py")  # noqa: E731
        self.kernels([self.entry("conv", ref("conv")), self.entry("norm", ref("norm"))])
        good = model_swap.check(self.dir.name, 0)
        self.assertTrue(good["model_ok"], good)
        self.assertEqual([r["ok"] for r in good["regions"]], [True, True])

        wrong = os.path.join(self.dir.name, "wrong_layernorm.py")
        with open(wrong, "w") as f:
            f.write(WRONG_GPU_LAYERNORM)
        self.kernels([self.entry("norm", wrong)])
        bad = model_swap.check(self.dir.name, 0)
        self.assertFalse(bad["model_ok"])
        self.assertFalse(bad["regions"][0]["ok"])


    def test_each_winner_imports_its_own_params(self):
        winners = []
        for value in (1, 2):
            folder = os.path.join(self.dir.name, f"winner{value}")
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "kw_params.py"), "w") as f:
                f.write(f"BLOCK = {value}\n")
            with open(os.path.join(folder, "candidate.py"), "w") as f:
                f.write("import kw_params\n\nBLOCK = kw_params.BLOCK\n")
            winners.append(model_torch_problems.load_winner(os.path.join(folder, "candidate.py"), f"w{value}"))
        self.assertEqual([w.BLOCK for w in winners], [1, 2])
        self.assertNotIn("kw_params", sys.modules)


if __name__ == "__main__":
    unittest.main()
