"""The problem's forbidden operations judged by what a candidate ran
(torch_judge_ops): honest kernels in the styles models write pass, a
forbidden op reached under another name is found with its call site.
Records are made by PyTorch's real profiler on the CPU build; skipped where
torch does not import."""
import importlib.util
import json
import os
import tempfile
import textwrap
import unittest

try:
    import torch
except ImportError:  # the judge's hosts have it; a bare Python need not
    torch = None

import torch_judge_ops as ops

PROBLEMS = os.path.join(os.path.dirname(__file__), "..", "..", "resources", "problems", "gpu")


def forbidden_of(problem):
    with open(os.path.join(PROBLEMS, problem, "problem.json")) as f:
        return json.load(f)["forbidden"]


def recorded(source, make_input, problem):
    """What the candidate's forward runs under the profiler, judged against
    `problem`'s forbidden list: the hits."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "candidate.py")
        with open(path, "w") as f:
            f.write(textwrap.dedent(source))
        spec = importlib.util.spec_from_file_location("candidate_under_test", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        model = module.ModelNew()
        x = make_input()
        with torch.no_grad():
            record = ops.record_call(torch, lambda: model(x), "candidate.py")
    got_ops, kernels, _ = ops.validated(json.loads(json.dumps(record)))  # as it crosses the socket
    return ops.forbidden_ran(got_ops, kernels, ops.op_words(forbidden_of(problem)))


def rows():
    return torch.randn(4, 64)


class Words(unittest.TestCase):
    def test_each_bundled_problem_names_its_operations(self):
        expected = {
            "gpu_softmax": ["softmax", "log_softmax"],
            "gpu_layernorm": ["layer_norm", "group_norm", "instance_norm", "batch_norm"],
            "gpu_dwconv1d_silu": ["conv", "convolution", "conv_depthwise", "silu"],
            "gpu_fm_classic": ["sum", "einsum", "bmm", "matmul"],
            "gpu_rmsnorm_fwd": ["rms_norm"],
            "gpu_rmsnorm_bwd": ["rms_norm"],
            "gpu_mapid": ["bucketize", "searchsorted"],
            "gpu_batch_event_truncate": ["repeat_interleave", "masked_select"],
        }
        for problem, words in expected.items():
            with self.subTest(problem=problem):
                self.assertEqual(ops.op_words(forbidden_of(problem)), words)

    def test_entries_that_name_no_op_give_none(self):
        self.assertEqual(ops.op_words(["torch.compile", "torch._inductor", "torch.ops", "torch.autograd", ".backward(",
                                       "torch.func", "functorch", 3, None, "", "x-y"]), [])


class Matching(unittest.TestCase):
    def test_an_op_its_variants_and_its_library_form(self):
        hits = [("aten::softmax", "softmax"), ("aten::_softmax", "softmax"), ("aten::_softmax.out", "softmax"),
                ("aten::log_softmax", "softmax"), ("aten::silu_", "silu"), ("aten::conv1d", "conv"),
                ("aten::conv_depthwise2d", "conv_depthwise"), ("aten::native_layer_norm", "layer_norm"),
                ("aten::cudnn_convolution", "convolution"), ("aten::sum.dim_IntList", "sum")]
        for name, word in hits:
            with self.subTest(name=name, word=word):
                self.assertTrue(ops.op_hits(name, word))

    def test_ops_that_only_share_letters_are_not_it(self):
        misses = [("aten::cumsum", "sum"), ("aten::nansum", "sum"), ("aten::convolution", "conv"), ("aten::baddbmm", "bmm"),
                  ("aten::empty_like", "softmax"), ("aten::addmm", "matmul"), ("aten::sigmoid", "silu")]
        for name, word in misses:
            with self.subTest(name=name, word=word):
                self.assertFalse(ops.op_hits(name, word))

    def test_a_library_kernel_is_found_by_name_an_own_kernel_never(self):
        self.assertTrue(ops.kernel_hits(
            "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float>(float*, float const*, int)",
            "softmax"))
        self.assertTrue(ops.kernel_hits("void at::native::vectorized_layer_norm_kernel<float, float>(int, float, ...)",
                                        "layer_norm"))
        self.assertFalse(ops.kernel_hits("void at::native::tensor_kernel_scan_innermost_dim<float, cumsum_functor>", "sum"))
        self.assertFalse(ops.kernel_hits("void at::native::elementwise_kernel<convert_float_to_half>(int)", "conv"))
        for own in ("softmax_kernel", "void softmax_kernel<float>(float const*, float*, int)", "_layer_norm_fwd_fused",
                    "triton_per_fused__softmax_0"):
            with self.subTest(own=own):
                self.assertFalse(ops.kernel_hits(own, "softmax") or ops.kernel_hits(own, "layer_norm"))


class Records(unittest.TestCase):
    def test_a_record_the_runner_did_not_make_is_refused(self):
        bad = [None, [], {"ops": []}, {"ops": {}, "kernels": []}, {"ops": [["aten::x", True, ""]], "kernels": []},
               {"ops": [["aten::x", 0, ""]], "kernels": []}, {"ops": [["aten::x", 1]], "kernels": []},
               {"ops": [], "kernels": [["k", 1.5]]}, {"ops": [], "kernels": [], "note": 7},
               {"ops": [["aten::x", 1, ""]] * (ops.MAX_RECORDED + 1), "kernels": []}]
        for reply in bad:
            with self.subTest(reply=str(reply)[:60]):
                with self.assertRaises(ops.BadRecord):
                    ops.validated(reply)

    def test_long_names_are_cut(self):
        got, kernels, _ = ops.validated({"ops": [["aten::" + "x" * 1000, 2, "y" * 1000]], "kernels": [["k" * 1000, 1]]})
        self.assertEqual(len(got[0][0]), ops.MAX_NAME)
        self.assertEqual(len(got[0][2]), ops.MAX_NAME)
        self.assertEqual(len(kernels[0][0]), ops.MAX_NAME)

    def test_the_refusal_names_what_ran_where_and_what_to_do(self):
        text = ops.violation_text([{"word": "softmax", "what": "op", "name": "aten::softmax", "calls": 1,
                                    "site": "forward (candidate.py:12)"}], "shape one seed 1 (call 3)")
        for part in ("aten::softmax", "forward (candidate.py:12)", "forbids softmax", "own kernel", "shape one seed 1"):
            self.assertIn(part, text)

    def test_the_site_comes_from_the_enclosing_python_events_when_the_op_has_no_stack(self):
        # PyTorch 2.x on a device trace: the op's stack is empty, its parents
        # are the traced Python calls, innermost first.
        class Event:
            def __init__(self, name, parent=None, stack=None):
                self.name, self.cpu_parent, self.stack = name, parent, stack

        outer = Event("nn.Module: ModelNew_0", Event("<string>(6): <module>"))
        forward = Event("/job/candidate/candidate.py(7): forward", outer)
        module = Event("torch/nn/modules/activation.py(1389): forward", Event("nn.Module: Softmax_0", forward))
        op = Event("aten::softmax", module, stack=[])
        self.assertEqual(ops.event_site(op, "candidate.py"), "forward (candidate.py:7)")
        self.assertEqual(ops.event_site(Event("aten::softmax", outer), "candidate.py"), "")
        with_stack = Event("aten::softmax", module, stack=["candidate.py(9): helper"])
        self.assertEqual(ops.event_site(with_stack, "candidate.py"), "helper (candidate.py:9)")


@unittest.skipIf(torch is None, "torch does not import here")
class WhatRan(unittest.TestCase):
    def test_honest_styles_run_nothing_forbidden(self):
        # Names that start like the op, a store of an nn module never called,
        # a fallback branch that does not run, the op's pieces by hand.
        source = """
            import torch
            import torch.nn as nn
            import torch.nn.functional as F

            def softmax_rows(x):
                m = x.max(dim=-1, keepdim=True).values
                e = torch.exp(x - m)
                return e / e.sum(dim=-1, keepdim=True)

            class ModelNew(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.softmax = nn.Softmax(dim=-1)  # kept from the reference, never called
                    self.softmax_impl = softmax_rows

                def forward(self, x):
                    if x.dim() != 2:  # a fallback that does not run here
                        return F.softmax(x, dim=-1)
                    return self.softmax_impl(x)
        """
        self.assertEqual(recorded(source, rows, "gpu_softmax"), [])

    def test_the_op_under_another_name_is_found_with_its_site(self):
        source = """
            import torch.nn as nn

            class ModelNew(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.act = nn.Softmax(dim=-1)

                def forward(self, x):
                    return self.act(x)
        """
        hits = recorded(source, rows, "gpu_softmax")
        self.assertEqual([h["word"] for h in hits], ["softmax"])
        self.assertIn("softmax", hits[0]["name"])
        self.assertIn("candidate.py:", hits[0]["site"])

    def test_a_stackless_record_gets_its_site_from_the_dispatch_and_only_when_forbidden(self):
        # PyTorch 2.x keeps no stack for an op on a device trace: the site
        # then comes from one more call under a dispatch mode, made only when
        # a forbidden op was recorded (an honest call runs once).
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "candidate.py")
            with open(path, "w") as f:
                f.write("import torch.nn as nn\n\n\nclass ModelNew(nn.Module):\n    def __init__(self):\n"
                        "        super().__init__()\n        self.rows = getattr(nn, 'Soft' + 'max')(dim=-1)\n\n"
                        "    def forward(self, x):\n        return self.rows(x)\n")
            spec = importlib.util.spec_from_file_location("candidate_sites", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            model, x = module.ModelNew(), rows()
            sites = ops.dispatch_sites(torch, lambda: model(x), "candidate.py", ["softmax"])
            self.assertTrue(sites, "no op of the word was dispatched")
            self.assertTrue(all(v == "forward (candidate.py:10)" for v in sites.values()), sites)
            self.assertEqual(ops.dispatch_sites(torch, lambda: model(x), "candidate.py", ["layer_norm"]), {})

        calls = []

        def honest():
            calls.append(1)
            return torch.ones(3) * 2

        record = ops.record_call(torch, honest, "candidate.py", ["softmax"])
        self.assertEqual(len(calls), 1)
        self.assertFalse(any(ops.op_hits(o[0], "softmax") for o in record["ops"]))

    def test_a_failing_call_is_the_candidates_a_failing_profiler_is_not(self):
        with self.assertRaises(RuntimeError):
            ops.record_call(torch, lambda: (_ for _ in ()).throw(RuntimeError("the kernel failed")), "candidate.py")

        class NoEvents:
            """A profiler that starts and stops but cannot give its events."""

            def __init__(self, **kwargs):
                pass

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return None

            def events(self):
                raise RuntimeError("no events")

        real = torch.profiler.profile
        torch.profiler.profile = NoEvents
        try:
            record = ops.record_call(torch, lambda: torch.ones(2) * 2, "candidate.py")
        finally:
            torch.profiler.profile = real
        self.assertEqual((record["ops"], record["kernels"]), ([], []))
        self.assertIn("profiler failed", record["note"])

    def test_the_op_reached_by_a_string_is_found(self):
        source = """
            import torch
            import torch.nn as nn

            class ModelNew(nn.Module):
                def forward(self, x):
                    return getattr(torch, "soft" + "max")(x, -1)
        """
        self.assertEqual([h["word"] for h in recorded(source, rows, "gpu_softmax")], ["softmax"])

    def test_a_norm_module_under_another_name_is_found(self):
        source = """
            import torch.nn as nn

            class ModelNew(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.bn = nn.LayerNorm(64)

                def forward(self, x):
                    return self.bn(x)
        """
        self.assertEqual([h["word"] for h in recorded(source, rows, "gpu_layernorm")], ["layer_norm"])

    def test_a_conv_through_functional_is_found_and_a_helper_op_is_not_the_sum(self):
        conv = """
            import torch
            import torch.nn as nn
            import torch.nn.functional as F

            class ModelNew(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.w = torch.randn(8, 1, 3)

                def forward(self, x):
                    return F.silu(F.conv1d(x, self.w, padding=1, groups=8))
        """
        hits = recorded(conv, lambda: torch.randn(2, 8, 32), "gpu_dwconv1d_silu")
        self.assertEqual(sorted(h["word"] for h in hits), ["conv", "convolution", "silu"])
        cumsum = """
            import torch
            import torch.nn as nn

            class ModelNew(nn.Module):
                def forward(self, x):
                    return torch.cumsum(x, 1)[:, -1:] * 0.5
        """
        self.assertEqual(recorded(cumsum, rows, "gpu_fm_classic"), [])


if __name__ == "__main__":
    unittest.main()
