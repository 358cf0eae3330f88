# Reference classic FM second-order interaction, KernelBench format.
#
#   out[b] = 0.5 * sum_d ( (sum_f x[b, f, d])^2 - sum_f x[b, f, d]^2 )
#
# x is B x F x D (batch x fields x embedding dim) fp32, out is B fp32.
# Equivalently out[b] = sum_{f < g} <x[b, f, :], x[b, g, :]>.
import torch
import torch.nn as nn

B = 16384   # batch
F = 64      # fields
D = 128     # embedding dim


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s = x.sum(dim=1)                 # B x D
        sq = (x * x).sum(dim=1)          # B x D
        return 0.5 * (s * s - sq).sum(dim=1)


def get_inputs():
    x = torch.randn(B, F, D)
    return [x]


def get_init_inputs():
    return []
