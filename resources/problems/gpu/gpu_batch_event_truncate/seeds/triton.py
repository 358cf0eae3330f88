# Triton seed: Batch Event Truncate, keep the first `keep` events (rows of D
# floats) of every sequence, compacted to the front, the rest of the output 0.
#
# SCHEDULE fused (the default): one kernel, one launch and two allocations a
# call (the outputs): program g takes GROUP consecutive sequences; it finds
# the rows before its first sequence by summing the lengths before it (BLOCK_U
# at a time: lengths are 8 bytes a sequence, in L2 for every program), the
# rows within the group by a prefix sum of its GROUP lengths, writes their
# out_lengths and copies each sequence's kept rows as one contiguous stretch.
# ZERO_PROGRAMS programs after them sum every sequence's kept rows and zero
# the output past them, striding over the tail alone. Why: on a host whose
# Python is slow the call was bound by launching (two launches and three
# allocations a set: 183-267 us of launching a set on two H100 hosts against
# 162-216 us of device time); here the host does about half of that.
#
# The other schedules, two kernels, no host synchronisation:
# 1. scan (one program): out_lengths = min(lengths, keep) and the exclusive
#    prefix sums of lengths (input row of each sequence's first event) and of
#    out_lengths (its output row), plus the total kept rows, in BLOCK_U chunks.
# 2. copy (one launch, two kinds of program): program (u, blk) for
#    blk < ceil(min(keep, NE) * D / (BLOCK * ITERS)) copies a flat, contiguous
#    stretch of sequence u's kept rows: kept rows of one sequence are one
#    contiguous range of min(len, keep) * D floats in both input and output,
#    so loads and stores are plain coalesced vectors whatever D is. The
#    programs after those zero the output tail [total_kept * D, NE * D).
#    That is one program per BLOCK * ITERS floats of the whole output for
#    the zeroing and ceil(keep * D / (BLOCK * ITERS)) per sequence for the
#    copy, most of them masked off entirely at the time shape (the tail is
#    about a quarter of the output, a sequence keeps 90 of 128 rows on
#    average): SCHEDULE per_sequence instead gives each sequence one program
#    that loops over its kept floats, and the zeroing a fixed set of
#    programs striding over the tail alone.
#
# BLOCK      floats per load/store of a program step (power of two).
# ITERS      steps per program (each program moves BLOCK * ITERS floats): fewer,
#            longer programs vs more of them for short sequences.
# NUM_WARPS  threads per copy program.
# BLOCK_U    sequences per step of the scan (power of two).
# SCHEDULE   fused (one kernel, above), chunks (programs per fixed stretch,
#            as above) or per_sequence (a program per sequence and
#            ZERO_PROGRAMS for the tail; ITERS unused).
# GROUP      sequences per program under SCHEDULE fused: fewer = more, shorter
#            programs, each summing the lengths before it.
# SCAN       how the prefix sums are made: one (a single program walks the
#            sequences BLOCK_U at a time: eight steps at the time shape, 19
#            us of a call's 168 on an H100) or blocks (a program per BLOCK_U
#            sequences writes their sums within the block and the block's
#            totals; a copy program adds the totals of the blocks before its
#            sequence). blocks is for SCHEDULE chunks; per_sequence scans in
#            one program either way. On an H100 one and blocks read 195 and 207 us
#            a call, their device time alike (180 and 178 us a set): the call
#            was bound by launching its sets, not by the scan.
# LAUNCH     how the kernels are launched: direct (kw_launch: the compiled
#            kernel, kept per specialisation, past Triton's per-call binding;
#            about 8 us less a launch on an H200 host) or jit (kernel[grid]).
#
# @kw-param BLOCK: 512 | 1024 | 2048 | 4096 | 8192 = 4096
# @kw-param ITERS: 1 | 2 | 4 = 1
# @kw-param NUM_WARPS: 2 | 4 | 8 = 4
# @kw-param BLOCK_U: 1024 | 4096 = 1024
# @kw-param LAUNCH: enum(direct, jit) = direct
# @kw-param SCHEDULE: enum(fused, chunks, per_sequence) = fused
# @kw-param GROUP: 4 | 8 | 16 = 4
# @kw-param SCAN: enum(one, blocks) = one
import torch
import torch.nn as nn
import triton
import triton.language as tl

from kw_params import BLOCK, ITERS, NUM_WARPS, BLOCK_U, LAUNCH, SCHEDULE, SCAN, GROUP
from kw_launch import launch, launch_jit


@triton.jit
def _scan_kernel(len_ptr, out_len_ptr, in_start_ptr, out_start_ptr, U, keep, BLOCK_U: tl.constexpr):
    idx = tl.arange(0, BLOCK_U)
    run_in = tl.sum(tl.zeros([BLOCK_U], dtype=tl.int64), axis=0)
    run_out = run_in
    for u0 in range(0, U, BLOCK_U):
        offs = u0 + idx
        m = offs < U
        n = tl.load(len_ptr + offs, mask=m, other=0)
        k = tl.minimum(n, keep)
        tl.store(out_len_ptr + offs, k, mask=m)
        tl.store(in_start_ptr + offs, run_in + tl.cumsum(n, axis=0) - n, mask=m)
        tl.store(out_start_ptr + offs, run_out + tl.cumsum(k, axis=0) - k, mask=m)
        run_in += tl.sum(n, axis=0)
        run_out += tl.sum(k, axis=0)
    tl.store(out_start_ptr + U, run_out)          # total kept rows


