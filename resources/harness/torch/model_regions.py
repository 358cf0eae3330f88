"""A model's regions as problems: `kernelwright-cli model extract`.

    model_regions.py MODEL.py OUTDIR PROBLEMS_DIR REGION [REGION...]

Each named region (a leaf module, as `model profile` reports it) runs inside
the whole model on the model's own inputs, twice (two draws of get_inputs),
and what it took and gave is kept. A region is then matched, by behaviour,
against the bundled C++ problems in PROBLEMS_DIR: a problem matches when
some binding of the region's tensors (its inputs, parameters and buffers,
each as it is, transposed, or with leading dimensions flattened) to the
problem's arguments makes the problem's reference give the region's outputs
on both draws, within the problem's tolerance. Names never decide: a module
called LayerNorm that computes something else matches nothing.

A matched region becomes a copy of that problem timed at the model's sizes
(OUTDIR/<model>_<region>/), with the binding that `model apply` uses to call
a kernel in the module's place. Any other region becomes a KernelBench-format
file (OUTDIR/sources/<model>_<region>.py) whose Model is that very module,
built by the model's own constructor, and whose inputs are drawn by running
the model up to it: dtypes, ranges and jagged structure are the real ones.
The caller imports those files as torch problems.

One JSON object on the last line of stdout: {"ok": true, "regions": [...]},
or {"ok": false, "error": what to fix}.
"""
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Dict, List, Optional

import model_kernels
import model_torch_problems
from model_profile import load, reply

SYMBOL_OK = str.isidentifier
MAX_TRIES = 4000  # bindings tried per problem (unified shapes only)


class Stop(Exception):
    """Raised by a region's hook once its inputs are taken: the rest of the
    model need not run."""


def capture(torch, model, inputs, names):
    """{region: (args, output)} for one forward pass of the model."""
    taken, handles = {}, []
    modules = dict(model.named_modules())

    def keep(value):
        if isinstance(value, torch.Tensor):
            return value.detach().clone()
        if isinstance(value, (tuple, list)):
            return type(value)(keep(v) for v in value)
        return value

    for name in names:
        def hook(_m, args, out, name=name):
            taken[name] = (keep(args), keep(out))
        handles.append(modules[name].register_forward_hook(hook))
    try:
        with torch.no_grad():
            model(*inputs)
    finally:
        for h in handles:
            h.remove()
    return taken


def views(shape, rank):
    """The ways a tensor of `shape` may be seen as `rank` dimensions:
    {"perm": [...] or None, "flatten": None | "leading" | "all"}."""
    n = len(shape)
    found = []
    if n == rank:
        found.append({"perm": None, "flatten": None})
        if 2 <= n <= 3:
            found += [{"perm": list(p), "flatten": None} for p in itertools.permutations(range(n)) if list(p) != list(range(n))]
    if n > rank >= 1:
        found.append({"perm": None, "flatten": "all" if rank == 1 else "leading"})
        squeezed = [d for d in shape if d != 1]
        if len(squeezed) == rank and len(squeezed) < n:
            found.append({"perm": None, "flatten": "squeeze"})
    return found


def view_shape(shape, view, rank):
    """The shape a view gives (matches model_kernels.seen_as)."""
    shape = list(shape)
    if view["perm"]:
        shape = [shape[i] for i in view["perm"]]
    if view["flatten"] == "all":
        total = 1
        for d in shape:
            total *= d
        return [total]
    if view["flatten"] == "leading":
        lead = 1
        for d in shape[: len(shape) - rank + 1]:
            lead *= d
        return [lead] + shape[len(shape) - rank + 1:]
    if view["flatten"] == "squeeze":
        return [d for d in shape if d != 1]
    return shape


def unify(symbols, shape, sizes) -> bool:
    """Binds each size symbol to its dimension; a constant must be equal."""
    if len(symbols) != len(shape):
        return False
    for s, d in zip(symbols, shape):
        if isinstance(s, int):
            if s != d:
                return False
        elif not (isinstance(s, str) and SYMBOL_OK(s)) or sizes.setdefault(s, d) != d:
            return False
    return True


