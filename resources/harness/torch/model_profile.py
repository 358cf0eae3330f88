"""Where a model's time goes: `kernelwright-cli model profile MODEL.py`.

MODEL.py is in KernelBench's format (class Model, get_inputs,
get_init_inputs). It runs in a Python of its own, on the GPU when one is
visible, else on the CPU: a few warm steps, then `steps` forward passes
under PyTorch's profiler. One JSON object on the last line of stdout:

  {"ok": true, "device": "cpu"|"cuda", "steps": N, "step_s": median step,
   "profiled_step_s": a step under the profiler (what ops' shares are of),
   "ops":     [{"name", "calls", "time_s", "share", "shapes"}],   per step
   "regions": [{"name", "kind", "calls", "time_s", "device_s", "host_s", "share", "bytes"}]}

An op's time is its own (self) time on the device that does the work (the
kernels it launched on a GPU, its own CPU time on a CPU), so the ops' times
add up to at most a step. A region is a leaf module (one with no children:
the unit a kernel can replace without editing the user's file) and its time
is its forward's, synchronised before and after, in a pass without the
profiler (what it costs a step: a loop of small launches costs its host
time), its share of that pass's step; apart, under the profiler, its
device time (on a GPU the span of its kernels) and its host time; its bytes are what it reads and
writes (its tensor inputs, parameters and outputs), for a floor at the
host's bandwidth (an embedding's table counts the rows its indices name, at
most all of it). Errors: {"ok": false, "error": what to fix}.
"""
import importlib.util
import json
import statistics
import sys
import time
from typing import Dict, List, Tuple

MAX_ROWS = 200


def load(path: str):
    spec = importlib.util.spec_from_file_location("profiled_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("Model", "get_inputs"):
        if not hasattr(module, name):
            raise ValueError(f"{path} has no {name}: a model file defines class Model, get_inputs() and, "
                             "where Model takes arguments, get_init_inputs()")
    return module


def tensor_bytes(value) -> int:
    """Bytes of the tensors in a value (tuples, lists and dicts walked)."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(tensor_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(tensor_bytes(v) for v in value.values())
    return 0


def parameter_bytes(torch, module, args) -> int:
    """What a call reads of the module's own parameters: all of them, except
    an embedding's table, of which a lookup reads one row per index (at most
    the whole table)."""
    whole = sum(p.numel() * p.element_size() for p in module.parameters(recurse=False))
    if isinstance(module, (torch.nn.Embedding, torch.nn.EmbeddingBag)) and args and isinstance(args[0], torch.Tensor):
        row = module.weight.shape[1] * module.weight.element_size()
        return min(whole, args[0].numel() * row)
    return whole


def leaf_modules(model) -> List[Tuple[str, object]]:
    """The modules with no children, by their dotted names; a model with no
    children is one region of its own."""
    leaves = [(name, m) for name, m in model.named_modules() if name and not any(True for _ in m.children())]
    return leaves or [("(model)", model)]


class RegionMarks:
    """Wraps every leaf module's forward in a profiler range named after it,
    and counts what it reads and writes."""

    PREFIX = "region::"

    def __init__(self, torch, model):
        self.torch = torch
        self.kinds: Dict[str, str] = {}
        self.bytes: Dict[str, int] = {}
        self.calls: Dict[str, int] = {}
        self.open: Dict[str, List[object]] = {}
        self.handles = []
        for name, module in leaf_modules(model):
            self.kinds[name] = type(module).__name__
            self.handles.append(module.register_forward_pre_hook(self._enter(name)))
            self.handles.append(module.register_forward_hook(self._leave(name)))

    def _begin(self, name):
        # The range's handle without a tensor where PyTorch has it: the older
        # entry point allocates one (an aten::zeros per call in the table).
        ops = self.torch.ops.profiler
        if hasattr(ops, "_record_function_enter_new"):
            return ops._record_function_enter_new(self.PREFIX + name, None)
        return ops._record_function_enter(self.PREFIX + name, None)

    def _end(self, handle):
        ops = self.torch.ops.profiler
        if hasattr(ops, "_record_function_exit") and not isinstance(handle, self.torch.Tensor):
            ops._record_function_exit._RecordFunction(handle)
        else:
            ops._record_function_exit(handle)

    def _enter(self, name):
        def hook(module, args):
            self.open.setdefault(name, []).append(self._begin(name))
            self.bytes[name] = self.bytes.get(name, 0) + parameter_bytes(self.torch, module, args) + tensor_bytes(args)
            self.calls[name] = self.calls.get(name, 0) + 1
        return hook

    def _leave(self, name):
        def hook(_module, _args, output):
            self._end(self.open[name].pop())
            self.bytes[name] = self.bytes.get(name, 0) + tensor_bytes(output)
        return hook

    def reset(self):
        self.bytes.clear()
        self.calls.clear()

    def remove(self):
        for h in self.handles:
            h.remove()


def device_time(event, cuda: bool, own: bool) -> float:
    """An aggregated event's time in seconds: the device's (kernels) on a GPU,
    the CPU's on a CPU; its own part or everything under it."""
    names = (["self_device_time_total", "self_cuda_time_total"] if own else ["device_time_total", "cuda_time_total"]) \
        if cuda else (["self_cpu_time_total"] if own else ["cpu_time_total"])
    for n in names:
        v = getattr(event, n, None)
        if v is not None:
            return float(v) * 1e-6
    return 0.0


