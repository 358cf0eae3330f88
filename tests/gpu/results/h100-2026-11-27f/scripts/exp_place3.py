#!/usr/bin/env python3
"""KernelBench batchnorm as the judge runs it (eval mode, cuDNN): does its
time follow the block its output lands in? Six 4 GiB blocks held; each
timing frees one, so the output lands there, then takes it back."""
import statistics
import torch
import torch.nn.functional as F
x = torch.rand(64, 64, 512, 512, device="cuda")
C = x.shape[1]
w = torch.ones(C, device="cuda"); b = torch.zeros(C, device="cuda")
rm = torch.zeros(C, device="cuda"); rv = torch.ones(C, device="cuda")
K = 6
blocks = [torch.empty_like(x) for _ in range(K)]
ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
res = {k: [] for k in range(K)}
mul = {k: [] for k in range(K)}
landed = {k: set() for k in range(K)}
for rnd in range(8):
    for k in (range(K) if rnd % 2 == 0 else range(K - 1, -1, -1)):
        ptr = blocks[k].data_ptr()
        blocks[k] = None
        ev[0].record(); y = F.batch_norm(x, rm, rv, w, b, False); ev[1].record(); torch.cuda.synchronize()
        landed[k].add(hex(y.data_ptr()) + ("" if y.data_ptr() == ptr else "*"))
        res[k].append(ev[0].elapsed_time(ev[1]))
        ev[0].record(); torch.mul(x, 2.0, out=y); ev[1].record(); torch.cuda.synchronize()
        mul[k].append(ev[0].elapsed_time(ev[1]))
        blocks[k] = y
print("batch_norm eval (cuDNN), ms by block:", [round(statistics.median(res[k]), 3) for k in range(K)])
print("x*2 into the same blocks, ms:        ", [round(statistics.median(mul[k]), 3) for k in range(K)])
print("landed:", landed)
print("block 0 spread:", round(min(res[0]), 3), round(max(res[0]), 3))