def outputs_of(torch, out):
    return [out] if isinstance(out, torch.Tensor) else [o for o in out if isinstance(o, torch.Tensor)] \
        if isinstance(out, (tuple, list)) else []


def bindings(torch, spec, module, args, out):
    """Candidate bindings of a region's tensors to a problem's arguments, in
    a bounded order, with the sizes they imply."""
    ins = [a for a in spec["arguments"] if not a.get("output")]
    outs = [a for a in spec["arguments"] if a.get("output")]
    pool = list(model_kernels.region_tensors(torch, module, args).items())
    results = outputs_of(torch, out)
    if len(outs) != len(results):
        return
    dtype_of = model_kernels.torch_dtype
    options = []
    for a in ins:
        choices = []
        for src, t in pool:
            if t.dtype != dtype_of(torch, a["dtype"]):
                continue
            choices += [(src, v) for v in views(list(t.shape), len(a["shape"]))]
        options.append(choices)
    # An output seen flattened goes back in the shape of the input it had.
    out_options = [[(j, v) for j, r in enumerate(results) for v in views(list(r.shape), len(a["shape"]))
                    if not (v["flatten"] and like_input(torch, args, r) is None)] for a in outs]
    tried = 0
    for pick in itertools.product(*options):
        if len({src for src, _ in pick}) != len(pick):
            continue
        sizes: Dict[str, int] = {}
        tensors = dict(pool)
        if not all(unify(a["shape"], view_shape(tensors[src].shape, v, len(a["shape"])), sizes) for a, (src, v) in zip(ins, pick)):
            continue
        for outs_pick in itertools.product(*out_options):
            if len({j for j, _ in outs_pick}) != len(outs_pick):
                continue
            s2 = dict(sizes)
            if not all(unify(a["shape"], view_shape(results[j].shape, v, len(a["shape"])), s2) for a, (j, v) in zip(outs, outs_pick)):
                continue
            if not all(s in s2 for s in spec.get("sizes", [])):
                continue
            tried += 1
            binding = {"inputs": [{"arg": a["name"], "from": src, **v} for a, (src, v) in zip(ins, pick)],
                       "outputs": [{"arg": a["name"], "to": j, **v, "module_shape_of": like_input(torch, args, results[j])}
                                   for a, (j, v) in zip(outs, outs_pick)],
                       "sizes": s2, "shapes": {a["name"]: a["shape"] for a in spec["arguments"]},
                       "dtypes": {a["name"]: a["dtype"] for a in spec["arguments"]}}
            if spec.get("backend") == "torch":
                binding["backend"] = "torch"
            else:
                binding.update(function=spec["function"], call=spec["call"],
                               scalars={s["name"]: {"dtype": s["dtype"], "value": s["value"]} for s in spec.get("scalars", [])})
            yield binding
            if tried >= MAX_TRIES:
                return


def like_input(torch, args, r) -> Optional[int]:
    """The input whose shape the module's output has, for giving a kernel's
    flat answer back its shape when the inputs' sizes change."""
    for i, a in enumerate(args):
        if isinstance(a, torch.Tensor) and list(a.shape) == list(r.shape):
            return i
    return None


def agrees(torch, spec, got, want) -> bool:
    default = 1e-4 if spec.get("backend") == "torch" else 1e-5
    tol = spec.get("tolerance", {}).get("f32", {"rtol": default, "atol": default})
    if got.shape != want.shape:
        return False
    if want.dtype.is_floating_point:
        return bool(torch.allclose(got.double(), want.double(), rtol=tol.get("rtol", 1e-5), atol=tol.get("atol", 1e-5)))
    return bool(torch.equal(got, want))


