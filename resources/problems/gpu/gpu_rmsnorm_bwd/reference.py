# Reference RMSNorm backward (KernelBench format): bf16 x, dy and weight in;
# dx (bf16) and dw (fp32) out; fp32 math. rstd is recomputed from x.
#
#   r[m]    = rsqrt(sum_n x[m,n]^2 / N + eps)
#   c[m]    = sum_n w[n] * dy[m,n] * x[m,n] / N
#   dx[m,n] = r[m] * w[n] * dy[m,n] - x[m,n] * r[m]^3 * c[m]     (rounded to bf16)
#   dw[n]   = sum_m dy[m,n] * x[m,n] * r[m]                       (fp32)
#
# This is the gradient of y = x * r * w (the gpu_rmsnorm_fwd operator) with
# respect to x and w, given the upstream gradient dy.
import torch
import torch.nn as nn

M = 16384  # rows (tokens)
N = 4096   # row length (hidden size)


class Model(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter((torch.rand(hidden_size) + 0.5).to(torch.bfloat16))

    def forward(self, x: torch.Tensor, dy: torch.Tensor):
        xf = x.float()
        dyf = dy.float()
        wf = self.weight.float()
        n = x.shape[-1]
        r = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        c = (wf * dyf * xf).sum(dim=-1, keepdim=True) / n
        dx = r * wf * dyf - xf * (r * r * r * c)
        dw = (dyf * xf * r).sum(dim=0)
        return dx.to(torch.bfloat16), dw


def get_inputs():
    x = torch.randn(M, N).to(torch.bfloat16)
    dy = torch.randn(M, N).to(torch.bfloat16)
    return [x, dy]


def get_init_inputs():
    return [N]