@triton.jit
def _scan_block_kernel(len_ptr, out_len_ptr, in_start_ptr, out_start_ptr, tot_ptr, U, keep, BLOCK_U: tl.constexpr):
    # SCAN blocks: sums within this program's BLOCK_U sequences, and the
    # block's totals (input rows at tot[pid], kept rows at tot[NB + pid]).
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_U + tl.arange(0, BLOCK_U)
    m = offs < U
    n = tl.load(len_ptr + offs, mask=m, other=0)
    k = tl.minimum(n, keep)
    tl.store(out_len_ptr + offs, k, mask=m)
    tl.store(in_start_ptr + offs, tl.cumsum(n, axis=0) - n, mask=m)
    tl.store(out_start_ptr + offs, tl.cumsum(k, axis=0) - k, mask=m)
    tl.store(tot_ptr + pid, tl.sum(n, axis=0))
    tl.store(tot_ptr + tl.num_programs(0) + pid, tl.sum(k, axis=0))


@triton.jit
def _sum_before(tot_ptr, b):
    # tot[0] + ... + tot[b - 1] (int64), 128 at a time.
    idx = tl.arange(0, 128)
    acc = tl.sum(tl.zeros([128], dtype=tl.int64), axis=0)
    for c in range(0, b, 128):
        acc += tl.sum(tl.load(tot_ptr + c + idx, mask=(c + idx) < b, other=0), axis=0)
    return acc