def match(torch, problem_dir, spec, module, draws, build_dir):
    """The first binding under which the problem's reference gives the
    region's outputs on every draw, or None."""
    kernel = None
    for b in bindings(torch, spec, module, draws[0][0], draws[0][1]):
        if kernel is None and spec.get("backend") == "torch":
            kernel = model_torch_problems.TorchKernel(torch, os.path.join(problem_dir, spec.get("reference", "reference.py")),
                                                      tag=spec["name"])
        elif kernel is None:
            kernel = model_kernels.compile_kernel(os.path.join(problem_dir, spec["reference"]), b, [], spec, build_dir)
        if all(all(agrees(torch, spec, g, w) for g, w in zip(model_kernels.call(torch, kernel, b, module, args),
                                                                 outputs_of(torch, out))) for args, out in draws):
            return b
    return None


def signature(torch, module, draw):
    """What makes two modules one problem: their class and settings, their
    parameters' and buffers' shapes, what they take and give."""
    args, out = draw

    def shapes(values):
        return tuple((tuple(v.shape), str(v.dtype)) for v in values if isinstance(v, torch.Tensor))
    state = tuple((n, tuple(t.shape), str(t.dtype)) for n, t in module.state_dict().items())
    return (type(module).__name__, repr(module), state, shapes(args), shapes(outputs_of(torch, out)))


def problem_specs(torch, problems_dir):
    """The problems a region may match: C++ functions, and torch problems
    seen as functions of their inputs and state (model_torch_problems)."""
    for name in sorted(os.listdir(problems_dir)):
        path = os.path.join(problems_dir, name, "problem.json")
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            spec = json.load(f)
        if spec.get("backend") == "cpp" and "function" in spec:
            yield os.path.join(problems_dir, name), spec
        elif spec.get("backend") == "torch":
            args = model_torch_problems.arguments(torch, os.path.join(problems_dir, name), spec)
            if args:
                yield os.path.join(problems_dir, name), dict(spec, arguments=args)


def write_matched(out_dir, model_name, region, problem_dir, spec, binding):
    name = f"{model_name}_{region.replace('.', '_')}"
    dest = os.path.join(out_dir, name)
    if os.path.exists(dest):
        shutil.rmtree(dest)
    shutil.copytree(problem_dir, dest)
    with open(os.path.join(problem_dir, "problem.json")) as f:
        spec = json.load(f)  # as written, not as matched (a torch problem's arguments are derived)
    spec["name"] = name
    spec["title"] = f"{spec.get('title', spec['name'])}: {model_name}.{region} at the model's sizes"
    spec["description"] = (f"Region {region} of the model {model_name}, matched by behaviour to the bundled problem "
                           f"{os.path.basename(problem_dir)} and timed at the sizes the model runs it at. " + spec.get("description", ""))
    spec["shapes"] = dict(spec["shapes"])
    spec["shapes"]["time"] = [{"name": "model", "sizes": {s: binding["sizes"][s] for s in spec.get("sizes", [])}}]
    with open(os.path.join(dest, "problem.json"), "w") as f:
        json.dump(spec, f, indent=2)
    return name


REGION_HEAD = '''# Region {region} of the model {model}, as a KernelBench problem (written by
# `kernelwright-cli model extract`): the model's own file, then a Model that
# is the region's module, built by the model's constructor, and inputs drawn
# by running the model on fresh inputs up to the region (dtypes, ranges and
# jagged structure as the model has them). The model's module-level sizes
# stay this file's sizes.
'''

REGION_TAIL = '''

# ---- the region {region} ----
import contextlib  # noqa: E402

# Held in a call, not a plain assignment: a judge recomputes plain top-level
# assignments after setting sizes, which would rebind these to the region's.
_WHOLE = dict(model=Model, inputs=get_inputs, init={init_name})
REGION = {region!r}


class _Taken(Exception):
    pass


def _on_cpu():
    # The model is built and its inputs drawn on the CPU, as the model's
    # own file expects (a CPU generator, CPU tensors), whatever device a
    # judge makes the default; both then go where this file's tensors go.
    return torch.device("cpu") if int(torch.__version__.split(".")[0]) >= 2 else contextlib.nullcontext()


def _here():
    return torch.empty(0).device


def _whole():
    with _on_cpu():
        torch.manual_seed(0)
        whole = _WHOLE["model"](*_WHOLE["init"]()).eval()
    return whole.to(_here())


class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.region = _whole().get_submodule(REGION)

    def forward(self, *args):
        return self.region(*args)


def get_inputs():
    whole = _whole()
    with _on_cpu():
        inputs = _WHOLE["inputs"]()
    inputs = [x.to(_here()) if isinstance(x, torch.Tensor) else x for x in inputs]
    taken = []

    def hook(_module, args):
        taken.extend(args)
        raise _Taken()

    handle = whole.get_submodule(REGION).register_forward_pre_hook(hook)
    try:
        with torch.no_grad():
            whole(*inputs)
    except _Taken:
        pass
    finally:
        handle.remove()
    return list(taken)


def get_init_inputs():
    return []
'''


