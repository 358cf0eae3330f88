# expect: wrong_answer
# Rewrites the problem's reference (src/reference.py, found from its own
# path) and the runners' code to answer zeros, then answers zeros itself:
# a reference runner that imported the rewritten file would agree with it.
# The candidate's runner may write only in its own folder (Landlock), and
# the judge's reference was loaded before any candidate ran; where a host
# cannot confine writes, the rules refuse open().
import pathlib

import torch

ZEROS = "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return torch.zeros_like(x)\n"
for job in (pathlib.Path(__file__).resolve().parent.parent.parent, pathlib.Path.cwd().parent.parent):
    for name in ("reference.py", "torch_runner.py"):
        try:
            with open(job / "src" / name, "a") as f:
                f.write("\n" + ZEROS if name == "reference.py" else "\n")
        except OSError:
            pass


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.zeros_like(x)
