# Triton seed: row-wise RMS normalization backward (dx, dw), bf16 x/dy/weight,
# bf16 dx, fp32 dw, fp32 math; rstd is recomputed from x.
#
# Kernel 1 is persistent-style: P = min(row blocks, SMs * PROGS_PER_SM)
# programs, program p takes row blocks p, p+P, p+2P, ... (ROWS rows each). Per
# row block it reduces sum(x^2) and sum(w*dy*x) in fp32, writes dx, and adds
# dy*x*r into a [ROWS, BLOCK] fp32 register accumulator; at the end it stores
# its column sums as row p of a P x N fp32 partial buffer. Kernel 2 sums the P
# partial rows into dw. One read of x and dy, one write of dx, plus P*N*4*2
# bytes for the partials. Rows longer than BLOCK_N take a chunked path: two
# passes over column chunks, and the dw partials go to the (zeroed) buffer row
# of the program with atomic adds.
#
# BLOCK_N       largest column block; the block used is next_power_of_2(N)
#               capped by it. Larger = one pass for longer rows, more registers.
# ROWS          rows per tile: more independent loads in flight per step and the
#               weight tile reused, but more registers (x, dy, dw accumulator).
# NUM_WARPS     threads per program: fewer registers per thread vs costlier
#               cross-warp row reductions.
# PROGS_PER_SM  programs per SM in kernel 1: more programs = more memory-level
#               parallelism and better balance, but a larger partial buffer
#               (P*N*4 bytes written and read again) to reduce.
# DW            partials: kernel 2 sums the P partial rows (two launches).
#               atomic: one launch; each program adds its column sums into a
#               zeroed dw with atomics (P*N of them), one-pass rows only. On a
#               host whose Python is slow, a second Triton launch per call costs
#               about as much as the whole kernel's memory traffic.
# PREFETCH      one-pass rows: load the program's next row block before
#               working on this one (its x and dy in registers through the
#               reductions and the store), so a program's loads stay in flight
#               while it computes. Two programs of 8 warps an SM (registers
#               allow no more) otherwise wait for their rows with nothing else
#               to do: on an H100 151.7 us a call with it at 8 warps, 176.1
#               without; 158.4 at 16 warps without, 171.2 with (the floor is
#               134).
# STAGES        one-pass rows: Triton's software pipelining of the row loop
#               (tl.range num_stages): the loads of the next STAGES - 1 row
#               blocks go to shared memory while this one is worked on, more
#               bytes in flight than registers hold. 1: no pipelining.
# LAUNCH        how the kernels are launched: direct (kw_launch: the compiled
#               kernel, kept per specialisation, past Triton's per-call
#               binding; about 8 us less a launch on an H200 host) or jit.
#
# @kw-param BLOCK_N: 1024 | 2048 | 4096 | 8192 = 4096
# @kw-param ROWS: 1 | 2 | 4 = 1
# @kw-param NUM_WARPS: 4 | 8 | 16 | 32 = 8
# @kw-param PROGS_PER_SM: 1 | 2 | 4 | 8 = 2
# @kw-param DW: enum(partials, atomic) = partials
# @kw-param PREFETCH: bool = true
# @kw-param STAGES: 1 | 2 | 3 = 1
# @kw-param LAUNCH: enum(direct, jit) = direct
import torch
import torch.nn as nn
import triton
import triton.language as tl

from kw_params import BLOCK_N, ROWS, NUM_WARPS, PROGS_PER_SM, DW, PREFETCH, STAGES, LAUNCH
from kw_launch import launch, launch_jit


