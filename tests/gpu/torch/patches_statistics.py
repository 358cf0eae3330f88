# expect: ok-but-slow
# Makes every median tiny and every timer stand still: the harness used to
# compute its statistics with these modules in the candidate's interpreter.
import statistics
import time

import torch

statistics.median = lambda data: 1e-9
statistics.fmean = lambda data: 1e-9
time.perf_counter = lambda: 0.0


class ModelNew(torch.nn.Module):
    def forward(self, x):
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(dim=-1, keepdim=True)