@triton.jit
def _copy_kernel(val_ptr, out_ptr, len_ptr, in_start_ptr, out_start_ptr, tot_ptr,
                 U, D, NED, keep, n_copy, per_seq, NB,
                 BLOCK: tl.constexpr, ITERS: tl.constexpr, BLOCK_U: tl.constexpr, BLOCKED: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    if pid < n_copy:
        u = pid // per_seq
        blk = pid - u * per_seq
        kept = tl.minimum(tl.load(len_ptr + u), keep)
        n = kept * D                                 # floats to copy (int64)
        s_in = tl.load(in_start_ptr + u)
        s_out = tl.load(out_start_ptr + u)
        if BLOCKED:                                  # sums within the block, plus the blocks before
            s_in += _sum_before(tot_ptr, u // BLOCK_U)
            s_out += _sum_before(tot_ptr + NB, u // BLOCK_U)
        src = val_ptr + s_in * D
        dst = out_ptr + s_out * D
        for it in tl.static_range(ITERS):
            o = (blk * ITERS + it).to(tl.int64) * BLOCK + idx
            m = o < n
            tl.store(dst + o, tl.load(src + o, mask=m), mask=m)
    else:
        t = pid - n_copy
        if BLOCKED:
            first = _sum_before(tot_ptr + NB, NB) * D  # first float of the zero tail
        else:
            first = tl.load(out_start_ptr + U) * D
        for it in tl.static_range(ITERS):
            o = (t * ITERS + it).to(tl.int64) * BLOCK + idx
            m = (o >= first) & (o < NED)
            tl.store(out_ptr + o, tl.zeros([BLOCK], dtype=tl.float32), mask=m)


@triton.jit
def _copy_per_sequence_kernel(val_ptr, out_ptr, len_ptr, in_start_ptr, out_start_ptr,
                              U, D, NED, keep, n_zero, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    if pid < U:
        kept = tl.minimum(tl.load(len_ptr + pid), keep)
        n = kept * D                                 # floats to copy (int64)
        src = val_ptr + tl.load(in_start_ptr + pid) * D
        dst = out_ptr + tl.load(out_start_ptr + pid) * D
        for start in range(0, n, BLOCK):
            o = start + idx
            m = o < n
            tl.store(dst + o, tl.load(src + o, mask=m), mask=m)
    else:
        t = (pid - U).to(tl.int64)
        first = tl.load(out_start_ptr + U) * D       # first float of the zero tail
        for start in range(first + t * BLOCK, NED, n_zero * BLOCK):
            o = start + idx
            tl.store(out_ptr + o, tl.zeros([BLOCK], dtype=tl.float32), mask=o < NED)


@triton.jit
def _fused_kernel(len_ptr, val_ptr, out_len_ptr, out_ptr, U, D, NED, keep, n_groups, n_zero,
                  GROUP: tl.constexpr, BLOCK: tl.constexpr, BLOCK_U: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    uidx = tl.arange(0, BLOCK_U)
    if pid < n_groups:
        u0 = pid.to(tl.int64) * GROUP
        # input rows and kept rows of the sequences before this group
        before_in = tl.sum(tl.zeros([BLOCK_U], dtype=tl.int64), axis=0)
        before_out = before_in
        for c in range(0, u0, BLOCK_U):
            offs = c + uidx
            n = tl.load(len_ptr + offs, mask=offs < u0, other=0)
            before_in += tl.sum(n, axis=0)
            before_out += tl.sum(tl.minimum(n, keep), axis=0)
        gi = tl.arange(0, GROUP)
        us = u0 + gi
        gm = us < U
        n = tl.load(len_ptr + us, mask=gm, other=0)
        k = tl.minimum(n, keep)
        tl.store(out_len_ptr + us, k, mask=gm)
        s_in = before_in + tl.cumsum(n, axis=0) - n
        s_out = before_out + tl.cumsum(k, axis=0) - k
        for g in range(0, GROUP):
            pick = gi == g
            nf = tl.sum(tl.where(pick, k, 0), axis=0) * D            # floats to copy
            src = val_ptr + tl.sum(tl.where(pick, s_in, 0), axis=0) * D
            dst = out_ptr + tl.sum(tl.where(pick, s_out, 0), axis=0) * D
            for start in range(0, nf, BLOCK):
                o = start + idx
                m = o < nf
                tl.store(dst + o, tl.load(src + o, mask=m), mask=m)
    else:
        # (names apart from the branch above: Triton merges a name both
        # branches assign, and these differ in type)
        t = (pid - n_groups).to(tl.int64)
        kept = tl.sum(tl.zeros([BLOCK_U], dtype=tl.int64), axis=0)
        for c0 in range(0, U, BLOCK_U):
            u_all = c0 + uidx
            kept += tl.sum(tl.minimum(tl.load(len_ptr + u_all, mask=u_all < U, other=0), keep), axis=0)
        for z0 in range(kept * D + t * BLOCK, NED, n_zero * BLOCK):
            oz = z0 + idx
            tl.store(out_ptr + oz, tl.zeros([BLOCK], dtype=tl.float32), mask=oz < NED)


# Programs that zero the tail under SCHEDULE per_sequence and fused (a few waves of the SMs).
ZERO_PROGRAMS = 1024

_launch = launch if LAUNCH == "direct" else launch_jit


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, lengths: torch.Tensor, values: torch.Tensor, keep: int):
        keep = int(keep)
        lengths = lengths.contiguous()
        values = values.contiguous()
        nu = lengths.numel()
        ne, d = values.shape
        out_lengths = torch.empty_like(lengths)
        out_values = torch.empty_like(values)
        if nu == 0:
            return out_lengths, out_values
        ned = ne * d
        if SCHEDULE == "fused" and ned > 0:   # no rows: the scan below writes out_lengths
            n_groups = triton.cdiv(nu, GROUP)
            n_zero = max(1, min(ZERO_PROGRAMS, triton.cdiv(ned, BLOCK)))
            _launch(_fused_kernel, (n_groups + n_zero,), lengths, values, out_lengths, out_values, nu, d, ned, keep,
                    n_groups, n_zero, GROUP=GROUP, BLOCK=BLOCK, BLOCK_U=BLOCK_U, num_warps=NUM_WARPS)
            return out_lengths, out_values
        blocked = SCAN == "blocks" and SCHEDULE == "chunks"
        nb = triton.cdiv(nu, BLOCK_U) if blocked else 1
        starts = torch.empty(2 * nu + (2 * nb if blocked else 1), dtype=torch.int64, device=values.device)
        in_start, out_start = starts[:nu], starts[nu:]
        if blocked:
            tot = starts[2 * nu:]
            _launch(_scan_block_kernel, (nb,), lengths, out_lengths, in_start, out_start, tot, nu, keep,
                    BLOCK_U=BLOCK_U, num_warps=4)
        else:
            tot = starts
            _launch(_scan_kernel, (1,), lengths, out_lengths, in_start, out_start, nu, keep,
                    BLOCK_U=BLOCK_U, num_warps=8)
        if ned == 0:
            return out_lengths, out_values
        if SCHEDULE == "per_sequence":
            n_zero = max(1, min(ZERO_PROGRAMS, triton.cdiv(ned, BLOCK)))
            _launch(_copy_per_sequence_kernel, (nu + n_zero,), values, out_values, lengths, in_start, out_start,
                    nu, d, ned, keep, n_zero, BLOCK=BLOCK, num_warps=NUM_WARPS)
            return out_lengths, out_values
        chunk = BLOCK * ITERS
        per_seq = triton.cdiv(min(keep, ne) * d, chunk)
        n_copy = nu * per_seq
        grid = (n_copy + triton.cdiv(ned, chunk),)
        _launch(_copy_kernel, grid, values, out_values, lengths, in_start, out_start, tot,
                nu, d, ned, keep, n_copy, max(per_seq, 1), nb,
                BLOCK=BLOCK, ITERS=ITERS, BLOCK_U=BLOCK_U, BLOCKED=blocked, num_warps=NUM_WARPS)
        return out_lengths, out_values
