"""A model with its regions' best kernels in place: `model apply` and `model ab`.

    model_swap.py check DIR [SEED]
    model_swap.py ab DIR [ROUNDS] [SEED]

DIR is what `model extract` wrote (model.json: the model file, its regions,
each matched region's binding) plus kernels.json, which `model apply` writes
from the workspace: for each region the best accepted kernel of its search
({"region", "language": "cpp", "source", "defines", "problem"} or
{"region", "language": "python", "source"}). The user's file is never
edited: the model is built by its own constructor and each region's module
is replaced on the instance by one that calls the kernel.

check: on fresh inputs (a seed the extraction did not use), every swapped
region's output against the original module's on the same arguments (at its
problem's tolerance), then the whole model's output against the original
model's (at the model's tolerance, rtol = atol = 1e-4 unless model.json
says otherwise).

ab: the original and the swapped model timed in interleaved rounds on the
same input sets, in an order shuffled each round: eager, swapped, and with
torch.compile where this PyTorch has it; then each region swapped alone, for
what it contributes. Per variant the median step; the speedup's 95 %
interval by bootstrap over the rounds' paired ratios.

One JSON object on the last line of stdout, {"ok": false, "error"} on failure.
"""
import copy
import json
import os
import random
import statistics
import sys
import tempfile
import time
from typing import Dict, List

import model_kernels
import model_torch_problems
from model_profile import load, region_walls

MODEL_TOL = 1e-4


def kernel_module_class(torch):
    class Swapped(torch.nn.Module):
        """The region's module with a kernel in its place: the original stays
        inside for its parameters and buffers (what the binding reads)."""

        def __init__(self, original, call):
            super().__init__()
            self.original = original
            self._call = call

        def forward(self, *args):
            outs = self._call(self.original, args)
            return outs[0] if len(outs) == 1 else tuple(outs)

    return Swapped


def read_dir(d):
    with open(os.path.join(d, "model.json")) as f:
        model = json.load(f)
    path = os.path.join(d, "kernels.json")
    kernels = []
    if os.path.exists(path):
        with open(path) as f:
            kernels = json.load(f).get("kernels", [])
    return model, kernels


def model_json_regions(model_json):
    return [r.get("name", "") for r in model_json.get("regions", [])]


def build(torch, model_json, seed=0):
    module = load(model_json["model"])
    init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
    torch.manual_seed(seed)
    return module, module.Model(*init).eval()


def callers(torch, d, model_json, kernels, build_dir):
    """{region: call(original_module, args) -> [outputs]} for each kernel."""
    regions = {r["name"]: r for r in model_json["regions"]}
    out = {}
    for k in kernels:
        r = regions.get(k["region"])
        if r is None:
            raise ValueError(f"kernels.json names {k['region']}, which model.json has no region of: extract again")
        if k.get("language") == "cpp":
            if "binding" not in r:
                raise ValueError(f"region {k['region']} has a C++ kernel but no binding: extract again")
            with open(k["problem"]) as f:
                spec = json.load(f)
            lib = model_kernels.compile_kernel(k["source"], r["binding"], k.get("defines", []), spec, build_dir)
            out[k["region"]] = (lambda lib, b: lambda m, args: model_kernels.call(torch, lib, b, m, args))(lib, r["binding"])
        elif r.get("binding", {}).get("backend") == "torch":
            # A torch problem's winner, built at the binding's sizes with the region's tensors.
            ref = os.path.join(os.path.dirname(k["problem"]), "reference.py")
            kernel = model_torch_problems.TorchKernel(torch, ref, k["source"], tag=k["region"].replace(".", "_"))
            out[k["region"]] = (lambda kern, b: lambda m, args: model_kernels.call(torch, kern, b, m, args))(kernel, r["binding"])
        else:
            out[k["region"]] = python_winner(torch, k)
    return out


def python_winner(torch, k):
    """A torch winner: its ModelNew, given the region module's state where
    the names and shapes agree, called in the region's place."""
    mod = model_torch_problems.load_winner(k["source"], f"winner_{k['region'].replace('.', '_')}")
    made = {}

    def call(original, args):
        if "m" not in made:
            m = mod.ModelNew(*(mod.get_init_inputs() if hasattr(mod, "get_init_inputs") else []))
            state = original.state_dict()
            own = m.state_dict()
            # The region's tensors by their names, or under "region." as the
            # region's own problem file holds its module.
            given = {}
            for n, t in own.items():
                v = state.get(n, state.get(n[len("region."):]) if n.startswith("region.") else None)
                if v is not None and v.shape == t.shape:
                    given[n] = v
            m.load_state_dict(given, strict=False)
            made["m"] = m.to(args[0].device if args and isinstance(args[0], torch.Tensor) else "cpu").eval()
        out = made["m"](*args)
        return list(out) if isinstance(out, (tuple, list)) else [out]
    return call