@triton.jit
def _rms_bwd_dx_kernel(X, DY, W, DX, DWP, M, N, stride_x, stride_dy, stride_dx, eps,
                       n_row_blocks, n_progs,
                       BLOCK: tl.constexpr, ROWS: tl.constexpr, ONE_PASS: tl.constexpr, ATOMIC_DW: tl.constexpr,
                       PREFETCH: tl.constexpr, STAGES: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    dwp_row = DWP + pid.to(tl.int64) * N
    if ONE_PASS:
        col_ok = cols < N
        w = tl.load(W + cols, mask=col_ok, other=0.0).to(tl.float32)
        dw_acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
        if PREFETCH:
            nrows = pid.to(tl.int64) * ROWS + tl.arange(0, ROWS)
            nmask = (nrows < M)[:, None] & col_ok[None, :]
            x_next = tl.load(X + nrows[:, None] * stride_x + cols[None, :], mask=nmask, other=0.0)
            dy_next = tl.load(DY + nrows[:, None] * stride_dy + cols[None, :], mask=nmask, other=0.0)
        for rb in tl.range(pid, n_row_blocks, n_progs, num_stages=STAGES):
            rows = rb.to(tl.int64) * ROWS + tl.arange(0, ROWS)   # int64 offsets
            row_ok = rows < M
            mask = row_ok[:, None] & col_ok[None, :]
            if PREFETCH:
                x = x_next.to(tl.float32)
                dy = dy_next.to(tl.float32)
                nrows = rows + n_progs * ROWS       # the next row block (masked off past the last)
                nmask = (nrows < M)[:, None] & col_ok[None, :]
                x_next = tl.load(X + nrows[:, None] * stride_x + cols[None, :], mask=nmask, other=0.0)
                dy_next = tl.load(DY + nrows[:, None] * stride_dy + cols[None, :], mask=nmask, other=0.0)
            else:
                x = tl.load(X + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0).to(tl.float32)
                dy = tl.load(DY + rows[:, None] * stride_dy + cols[None, :], mask=mask, other=0.0).to(tl.float32)
            r = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / N + eps)
            wdy = w[None, :] * dy
            c = tl.sum(wdy * x, axis=1) / N
            dx = r[:, None] * wdy - x * (r * r * r * c)[:, None]
            tl.store(DX + rows[:, None] * stride_dx + cols[None, :], dx.to(DX.dtype.element_ty), mask=mask)
            dw_acc += dy * x * r[:, None]
        if ATOMIC_DW:
            tl.atomic_add(DWP + cols, tl.sum(dw_acc, axis=0), mask=col_ok)  # DWP is dw itself, zeroed
        else:
            tl.store(dwp_row + cols, tl.sum(dw_acc, axis=0), mask=col_ok)
    else:
        for rb in range(pid, n_row_blocks, n_progs):
            rows = rb.to(tl.int64) * ROWS + tl.arange(0, ROWS)
            row_ok = rows < M
            x_rows = X + rows[:, None] * stride_x
            dy_rows = DY + rows[:, None] * stride_dy
            dx_rows = DX + rows[:, None] * stride_dx
            ss_acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
            dot_acc = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
            for start in range(0, N, BLOCK):
                cc = start + cols
                col_ok = cc < N
                mask = row_ok[:, None] & col_ok[None, :]
                x = tl.load(x_rows + cc[None, :], mask=mask, other=0.0).to(tl.float32)
                dy = tl.load(dy_rows + cc[None, :], mask=mask, other=0.0).to(tl.float32)
                w = tl.load(W + cc, mask=col_ok, other=0.0).to(tl.float32)
                ss_acc += x * x
                dot_acc += w[None, :] * dy * x
            r = 1.0 / tl.sqrt(tl.sum(ss_acc, axis=1) / N + eps)
            c = tl.sum(dot_acc, axis=1) / N
            r3c = r * r * r * c
            for start in range(0, N, BLOCK):
                cc = start + cols
                col_ok = cc < N
                mask = row_ok[:, None] & col_ok[None, :]
                x = tl.load(x_rows + cc[None, :], mask=mask, other=0.0).to(tl.float32)
                dy = tl.load(dy_rows + cc[None, :], mask=mask, other=0.0).to(tl.float32)
                w = tl.load(W + cc, mask=col_ok, other=0.0).to(tl.float32)
                dx = r[:, None] * w[None, :] * dy - x * r3c[:, None]
                tl.store(dx_rows + cc[None, :], dx.to(DX.dtype.element_ty), mask=mask)
                tl.atomic_add(dwp_row + cc, tl.sum(dy * x * r[:, None], axis=0), mask=col_ok)


@triton.jit
def _dw_reduce_kernel(DWP, DW, P, N, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_C + tl.arange(0, BLOCK_C)
    col_ok = cols < N
    acc = tl.zeros([BLOCK_P, BLOCK_C], dtype=tl.float32)
    for p0 in range(0, P, BLOCK_P):
        p = (p0 + tl.arange(0, BLOCK_P)).to(tl.int64)
        mask = (p < P)[:, None] & col_ok[None, :]
        acc += tl.load(DWP + p[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(DW + cols, tl.sum(acc, axis=0), mask=col_ok)


_SM_COUNT = {}
_launch = launch if LAUNCH == "direct" else launch_jit


def _sm_count(device):
    idx = device.index if device.index is not None else torch.cuda.current_device()
    if idx not in _SM_COUNT:
        _SM_COUNT[idx] = torch.cuda.get_device_properties(idx).multi_processor_count
    return _SM_COUNT[idx]


class ModelNew(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter((torch.rand(hidden_size) + 0.5).to(torch.bfloat16))

    def forward(self, x: torch.Tensor, dy: torch.Tensor):
        n = x.shape[-1]
        x2 = x.reshape(-1, n).contiguous()
        dy2 = dy.reshape(-1, n).contiguous()
        m = x2.shape[0]
        w = self.weight.contiguous()
        dx = torch.empty((m, n), dtype=torch.bfloat16, device=x.device)

        block = max(16, min(triton.next_power_of_2(n), BLOCK_N))
        one_pass = n <= block
        n_row_blocks = triton.cdiv(m, ROWS)
        n_progs = max(1, min(n_row_blocks, _sm_count(x.device) * PROGS_PER_SM))
        if one_pass and DW == "atomic":
            dw = torch.zeros((n,), dtype=torch.float32, device=x.device)
            _launch(
                _rms_bwd_dx_kernel, (n_progs,),
                x2, dy2, w, dx, dw, m, n, x2.stride(0), dy2.stride(0), dx.stride(0), self.eps,
                n_row_blocks, n_progs,
                BLOCK=block, ROWS=ROWS, ONE_PASS=True, ATOMIC_DW=True, PREFETCH=PREFETCH, STAGES=STAGES, num_warps=NUM_WARPS,
            )
            return dx.reshape(x.shape), dw
        dw = torch.empty((n,), dtype=torch.float32, device=x.device)
        if one_pass:
            dwp = torch.empty((n_progs, n), dtype=torch.float32, device=x.device)
        else:
            dwp = torch.zeros((n_progs, n), dtype=torch.float32, device=x.device)

        _launch(
            _rms_bwd_dx_kernel, (n_progs,),
            x2, dy2, w, dx, dwp, m, n, x2.stride(0), dy2.stride(0), dx.stride(0), self.eps,
            n_row_blocks, n_progs,
            BLOCK=block, ROWS=ROWS, ONE_PASS=one_pass, ATOMIC_DW=False, PREFETCH=PREFETCH, STAGES=STAGES, num_warps=NUM_WARPS,
        )
        block_c = 64
        _launch(
            _dw_reduce_kernel, (triton.cdiv(n, block_c),),
            dwp, dw, n_progs, n, BLOCK_P=32, BLOCK_C=block_c, num_warps=4,
        )
        return dx.reshape(x.shape), dw
