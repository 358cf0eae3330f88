# Reference RMSNorm forward (KernelBench format): bf16 in, bf16 out, fp32 math.
#
#   y[m, n] = bf16( x[m, n] * rsqrt(mean_n(x[m, :]^2) + eps) * w[n] )
#
# x is upcast to fp32, the row statistic and the products are fp32, and y is
# rounded to bf16 once at the end. The weight is a bf16 parameter (as in a bf16
# model), initialised uniform in [0.5, 1.5) from the harness's seed.
import torch
import torch.nn as nn

M = 16384  # rows (tokens)
N = 4096   # row length (hidden size)


class Model(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter((torch.rand(hidden_size) + 0.5).to(torch.bfloat16))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        rstd = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return (xf * rstd * self.weight.float()).to(torch.bfloat16)


def get_inputs():
    x = torch.randn(M, N).to(torch.bfloat16)
    return [x]


def get_init_inputs():
    return [N]
