"""Where the op record's call site comes from on this PyTorch: a candidate
that reaches softmax under another name runs under torch_judge_ops.
record_call, and the profiler's events around aten::softmax are dumped (own
stack, enclosing events, Python-function events naming the file). One JSON
object on stdout."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "harness", "torch"))
import torch  # noqa: E402
import torch_judge_ops  # noqa: E402
from torch.profiler import ProfilerActivity, profile  # noqa: E402

CANDIDATE = '''import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rows = getattr(nn, "Soft" + "max")(dim=-1)

    def forward(self, x):
        return self.rows(x)
'''

d = tempfile.mkdtemp()
path = os.path.join(d, "candidate.py")
with open(path, "w") as f:
    f.write(CANDIDATE)
sys.path.insert(0, d)
import candidate  # noqa: E402

device = "cuda" if torch.cuda.is_available() else "cpu"
m = candidate.ModelNew().to(device)
x = torch.randn(64, 256, device=device)
m(x)
out = {"torch": torch.__version__, "record": torch_judge_ops.record_call(torch, lambda: m(x), "candidate.py", ["softmax"])}
acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
with profile(activities=acts, with_stack=True) as prof:
    m(x)
events = list(prof.events())
dump = []
for e in events:
    if e.name == "aten::softmax" or e.name == "aten::_softmax":
        chain, p = [], getattr(e, "cpu_parent", None)
        while p is not None and len(chain) < 12:
            chain.append(str(p.name)[:120])
            p = getattr(p, "cpu_parent", None)
        dump.append({"name": e.name, "stack": [str(s) for s in (e.stack or [])][:8], "parents": chain})
out["softmax_events"] = dump
out["python_events"] = [str(e.name)[:160] for e in events if "candidate" in str(e.name)][:20]
out["event_kinds"] = sorted({str(getattr(e, "device_type", "")) for e in events})
out["n_events"] = len(events)
print(json.dumps(out, indent=1))
