#!/usr/bin/env python3
# A second opinion on the torch judge's clock: times a bundled GPU problem's
# eager reference, torch.compile of it and its seed (default params, or
# PARAMS as JSON) in one process with CUDA events, the L2 flushed before each
# call and no idle gap (the flush runs right before the call on one stream).
# It trusts the code it runs, so it is a yardstick for the judge's numbers,
# never a judge. Also prints each kernel's device time from PyTorch's profiler.
#
#   python3 tests/gpu/event_timing.py PROBLEM_DIR [PARAMS_JSON]
import importlib.util
import json
import os
import re
import sys
import types

import torch


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def seed_module(path, params):
    text = open(path).read()
    ks = types.ModuleType("kw_params")
    for m in re.finditer(r"@kw-param\s+(\w+)\s*:\s*([^=\n]+?)\s*=\s*(\S+)", text):
        value = params.get(m.group(1), m.group(3))
        try:
            value = int(value)
        except ValueError:
            try:
                value = float(value)
            except ValueError:
                value = str(value)
        setattr(ks, m.group(1), value)
    sys.modules["kw_params"] = ks
    return load("seed", path)


def timed(fn, args, flush, reps=40):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.no_grad():
        for _ in range(5):
            fn(*args)
        torch.cuda.synchronize()
        times = []
        for _ in range(reps):
            flush.zero_()
            start.record()
            fn(*args)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1e3)
    times.sort()
    return times[len(times) // 2], times[len(times) // 10]


def kernels(fn, args):
    from torch.profiler import ProfilerActivity, profile

    with torch.no_grad():
        fn(*args)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            fn(*args)
            torch.cuda.synchronize()
    out = []
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            out.append((e.name[:70], e.time_range.elapsed_us()))
    return out


def main():
    folder = sys.argv[1]
    params = json.loads(sys.argv[2]) if len(sys.argv) > 2 else {}
    problem = json.load(open(os.path.join(folder, "problem.json")))
    ref = load("reference", os.path.join(folder, problem["reference"]))
    shape = problem["shapes"]["time"][0]
    for k, v in shape["sizes"].items():
        setattr(ref, k, v)
    torch.manual_seed(1)
    with torch.device("cuda"):
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
        init = list(ref.get_init_inputs())
        model = ref.Model(*init).cuda().eval()
    seed = seed_module(os.path.join(folder, problem["seeds"][0]["source"]), params)
    torch.manual_seed(1)
    with torch.device("cuda"):
        cand = seed.ModelNew(*init).cuda().eval()
    if model.state_dict():
        cand.load_state_dict(model.state_dict())
    flush = torch.empty(256 << 20, dtype=torch.uint8, device="cuda")
    compiled = torch.compile(model)
    row = {"problem": problem["name"], "shape": shape["name"]}
    for name, fn in (("eager", model), ("compile", compiled), ("seed", cand)):
        med, p10 = timed(fn, inputs, flush)
        row[name + "_us"], row[name + "_p10_us"] = round(med, 2), round(p10, 2)
        ks = kernels(fn, inputs)
        row[name + "_kernels"] = [[n, round(t, 2)] for n, t in ks]
    print(json.dumps(row))


if __name__ == "__main__":
    main()
