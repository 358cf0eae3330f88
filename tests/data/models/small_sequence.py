# A small sequence model for the model pipeline's tests (CPU-sized): a causal
# depthwise conv with SiLU over each request's events, a layer norm over the
# features, a module *named* LayerNorm that is not one (it scales by the
# mean absolute value: no bundled problem computes it), and a linear head.
import torch
from torch import nn

batch, events, width, taps = 64, 48, 32, 4


class CausalConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(width, 1, taps) * 0.3)
        self.bias = nn.Parameter(torch.randn(width) * 0.1)

    def forward(self, seq):  # [batch, events, width]
        x = nn.functional.pad(seq.transpose(1, 2), (taps - 1, 0))
        return nn.functional.silu(nn.functional.conv1d(x, self.weight, self.bias, groups=width)).transpose(1, 2)


class LayerNorm(nn.Module):
    """Not a layer norm, whatever its name: x over its mean absolute value."""

    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(width) + 0.5)
        self.bias = nn.Parameter(torch.rand(width) - 0.5)

    def forward(self, x):
        return x / (x.abs().mean(dim=-1, keepdim=True) + 1e-5) * self.weight + self.bias


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = CausalConv()
        self.norm = nn.LayerNorm(width)
        with torch.no_grad():  # as trained: not the identity it starts as
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-1, 1)
        self.scale = LayerNorm()
        self.head = nn.Linear(width, 1)

    def forward(self, seq):
        return self.head(self.scale(self.norm(self.conv(seq))).mean(dim=1))


def get_inputs():
    return [torch.randn(batch, events, width) * 2 + 1]


def get_init_inputs():
    return []
