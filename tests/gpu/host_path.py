#!/usr/bin/env python3
"""Where a torch seed's host time goes, on a CUDA host, outside the judge: its
ModelNew called back to back on input sets drawn at the problem's time shape,
as the judge's runner calls it, timed on the host without waiting for the
device (the launch path's cost a call), with the device drained (the call's
throughput), and by CUDA events (the device's time a call); then Python's
profiler over the same calls, the functions that took the most host time.

Why: the judge's runners reported 105-244 us of launching a set for Triton
seeds whose launches cost 17-24 us each on their own (launch_cost.py), so a
launch-bound seed's judged time is mostly something else on the host path.

Then the same calls with one thing of the judge's runner added at a time
(`variants`): the process held to one CPU as in the timed rounds, the inputs
as fresh views over a mapping of shared device memory (as the judge hands
them over), a generator seed before each pass over the sets (a runner's call
is such a pass; torch.manual_seed, then the runner's own seed_generators),
each output exported for the judge and kept two passes. The row where the host path jumps names the cause.

usage: python3 tests/gpu/host_path.py PROBLEM_DIR SEED.py [NAME=VALUE ...]
           [--calls N] [--sets S] [--profile-top K]
  NAME=VALUE  the seed's parameters (its @kw-param defaults otherwise)
"""
import argparse
import cProfile
import importlib.util
import io
import json
import os
import pstats
import re
import sys
import tempfile
import time

HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "harness", "torch")


def seed_defaults(text):
    """The @kw-param defaults of a seed ("# @kw-param NAME: a | b = DEFAULT")."""
    out = {}
    for m in re.finditer(r"#\s*@kw-param\s+(\w+)\s*:[^=\n]*=\s*(\S+)", text):
        out[m.group(1)] = m.group(2)
    return out


