#!/usr/bin/env python3
"""Does where an output lands change a memory-bound kernel's time? KernelBench
batchnorm's sizes (x 4 GiB fp32): batch_norm(training) into outputs allocated
in turn, and an elementwise op with out= into each of four 4 GiB blocks."""
import torch, statistics
import torch.nn.functional as F
x = torch.randn(64, 64, 512, 512, device="cuda")
ys = [torch.empty_like(x) for _ in range(4)]
print("blocks at", [hex(y.data_ptr()) for y in ys], "x at", hex(x.data_ptr()))
ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
def timed(fn, n=15):
    out = []
    for _ in range(n):
        ev[0].record(); fn(); ev[1].record(); torch.cuda.synchronize()
        out.append(ev[0].elapsed_time(ev[1]))
    return statistics.median(out)
for rnd in range(3):
    print("round", rnd, "x*2 into block:", [round(timed(lambda y=y: torch.mul(x, 2.0, out=y)), 3) for y in ys])
    print("round", rnd, "x-mean into block:", [round(timed(lambda y=y: torch.sub(x, 0.5, out=y)), 3) for y in ys])
w = torch.ones(64, device="cuda"); b = torch.zeros(64, device="cuda")
rm = torch.zeros(64, device="cuda"); rv = torch.ones(64, device="cuda")
del ys
torch.cuda.empty_cache()
keep = []
for k in range(4):
    # each batch_norm output lands in a new block while the others are kept
    t = timed(lambda: keep.append(F.batch_norm(x, rm, rv, w, b, training=True)) or keep.pop(), n=10)
    keep.append(torch.empty_like(x))  # a spacer: the next outputs land elsewhere
    print("batch_norm with", k, "spacers:", round(t, 3), "ms")