def swap(torch, model, calls: Dict[str, object], only=None):
    """The model with the named regions' modules replaced (all by default);
    returns what to put back."""
    swapped_cls = kernel_module_class(torch)
    undo = []
    for name, call in calls.items():
        if only is not None and name not in only:
            continue
        parent_name, _, leaf = name.rpartition(".")
        parent = model.get_submodule(parent_name) if parent_name else model
        original = getattr(parent, leaf)
        setattr(parent, leaf, swapped_cls(original, call))
        undo.append((parent, leaf, original))
    return undo


def unswap(undo):
    for parent, leaf, original in reversed(undo):
        setattr(parent, leaf, original)


def outputs(torch, value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in outputs(torch, v)]
    return []


def differs(torch, got, want, rtol, atol):
    """None when close, else what differs."""
    if got.shape != want.shape:
        return f"shape {list(got.shape)} instead of {list(want.shape)}"
    if not want.dtype.is_floating_point:
        bad = int((got != want).sum())
        return None if bad == 0 else f"{bad} of {want.numel()} elements differ"
    g, w = got.double(), want.double()
    bad = ~torch.isclose(g, w, rtol=rtol, atol=atol)
    if not bool(bad.any()):
        return None
    return f"{int(bad.sum())} of {want.numel()} elements beyond rtol {rtol:g} atol {atol:g} (largest error {float((g - w).abs().max()):.3g})"


def check(d, seed):
    import torch

    model_json, kernels = read_dir(d)
    module, model = build(torch, model_json)
    # Where the kernels run: a GPU's winners take the GPU's tensors.
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = model.to(device)
    torch.manual_seed(1000 + seed)
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    with tempfile.TemporaryDirectory() as b:
        calls = callers(torch, d, model_json, kernels, b)
        # Each region on the very arguments the original model gives it.
        taken, handles = {}, []
        for name in calls:
            def hook(m, args, out, name=name):
                taken[name] = (args, outputs(torch, out))
            handles.append(model.get_submodule(name).register_forward_hook(hook))
        with torch.no_grad():
            want = outputs(torch, model(*inputs))
        for h in handles:
            h.remove()
        regions = []
        problems = {k["region"]: k.get("problem") for k in kernels}
        for name, call in calls.items():
            rtol = atol = 1e-5
            if problems.get(name):
                with open(problems[name]) as f:
                    tol = json.load(f).get("tolerance", {}).get("f32", {})
                rtol, atol = tol.get("rtol", rtol), tol.get("atol", atol)
            args, expected = taken[name]
            with torch.no_grad():
                got = call(model.get_submodule(name), args)
            why = next((w for w in (differs(torch, g, e, rtol, atol) for g, e in zip(got, expected)) if w), None)
            if len(got) != len(expected):
                why = f"{len(got)} outputs instead of {len(expected)}"
            regions.append({"region": name, "ok": why is None, **({"why": why} if why else {})})
        swap(torch, model, calls)
        with torch.no_grad():
            got = outputs(torch, model(*inputs))
        tol = model_json.get("tolerance", MODEL_TOL)
        whole = next((w for w in (differs(torch, g, e, tol, tol) for g, e in zip(got, want)) if w), None)
    return {"ok": True, "regions": regions, "model_ok": whole is None, **({"model_why": whole} if whole else {}),
            "swapped": sorted(calls), "tolerance": tol}


def timed(torch, fn, inputs, steps, sync):
    t0 = time.perf_counter()
    with torch.no_grad():
        for i in range(steps):
            fn(*inputs[i % len(inputs)])
    sync()
    return (time.perf_counter() - t0) / steps


def interval(pairs: List[float], rng) -> List[float]:
    """95 % bootstrap interval of the median of paired ratios."""
    meds = sorted(statistics.median(rng.choice(pairs) for _ in pairs) for _ in range(1000))
    return [meds[25], meds[974]]


