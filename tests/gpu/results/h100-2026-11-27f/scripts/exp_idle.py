#!/usr/bin/env python3
"""Does a runner's host path slow down after its CPU idled? Calls of 16 sets
of a seed (as a runner's timed call), with the CPU idle (sleep) or not before
each; host launch time a set (first set apart) and device time a set."""
import os, sys, time, json, statistics
sys.path.insert(0, "tests/gpu"); sys.path.insert(0, "resources/harness/torch")
import host_path as hp
import torch
from torch_sizes import apply_sizes, derived_assignments
from torch_judge_host import timing_cpus, pin

prob_dir, seed_path = sys.argv[1], sys.argv[2]
params = dict(kv.split("=", 1) for kv in sys.argv[3:])
problem = json.load(open(os.path.join(prob_dir, "problem.json")))
shape = problem["shapes"]["time"][0]
defaults = hp.seed_defaults(open(seed_path).read()); defaults.update(params)
import tempfile
work = tempfile.mkdtemp()
with open(os.path.join(work, "kw_params.py"), "w") as f:
    for k, v in defaults.items():
        f.write(f"{k} = {hp.literal(v)!r}\n")
sys.path.insert(0, work)
ref_path = os.path.join(prob_dir, problem["reference"])
reference = hp.load("reference", ref_path)
apply_sizes(reference, shape["sizes"], derived_assignments(open(ref_path).read()))
cand = hp.load("candidate", seed_path)
apply_sizes(cand, {k: v for k, v in shape["sizes"].items() if hasattr(cand, k)}, {})
torch.manual_seed(0)
init = reference.get_init_inputs()
sets = [[x.cuda() if isinstance(x, torch.Tensor) else x for x in reference.get_inputs()] for _ in range(16)]
models = {}
with torch.device("cuda"):
    models["candidate"] = cand.ModelNew(*init).cuda().eval()
    models["reference"] = reference.Model(*init).cuda().eval()
cpu = timing_cpus()[0]
print(problem["name"], defaults, "runner cpu", cpu)
if cpu:
    pin(os.getpid(), {cpu[0]})
ev = [torch.cuda.Event(enable_timing=True) for _ in range(3)]

def one_call(model, before):
    if before[0] > 0:
        time.sleep(before[0])
    if before[1] > 0:
        t = time.perf_counter()
        while time.perf_counter() - t < before[1]:
            pass
    torch.cuda._sleep(1_000_000)  # the device busy, as behind the judge's flush
    t1 = time.perf_counter()
    ev[0].record()
    for k, s in enumerate(sets):
        model(*s)
        if k == 0:
            ev[1].record(); tf = time.perf_counter()
    ev[2].record()
    t2 = time.perf_counter()
    torch.cuda.synchronize()
    return ((tf - t1) * 1e6, (t2 - tf) * 1e6 / 15, ev[0].elapsed_time(ev[1]) * 1e3, ev[1].elapsed_time(ev[2]) * 1e3 / 15)

with torch.no_grad():
    for name, model in models.items():
        for _ in range(20):
            one_call(model, (0, 0))
        for label, before in [("back to back", (0, 0)), ("idle 10 ms before", (0.010, 0)), ("idle 10 ms, spin 1 ms", (0.010, 0.001)),
                              ("idle 10 ms, spin 3 ms", (0.010, 0.003)), ("back to back again", (0, 0))]:
            rows = [one_call(model, before) for _ in range(30)]
            med = [statistics.median(r[i] for r in rows) for i in range(4)]
            print(f"{name:10} {label:24} host first {med[0]:7.1f} others {med[1]:6.1f} us/set | device first {med[2]:7.1f} others {med[3]:6.1f}")
