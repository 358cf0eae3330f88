# Triton seed: LayerNorm forward over the last dimension, fp32, with weight and
# bias (affine), biased variance.
#
# One program handles ROWS consecutive rows as a [ROWS, BLOCK] tile. When a row
# fits in one block (N <= BLOCK_N) it is loaded once and kept in registers: mean,
# then the centred sum of squares (two-pass, no cancellation), then y: one read
# of x, one write of y. Longer rows take three passes over column chunks (sum,
# centred sum of squares, normalize), re-reading x mostly from L2.
#
# BLOCK_N    largest column block; the block used is next_power_of_2(N) capped
#            by it. Larger = one pass for longer rows, more registers/thread.
# ROWS       rows per program: weight/bias loaded once per ROWS rows and more
#            loads in flight, but fewer programs and more registers.
# NUM_WARPS  threads per program: fewer registers per thread vs costlier
#            cross-warp reductions (two per row).
# NUM_STAGES software pipelining depth of the chunk loops (long rows only).
#
# LAUNCH: direct launches through kw_launch (the compiled kernel kept per
# specialisation, past Triton's per-call binding); jit: kernel[grid].
#
# @kw-param BLOCK_N: 1024 | 2048 | 4096 | 8192 = 4096
# @kw-param ROWS: 1 | 2 | 4 = 1
# @kw-param NUM_WARPS: 4 | 8 | 16 = 8
# @kw-param NUM_STAGES: 1 | 2 | 3 = 1
# @kw-param LAUNCH: enum(direct, jit) = direct
import torch
import torch.nn as nn
import triton
import triton.language as tl

from kw_params import BLOCK_N, ROWS, NUM_WARPS, NUM_STAGES, LAUNCH
from kw_launch import launch, launch_jit


@triton.jit
def _ln_fwd_kernel(X, W, Bias, Y, M, N, stride_x, stride_y, eps,
                   BLOCK: tl.constexpr, ROWS: tl.constexpr, ONE_PASS: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    rows = pid * ROWS + tl.arange(0, ROWS)            # int64: row * stride may exceed 2^31
    row_ok = rows < M
    cols = tl.arange(0, BLOCK)
    x_rows = X + rows[:, None] * stride_x
    y_rows = Y + rows[:, None] * stride_y
    if ONE_PASS:
        col_ok = cols < N
        mask = row_ok[:, None] & col_ok[None, :]
        x = tl.load(x_rows + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, axis=1) / N
        d = tl.where(mask, x - mean[:, None], 0.0)
        var = tl.sum(d * d, axis=1) / N
        rstd = 1.0 / tl.sqrt(var + eps)
        w = tl.load(W + cols, mask=col_ok, other=0.0).to(tl.float32)
        b = tl.load(Bias + cols, mask=col_ok, other=0.0).to(tl.float32)
        y = d * rstd[:, None] * w[None, :] + b[None, :]
        tl.store(y_rows + cols[None, :], y.to(Y.dtype.element_ty), mask=mask)
    else:
        acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
        for start in range(0, N, BLOCK):
            c = start + cols
            mask = row_ok[:, None] & (c < N)[None, :]
            acc += tl.load(x_rows + c[None, :], mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(acc, axis=1) / N
        acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
        for start in range(0, N, BLOCK):
            c = start + cols
            mask = row_ok[:, None] & (c < N)[None, :]
            x = tl.load(x_rows + c[None, :], mask=mask, other=0.0).to(tl.float32)
            d = tl.where(mask, x - mean[:, None], 0.0)
            acc += d * d
        rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=1) / N + eps)
        for start in range(0, N, BLOCK):
            c = start + cols
            col_ok = c < N
            mask = row_ok[:, None] & col_ok[None, :]
            x = tl.load(x_rows + c[None, :], mask=mask, other=0.0).to(tl.float32)
            w = tl.load(W + c, mask=col_ok, other=0.0).to(tl.float32)
            b = tl.load(Bias + c, mask=col_ok, other=0.0).to(tl.float32)
            y = (x - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
            tl.store(y_rows + c[None, :], y.to(Y.dtype.element_ty), mask=mask)


_launch = launch if LAUNCH == "direct" else launch_jit


class ModelNew(nn.Module):
    def __init__(self, normalized_size: int, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.rand(normalized_size) + 0.5)
        self.bias = nn.Parameter(torch.rand(normalized_size) * 2.0 - 1.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        n = shape[-1]
        x2 = x.reshape(-1, n).contiguous()
        m = x2.shape[0]
        y = torch.empty_like(x2)
        block = max(16, min(triton.next_power_of_2(n), BLOCK_N))
        grid = (triton.cdiv(m, ROWS),)
        _launch(_ln_fwd_kernel, grid,
                x2, self.weight.contiguous(), self.bias.contiguous(), y, m, n,
                x2.stride(0), y.stride(0), self.eps,
                BLOCK=block, ROWS=ROWS, ONE_PASS=(n <= block),
                num_warps=NUM_WARPS, num_stages=NUM_STAGES,
        )
        return y.reshape(shape)