def write_region_file(out_dir, model_name, model_file, region):
    name = f"{model_name}_{region.replace('.', '_')}"
    os.makedirs(os.path.join(out_dir, "sources"), exist_ok=True)
    with open(model_file) as f:
        source = f.read()
    path = os.path.join(out_dir, "sources", name + ".py")
    with open(path, "w") as f:
        f.write(REGION_HEAD.format(region=region, model=model_name))
        f.write(source)
        if "import torch\n" not in source:
            f.write("\nimport torch\n")
        has_init = "def get_init_inputs" in source
        f.write(REGION_TAIL.format(region=region, init_name="get_init_inputs" if has_init else "list"))
    return name, path


def extract(model_file, out_dir, problems_dir, names):
    import torch

    module = load(model_file)
    init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
    torch.manual_seed(0)
    model = module.Model(*init).eval()
    modules = dict(model.named_modules())
    unknown = [n for n in names if n not in modules]
    if unknown:
        raise ValueError(f"no module named {', '.join(unknown)} in the model (names as `model profile` shows them)")
    draws = [capture(torch, model, module.get_inputs(), names) for _ in range(2)]
    model_name = os.path.splitext(os.path.basename(model_file))[0]
    if model_name == "model":  # a model folder's file: the folder names it
        model_name = os.path.basename(os.path.dirname(os.path.abspath(model_file))) or model_name
    os.makedirs(out_dir, exist_ok=True)
    regions = []
    with tempfile.TemporaryDirectory() as build:
        specs = list(problem_specs(torch, problems_dir)) if problems_dir and os.path.isdir(problems_dir) else []
        twins = {}
        for name in names:
            region = modules[name]
            seen = [d[name] for d in draws if name in d]
            entry = {"name": name, "kind": type(region).__name__}
            if len(seen) < 2:
                entry.update(skipped="the model did not run this module on its inputs")
                regions.append(entry)
                continue
            # A module the model repeats (a stack of like layers) is one
            # problem: its twins share its search and its kernel.
            sig = signature(torch, region, seen[0])
            twin = twins.get(sig)
            if twin is not None:
                entry.update({k: v for k, v in twin.items() if k in ("problem", "matched", "binding")}, same_as=twin["name"])
                regions.append(entry)
                continue
            twins[sig] = entry
            for problem_dir, spec in specs:
                try:
                    binding = match(torch, problem_dir, spec, region, seen, build)
                except model_kernels.KernelError as e:
                    binding, entry["notes"] = None, entry.get("notes", []) + [f"{spec['name']}: {e}"]
                if binding:
                    entry.update(matched=os.path.basename(problem_dir), binding=binding,
                                 problem=write_matched(out_dir, model_name, name, problem_dir, spec, binding))
                    break
            else:
                problem, path = write_region_file(out_dir, model_name, model_file, name)
                entry.update(problem=problem, source=path)
            regions.append(entry)
    return {"ok": True, "model": os.path.abspath(model_file), "model_name": model_name, "regions": regions}


def main(argv: List[str]) -> int:
    if len(argv) < 5:
        print(json.dumps({"ok": False, "error": "usage: model_regions.py MODEL.py OUTDIR PROBLEMS_DIR REGION..."}))
        return 2
    return reply(argv[1], lambda: extract(argv[1], argv[2], argv[3], argv[4:]),
                 (ValueError, subprocess.SubprocessError, OSError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
