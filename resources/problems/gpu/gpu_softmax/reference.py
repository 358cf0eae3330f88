# Reference row softmax (KernelBench format), fp32.
#
#   y[m, n] = exp(x[m, n] - max_n x[m, :]) / sum_n exp(x[m, n] - max_n x[m, :])
#
# x is uniform in [20, 95): exp(x) overflows fp32 (exp(88.8) = inf), so a kernel
# that does not subtract the row maximum returns inf/NaN.
import torch
import torch.nn as nn

M = 16384  # rows
N = 4096   # row length


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=-1)


def get_inputs():
    x = torch.rand(M, N) * 75.0 + 20.0
    return [x]


def get_init_inputs():
    return []