def region_walls(torch, model, step, steps: int, sync, names=None):
    """({region: seconds per step}, the step's seconds) with the device
    synchronised before and after every leaf module's forward (or the
    modules `names`): each
    region's cost to the step, host and device together, profiler-free."""
    spent: Dict[str, float] = {}
    started: Dict[str, float] = {}
    handles = []

    def enter(name):
        def hook(_m, _args):
            sync()
            started[name] = time.perf_counter()
        return hook

    def leave(name):
        def hook(_m, _args, _out):
            sync()
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started[name]
        return hook

    modules = [(n, model.get_submodule(n)) for n in names] if names is not None else leaf_modules(model)
    for name, module in modules:
        handles.append(module.register_forward_pre_hook(enter(name)))
        handles.append(module.register_forward_hook(leave(name)))
    try:
        step()
        sync()
        spent.clear()
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        sync()
        total = (time.perf_counter() - t0) / steps
    finally:
        for h in handles:
            h.remove()
    return {n: t / steps for n, t in spent.items()}, total


def main_shapes(by_shape, cuda: bool) -> Dict[str, List[str]]:
    """Each op's input shapes in its costliest grouping (the profiler's
    averages grouped by input shape)."""
    best: Dict[str, Tuple[float, List[str]]] = {}
    for e in by_shape:
        name = str(e.key)
        t = device_time(e, cuda, own=True)
        shapes = [str(s) for s in (getattr(e, "input_shapes", None) or []) if s][:4]
        if name.startswith("aten::") and shapes and t > best.get(name, (-1.0, []))[0]:
            best[name] = (t, shapes)
    return {name: shapes for name, (_, shapes) in best.items()}


def summarise(events, marks: RegionMarks, steps: int, step_s: float, cuda: bool,
              shapes_of: Dict[str, List[str]]) -> Dict[str, list]:
    """Per-step rows of ops and regions from the profiler's averages."""
    ops, regions = [], {}
    for e in events:
        name = str(e.key)
        if name.startswith(RegionMarks.PREFIX):
            region = name[len(RegionMarks.PREFIX):]
            row = regions.setdefault(region, {"name": region, "kind": marks.kinds.get(region, ""), "calls": 0,
                                              "time_s": 0.0, "host_s": 0.0, "bytes": marks.bytes.get(region, 0) // steps})
            if str(getattr(e, "device_type", "")).endswith("CUDA"):
                # The range as the GPU saw it (a user annotation on the
                # device's timeline): first kernel start to last kernel end.
                row["time_s"], row["on_device"] = device_time(e, cuda, own=False) / steps, True
            else:
                row["calls"] = e.count // steps
                row["host_s"] = e.cpu_time_total * 1e-6 / steps
                if not row.get("on_device"):
                    row["time_s"] = device_time(e, cuda, own=False) / steps
        elif name.startswith("aten::"):
            t = device_time(e, cuda, own=True) / steps
            if t <= 0:
                continue
            ops.append({"name": name, "calls": e.count // steps, "time_s": t,
                        "share": t / step_s if step_s > 0 else 0.0, "shapes": shapes_of.get(name, [])})
    for row in regions.values():
        row.pop("on_device", None)
    # Regions are ranked and shared out by profile(), from their times
    # measured without the profiler.
    ops.sort(key=lambda r: -r["time_s"])
    return {"ops": ops[:MAX_ROWS], "regions": list(regions.values())}


def profile(path: str, steps: int, warmup: int) -> dict:
    import torch
    from torch.profiler import ProfilerActivity

    module = load(path)
    cuda = torch.cuda.is_available()
    device = "cuda" if cuda else "cpu"
    init = module.get_init_inputs() if hasattr(module, "get_init_inputs") else []
    model = module.Model(*init).to(device).eval()
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    sync = torch.cuda.synchronize if cuda else (lambda: None)

    def step():
        with torch.no_grad():
            model(*inputs)

    for _ in range(warmup):
        step()
    sync()
    walls = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        sync()
        walls.append(time.perf_counter() - t0)
    step_s = statistics.median(walls)

    walls, synced_s = region_walls(torch, model, step, steps, sync)
    marks = RegionMarks(torch, model)
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with torch.profiler.profile(activities=activities, record_shapes=True) as prof:
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        sync()
        profiled_s = (time.perf_counter() - t0) / steps
    marks.remove()
    # Shares are of the profiled step: the profiler's own cost is in every
    # time it reports, so the plain step would make them add up past 100 %.
    rows = summarise(prof.key_averages(), marks, steps, profiled_s, cuda,
                     main_shapes(prof.key_averages(group_by_input_shape=True), cuda))
    for r in rows["regions"]:
        # What the region costs a step, measured apart from the profiler
        # (which slows a loop of small launches many times over).
        r["device_s"], r["time_s"] = r["time_s"], walls.get(r["name"], 0.0)
        r["share"] = r["time_s"] / synced_s if synced_s > 0 else 0.0
    rows["regions"] = sorted(rows["regions"], key=lambda r: -r["time_s"])[:MAX_ROWS]
    return {"ok": True, "device": device, "steps": steps, "step_s": step_s, "profiled_step_s": profiled_s, **rows}


def main(argv: List[str]) -> int:
    if len(argv) < 2:
        print(json.dumps({"ok": False, "error": "usage: model_profile.py MODEL.py [STEPS]"}))
        return 2
    steps = int(argv[2]) if len(argv) > 2 else 10
    return reply(argv[1], lambda: profile(argv[1], max(1, steps), warmup=3))


def reply(model_file: str, work, told=()) -> int:
    """Prints work()'s answer as the last line: an exception of `told` as
    its own message, any other as the model's failure."""
    try:
        answer = work()
    except told as exc:
        answer = {"ok": False, "error": str(exc)}
    except Exception as exc:  # the model's own failure, told to the user
        answer = {"ok": False, "error": f"{model_file}: the model did not run ({type(exc).__name__}: {exc})"}
    sys.stdout.flush()
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
