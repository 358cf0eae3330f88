# expect: wrong_answer
# Replaces the reference's Model.forward (through its module) and the
# harness's comparison (through __main__) so that garbage matches garbage.
import sys

import torch

try:
    import importlib.util
    import os

    spec = importlib.util.spec_from_file_location("reference", os.path.join(os.path.dirname(__file__), "reference.py"))
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    sys.modules["reference"] = ref
    ref.Model.forward = lambda self, x: torch.zeros_like(x)
except Exception:
    pass
main = sys.modules.get("__main__")
for name in ("compare", "check_outputs", "paired_speedup"):
    for owner in (main, getattr(main, "Judge", None), getattr(main, "Harness", None)):
        if owner is not None and hasattr(owner, name):
            setattr(owner, name, lambda *a, **k: None)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.zeros_like(x)
