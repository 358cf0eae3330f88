#!/usr/bin/env python3
"""Is training-mode batch norm's time a property of where its output lands?
KernelBench batchnorm's sizes; native_batch_norm.out into four output blocks
in turn, many rounds (drift falls on every block alike); then the same with
the input copied into a fresh block."""
import statistics
import torch
x = torch.randn(64, 64, 512, 512, device="cuda")
C = x.shape[1]
w = torch.ones(C, device="cuda"); b = torch.zeros(C, device="cuda")
rm = torch.zeros(C, device="cuda"); rv = torch.ones(C, device="cuda")
ys = [torch.empty_like(x) for _ in range(4)]
sm = torch.empty(C, device="cuda"); si = torch.empty(C, device="cuda")
ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
bn = torch.ops.aten.native_batch_norm.out
print("cudnn enabled", torch.backends.cudnn.enabled, "x", hex(x.data_ptr()), "ys", [hex(y.data_ptr()) for y in ys])
def t_bn(xx, y):
    ev[0].record(); bn(xx, w, b, rm, rv, True, 0.1, 1e-5, out=y, save_mean=sm, save_invstd=si); ev[1].record(); torch.cuda.synchronize()
    return ev[0].elapsed_time(ev[1])
def t_f(xx, y):
    ev[0].record(); torch.nn.functional.batch_norm(xx, rm, rv, w, b, True); ev[1].record(); torch.cuda.synchronize()
    return ev[0].elapsed_time(ev[1])
for _ in range(3):
    t_bn(x, ys[0])
res = {k: [] for k in range(4)}
for rnd in range(12):
    order = list(range(4)) if rnd % 2 == 0 else list(range(3, -1, -1))
    for k in order:
        res[k].append(t_bn(x, ys[k]))
print("native_batch_norm.out, ms by output block:", [round(statistics.median(res[k]), 3) for k in range(4)],
      "spread in block 0:", round(min(res[0]), 3), round(max(res[0]), 3))
print("F.batch_norm (own output):", round(statistics.median([t_f(x, None) for _ in range(10)]), 3))
x2 = x.clone()
r2 = {0: [], 1: []}
for rnd in range(10):
    for k, xx in enumerate((x, x2) if rnd % 2 == 0 else (x2, x)):
        r2[0 if xx is x else 1].append(t_bn(xx, ys[1]))
print("input x vs its copy x2 (output block 1):", [round(statistics.median(r2[k]), 3) for k in (0, 1)])
