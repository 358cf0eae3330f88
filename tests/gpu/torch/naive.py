# expect: ok-but-slow
# An honest gpu_softmax candidate: four eager kernels (max, exp, sum, divide)
# where the reference fuses them. Correct at about a third of its speed: the
# yardstick the dishonest candidates below are measured against.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(dim=-1, keepdim=True)
