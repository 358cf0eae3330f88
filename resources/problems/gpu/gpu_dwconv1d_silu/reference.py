# Reference depthwise causal conv1d + bias + SiLU (KernelBench format), fp32.
#
#   v[b,c,t] = bias[c] + sum_{k<K} w[c,k] * x[b,c,t-(K-1)+k]     (x[..., t<0] = 0)
#   y[b,c,t] = silu(v) = v / (1 + exp(-v))
#
# x and y are B x C x L (batch, channel, time), contiguous, so each (b, c) time
# series is contiguous. K = 4 (a Mamba / conv-transformer short conv). Written as
# a user would: grouped conv1d with K-1 zeros of padding on both sides, the last
# K-1 outputs dropped (causal), then SiLU.
import torch
import torch.nn as nn
import torch.nn.functional as F

B = 32     # batch
C = 1024   # channels
L = 2048   # sequence length
K = 4      # kernel size (taps); fixed, not a shape size


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int = 4):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(channels, kernel_size) * 0.5)
        self.bias = nn.Parameter(torch.randn(channels) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        seq_len = x.shape[-1]
        k = self.weight.shape[1]
        v = F.conv1d(x, self.weight.unsqueeze(1), self.bias, padding=k - 1, groups=x.shape[1])
        return F.silu(v[..., :seq_len])


def get_inputs():
    x = torch.randn(B, C, L)
    return [x]


def get_init_inputs():
    return [C, K]
