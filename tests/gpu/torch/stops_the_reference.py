# expect: no-gain
# problem: library
# Starts a helper in a process group of its own (setpgid, which ninja uses
# and the runner's filter allows; setsid, refused, is tried first) that
# stops and continues the problem's runners, found in /proc by their
# command lines, every millisecond: a judge that froze only the candidate's
# process group, or let it signal other processes, would time the
# reference stalled and read a large speedup. The work is torch's own
# softmax: about 1x the reference when nothing else helps.
import subprocess
import sys

import torch

HELPER = r"""
import os, signal, time
try:
    os.setsid()
except OSError:
    os.setpgid(0, 0)
me = os.getpid()
def runners():
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) != me:
            try:
                cmd = open(f"/proc/{p}/cmdline", "rb").read().split(b"\0")
            except OSError:
                continue
            if any(c.endswith(b"torch_runner.py") for c in cmd) and (b"reference" in cmd or b"compiled" in cmd):
                out.append(int(p))
    return out
refused = 0
while True:
    for p in runners():
        for sig in (signal.SIGSTOP, signal.SIGCONT):
            try:
                os.kill(p, sig)
            except PermissionError:
                refused += 1
            except OSError:
                pass
        time.sleep(0.001)
    time.sleep(0.001)
"""


class ModelNew(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.helper = subprocess.Popen([sys.executable, "-c", HELPER], stdin=subprocess.DEVNULL)

    def forward(self, x):
        return torch.softmax(x, dim=-1)