def literal(text):
    """A parameter's Python value, as the harness writes kw_params.py."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def variants(torch, model, sets, n):
    """The host path a call (launching only, us) with the runner's habits added one by one."""
    import torch_cuda

    drv = torch_cuda.Driver()
    shared = []  # per set: [(the mapping as the dtype, shape, stride) or the value]
    keep_alive = []
    for args in sets:
        row = []
        for x in args:
            if not isinstance(x, torch.Tensor):
                row.append(x)
                continue
            alloc = drv.alloc_shared(max(x.numel() * x.element_size(), 1))
            alloc.tensor(list(x.shape), list(x.stride()), x.dtype).copy_(x)
            # Mapped a second time from its descriptor, as a runner maps the judge's.
            ptr, handle = drv.map_shared(os.dup(alloc.fd), alloc.size)
            raw = torch_cuda._wrap(ptr, alloc.size)
            keep_alive.append((alloc, ptr, handle, raw))
            row.append((torch_cuda.typed_base(raw, x.dtype), list(x.shape), list(x.stride())))
        shared.append(row)
    torch.cuda.synchronize()
    cpu = sorted(os.sched_getaffinity(0))
    from torch_judge_host import pin, timing_cpus

    chosen = timing_cpus()[0]
    timing_cpu = chosen[0] if chosen else cpu[len(cpu) // 2]  # the CPU the judge's timed rounds would use
    keep = [[], []]  # a runner's call is a pass over the sets: the last pass's outputs and the one before

    from torch_runner import seed_generators

    def run(views, seed, export, k):
        first = k % len(sets) == 0
        if first and export:
            keep[1], keep[0] = keep[0], []
        if first and seed == "torch":
            torch.manual_seed(k)
        elif first and seed:
            seed_generators(torch, k)
        args = [a[0].as_strided(a[1], a[2], 0) if isinstance(a, tuple) else a for a in shared[k % len(sets)]] if views else sets[k % len(sets)]
        out = model(*args)
        if export:
            outs = list(out) if isinstance(out, (list, tuple)) else [out]
            for t in outs:
                if isinstance(t, torch.Tensor):
                    drv.export(t)
            keep[0].extend(outs)

    rows = [("plain (as above)", False, False, False, False), (f"held to CPU {timing_cpu}, as in the timed rounds", True, False, False, False),
            ("+ inputs as views of shared memory", True, True, False, False),
            ("+ torch.manual_seed a pass over the sets", True, True, "torch", False),
            ("  (the runner's seed_generators instead)", True, True, True, False),
            ("+ outputs exported, kept two passes", True, True, True, True)]
    print("the runner's habits, added one at a time (host path, launching only):")
    with torch.no_grad():
        for name, held, views, seed, export in rows:
            pin(os.getpid(), {timing_cpu} if held else set(cpu))  # every thread, as the judge holds a runner
            for k in range(2 * len(sets)):
                run(views, seed, export, k)
            torch.cuda.synchronize()
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                for k in range(n):
                    run(views, seed, export, k)
                times.append((time.perf_counter() - t0) / n * 1e6)
                torch.cuda.synchronize()
            print(f"  {name:44} {sorted(times)[1]:8.1f} us a call")
    pin(os.getpid(), set(cpu))
    keep.clear()
    shared.clear()
    torch.cuda.synchronize()
    while keep_alive:
        alloc, ptr, handle, _ = keep_alive.pop()
        drv.unmap_shared(ptr, alloc.size, handle)
        alloc.free()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problem")
    ap.add_argument("seed")
    ap.add_argument("params", nargs="*")
    ap.add_argument("--calls", type=int, default=400)
    ap.add_argument("--sets", type=int, default=8)
    ap.add_argument("--profile-top", type=int, default=18)
    a = ap.parse_args()

    import torch

    sys.path.insert(0, HARNESS)
    from torch_sizes import apply_sizes, derived_assignments

    problem = json.load(open(os.path.join(a.problem, "problem.json")))
    shape = problem["shapes"]["time"][0]
    seed_text = open(a.seed).read()
    params = seed_defaults(seed_text)
    for kv in a.params:
        k, _, v = kv.partition("=")
        params[k] = v
    work = tempfile.mkdtemp(prefix="host-path-")
    with open(os.path.join(work, "kw_params.py"), "w") as f:
        for k, v in params.items():
            f.write(f"{k} = {literal(v)!r}\n")
    sys.path.insert(0, work)

    ref_path = os.path.join(a.problem, problem["reference"])
    reference = load("reference", ref_path)
    apply_sizes(reference, shape["sizes"], derived_assignments(open(ref_path).read()))
    candidate = load("candidate", a.seed)
    apply_sizes(candidate, {k: v for k, v in shape["sizes"].items() if hasattr(candidate, k)}, {})
    torch.manual_seed(0)
    init = reference.get_init_inputs()
    sets = []
    for _ in range(a.sets):
        sets.append([x.cuda() if isinstance(x, torch.Tensor) else x for x in reference.get_inputs()])
    with torch.device("cuda"):
        model = candidate.ModelNew(*init)
    model = model.cuda().eval()
    print(f"{problem['name']} at {shape['name']}, params {' '.join(f'{k}={v}' for k, v in params.items())}; "
          f"torch {torch.__version__}, {torch.cuda.get_device_name()}, {a.sets} input sets, {a.calls} calls a run")

    def calls(n):
        for k in range(n):
            model(*sets[k % a.sets])

    with torch.no_grad():
        calls(3 * a.sets)  # compile and warm
        torch.cuda.synchronize()
        rows = []
        for _ in range(3):
            t0 = time.perf_counter()
            calls(a.calls)
            t1 = time.perf_counter()
            torch.cuda.synchronize()
            t2 = time.perf_counter()
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            # Device time: the calls queued behind one wait longer than their
            # launching (about 2e9 cycles a second), so the device never idles on the host.
            torch.cuda._sleep(int(1.5 * (t1 - t0) * 2e9) + 1_000_000)
            e0.record()
            calls(a.calls)
            e1.record()
            torch.cuda.synchronize()
            rows.append(((t1 - t0) / a.calls * 1e6, (t2 - t0) / a.calls * 1e6, e0.elapsed_time(e1) * 1e3 / a.calls))
        rows.sort()
        host, wall, device = rows[1]
        print(f"{'host path (launching only)':34} {host:8.1f} us a call")
        print(f"{'back to back, device drained':34} {wall:8.1f} us a call")
        print(f"{'device (events, queue kept full)':34} {device:8.1f} us a call")
        print("launch-bound" if host > device else "device-bound", f"(host/device {host / max(device, 1e-9):.2f})")

        try:
            variants(torch, model, sets, a.calls)
        except Exception as e:  # the rows above stand; say why these did not come
            print(f"the runner's habits could not be reproduced here: {type(e).__name__}: {e}")
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))

        prof = cProfile.Profile()
        torch.cuda.synchronize()
        prof.enable()
        calls(a.calls)
        prof.disable()
        torch.cuda.synchronize()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(a.profile_top)
    print(f"host time by function over {a.calls} calls (cProfile adds its own cost to each call):")
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip()))


if __name__ == "__main__":
    main()
