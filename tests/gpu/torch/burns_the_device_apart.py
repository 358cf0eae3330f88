# expect: no-gain
# problem: library
# Starts a helper in a process group of its own with a CUDA context of its
# own that keeps the device busy with matrix products, so that whatever is
# timed beside it runs slower: a judge that froze only the candidate's
# process group would time the reference sharing the device with the helper
# and read a large speedup. The judge freezes the runner's whole tree, so the
# helper runs only while the candidate is timed: its work is the
# candidate's. The work is torch's own softmax: about 1x the reference when
# nothing else helps.
import subprocess
import sys

import torch

HELPER = r"""
import os
os.setpgid(0, 0)
import torch
a = torch.randn(8192, 8192, device="cuda")
while True:
    for _ in range(8):
        b = a @ a
    torch.cuda.synchronize()
"""


_helper = None


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # One helper for the whole run: a model is built for every shape, and
        # a helper each (a CUDA process of about fifty tasks) used up the
        # job's task budget by a later check shape (runtime_error, EAGAIN).
        global _helper
        if _helper is None:
            _helper = subprocess.Popen([sys.executable, "-c", HELPER], stdin=subprocess.DEVNULL)

    def forward(self, x):
        return torch.softmax(x, dim=-1)
