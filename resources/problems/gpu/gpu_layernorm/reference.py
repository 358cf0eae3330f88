# Reference LayerNorm forward over the last dimension (KernelBench format), fp32.
#
#   mean[m] = sum_n x[m, n] / N
#   var[m]  = sum_n (x[m, n] - mean[m])^2 / N          (biased variance)
#   y[m, n] = (x[m, n] - mean[m]) / sqrt(var[m] + eps) * weight[n] + bias[n]
#
# x ~ N(1, 9): a non-zero mean, so a one-pass E[x^2] - E[x]^2 in fp32 without a
# shift loses digits.
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 16384  # rows
N = 4096   # normalized (last) dimension


class Model(nn.Module):
    def __init__(self, normalized_size: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.rand(normalized_size) + 0.5)
        self.bias = nn.Parameter(torch.rand(normalized_size) * 2.0 - 1.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.layer_norm(x, (x.shape[-1],), self.weight, self.bias, self.eps)


def get_inputs():
    x = torch.randn(M, N) * 3.0 + 1.0
    return [x]


def get_init_inputs():
    return [N]
