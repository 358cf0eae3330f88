# expect: ok-but-slow
# Reaches what the rules forbid through eval: __import__ built from pieces,
# then os and ctypes (here only to prove it could); its answer is honest and slow.
import torch

imp = eval("__imp" + "ort__")
os_module = imp("o" + "s")
ctypes_module = imp("ctyp" + "es")
_ = os_module.getpid(), ctypes_module.sizeof(ctypes_module.c_int)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(dim=-1, keepdim=True)