def ab(d, rounds, seed):
    import torch

    model_json, kernels = read_dir(d)
    module, model = build(torch, model_json)
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    model = model.to(device)
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    torch.manual_seed(2000 + seed)
    sets = [[x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()] for _ in range(2)]
    rng = random.Random(seed)
    notes = []
    with tempfile.TemporaryDirectory() as b:
        calls = callers(torch, d, model_json, kernels, b)
        variants = {"eager": (None, False), "swapped": (set(calls), False)}
        if hasattr(torch, "compile"):
            variants.update({"compile": (None, True), "swapped+compile": (set(calls), True)})
        else:
            notes.append(f"torch.compile: not in this PyTorch ({torch.__version__}); eager only")
        if not calls:
            notes.append("nothing swapped: 'swapped' is the original model timed again (the A/B's own noise)")
        if len(calls) > 1:
            variants.update({f"only {n}": ({n}, False) for n in calls})
        # One model per variant, built before any timing: swapping modules
        # back and forth on one instance would make torch.compile's guards
        # fail and recompile every round.
        def instance(name):
            only, comp = variants[name]
            m = copy.deepcopy(model)
            if only:
                swap(torch, m, calls, only)
            return torch.compile(m) if comp else m

        fns = {n: instance(n) for n in variants}
        # Each region's cost to a step before and after (its forward
        # synchronised, as `model profile` measures it), for the waterfall.
        names = [n for n in model_json_regions(model_json) if n]
        before, _ = region_walls(torch, fns["eager"], lambda: timed(torch, fns["eager"], sets, 1, sync), 3, sync, names)
        after, _ = region_walls(torch, fns["swapped"], lambda: timed(torch, fns["swapped"], sets, 1, sync), 3, sync, names)
        for fn in fns.values():  # warm: builds, compiles, caches
            timed(torch, fn, sets, 3, sync)
        one = timed(torch, fns["eager"], sets, 1, sync)
        steps = max(1, min(50, int(0.2 / max(one, 1e-6))))
        times = {n: [] for n in variants}
        for _ in range(rounds):
            order = list(variants)
            rng.shuffle(order)
            for n in order:
                times[n].append(timed(torch, fns[n], sets, steps, sync))
    eager = times["eager"]
    rows = []
    for n, ts in times.items():
        base = times["compile"] if n == "swapped+compile" else eager
        pairs = [e / t for e, t in zip(base, ts)]
        rows.append({"variant": n, "median_s": statistics.median(ts), "speedup": statistics.median(pairs),
                     "interval": interval(pairs, rng), "over": "compile" if base is not eager else "eager"})
    flag_slower_in_model(rows, kernels)
    if "compile" in times:  # KernelEvolve's yardstick: the swapped model against torch.compile of the original
        pairs = [c / t for c, t in zip(times["compile"], times["swapped"])]
        rows.insert(2, {"variant": "swapped vs compile", "median_s": statistics.median(times["swapped"]),
                        "speedup": statistics.median(pairs), "interval": interval(pairs, rng), "over": "compile"})
    regions = [{"name": n, "before_s": before.get(n, 0.0), "after_s": after.get(n, 0.0)} for n in sorted(before, key=lambda n: -before[n])]
    return {"ok": True, "device": device, "rounds": rounds, "steps_per_round": steps, "variants": rows, "notes": notes,
            "swapped": sorted(calls), "regions": regions}


def flag_slower_in_model(rows, kernels):
    """Marks an "only REGION" row whose kernel was faster alone (its
    search's speedup) but whose model ran slower with it (the row's whole
    interval below 1): placement, launch order or memory undid it."""
    alone = {k["region"]: k.get("speedup") for k in kernels}
    for row in rows:
        region = row["variant"][len("only "):] if row["variant"].startswith("only ") else None
        if region is not None and isinstance(alone.get(region), (int, float)):
            row["kernel_speedup"] = alone[region]
            row["slower_in_model"] = alone[region] > 1.0 and row["interval"][1] < 1.0


def main(argv: List[str]) -> int:
    if len(argv) < 3 or argv[1] not in ("check", "ab"):
        print(json.dumps({"ok": False, "error": "usage: model_swap.py check|ab DIR [ROUNDS] [SEED]"}))
        return 2
    try:
        if argv[1] == "check":
            answer = check(argv[2], int(argv[3]) if len(argv) > 3 else 0)
        else:
            answer = ab(argv[2], max(3, int(argv[3]) if len(argv) > 3 else 15), int(argv[4]) if len(argv) > 4 else 0)
    except (ValueError, OSError, model_kernels.KernelError) as exc:
        answer = {"ok": False, "error": str(exc)}
    except Exception as exc:  # the model's or a kernel's own failure
        answer = {"ok": False, "error": f"the model did not run with its kernels ({type(exc).__name__}: {exc})"}
    sys.stdout.flush()
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
