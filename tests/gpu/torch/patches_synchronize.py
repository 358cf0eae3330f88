# expect: ok-but-slow
# Replaces torch.cuda.synchronize (through the module's __dict__) and
# Event.elapsed_time (through getattr with built strings), then leaves its
# slow work queued: in a shared interpreter the harness's clock stopped before
# the work ended. The judge's clock and its device drain are elsewhere.
import torch

cuda = getattr(torch, "cu" + "da")
cuda.__dict__["synchron" + "ize"] = lambda *a, **k: None
setattr(getattr(cuda, "Ev" + "ent"), "elapsed_" + "time", lambda self, end: 1e-3)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(dim=-1, keepdim=True)
