# Triton seed: MapId, int64 ids -> 1-based position in a sorted int64 table
# (0 when absent).
#
# STRATEGY
#   bucket  two kernels per call.
#           1. build: a radix index over the table. With m0 = mapping[0] and a
#              shift s (the smallest with (mapping[T-1] - m0) >> s < R, computed
#              on the GPU, no host sync), entry j falls in bucket
#              (mapping[j] - m0) >> s, and start[k] = first j whose bucket is
#              >= k (start[R] = T), an int32 array of R + 1 entries. Buckets are
#              non-decreasing in j, so each start[k] is written exactly once: by
#              the j where the bucket sequence crosses k, or by the tail pass.
#           2. query: ids outside [m0, mapping[T-1]] miss at once; otherwise the
#              id's bucket k bounds its only possible match to
#              mapping[start[k] : start[k+1]], which is scanned for equality
#              (a loop of max-bucket-size steps per program, independent loads).
#              About 3 dependent random loads per query instead of log2(T) ~ 20,
#              and the table and index stay L2-resident. Correct for any sorted
#              table; only the speed depends on how evenly ids spread over buckets.
#   bisect  one kernel: a branchless binary search (binary lifting, log2(T)+1
#           dependent gathers per query), then the equality test.
#   packed  two kernels per call, one 32-byte gather per query in the common case: the
#           same buckets, but each holds a 32-byte record (one L2 sector) with
#           its first three entries' values, the first one's position and the
#           entry count (capped at 4): [v0, v1, v2, pos | cnt << 32]. The build
#           writes a bucket's record from its first entry (reading the next
#           three), and marks empty buckets (cnt 0); a query reads its bucket's
#           record (four loads of one sector, issued together) and compares. A
#           bucket of four or more entries whose third value is below the id
#           (rare for spread-out tables; every bucket of a clustered one) falls
#           back to the binary search, only in the blocks that hold such ids.
#           32 bytes per bucket: 32 MiB at the time shape with one bucket per
#           entry, within an H100's L2 with the table.
#   word    (default) two kernels per call, one 8-byte gather per query, as
#           the GPU probe's gather rate assumes: the same buckets, each one
#           int64 word [pos (31 bits) | overflow (1) | d0 d1 d2 d3 (8 bits
#           each)], pos the bucket's first entry and d_i the offsets of its
#           first four entries from the bucket's lowest value (0xFF: none).
#           Offsets fit in 8 bits while the bucket width 2^s <= 128, i.e.
#           while the table spans less than 128 values per bucket (the time
#           shape spans about 95 per entry); a wider table (s > 7, known on
#           the device only) takes the binary search instead, uniformly. A
#           bucket of five or more entries (overflow) sends the ids past its
#           fourth entry to a short walk up the table from pos + 4. 8 bytes
#           per bucket: 8 MiB at the time shape with one bucket per entry,
#           the probe's own table size.
# BUCKETS_PER_ENTRY  R = next_pow2(T) * this: more buckets = shorter scans,
#           larger index (4 bytes per bucket; 32 with packed).
# BLOCK_Q   queries per program.
# NUM_WARPS threads per program (more warps = more loads in flight per SM).
#
# LAUNCH: direct launches through kw_launch (the compiled kernel kept per
# specialisation, past Triton's per-call binding); jit: kernel[grid].
#
# @kw-param STRATEGY: enum(word, bucket, bisect, packed) = word
# @kw-param BUCKETS_PER_ENTRY: 1 | 2 | 4 = 1
# @kw-param BLOCK_Q: 256 | 512 | 1024 | 2048 = 256
# @kw-param NUM_WARPS: 2 | 4 | 8 = 4
# @kw-param LAUNCH: enum(direct, jit) = direct
import torch
import torch.nn as nn
import triton
import triton.language as tl

from kw_params import STRATEGY, BUCKETS_PER_ENTRY, BLOCK_Q, NUM_WARPS, LAUNCH
from kw_launch import launch, launch_jit

BUILD_BLOCK = 1024


@triton.jit
def _bucket_shift(span_u, R):
    # Smallest s with (span_u >> s) < R, for an unsigned span and R >= 2: the
    # count of shifts s' in [0, 63) with (span_u >> s') >= R, which hold for
    # every s' below the answer and none above, found by binary lifting in six
    # steps. Every query program computes it: the 63-step count it replaces
    # was most of the query kernel's instructions (ncu on an H200: SM 93 %,
    # DRAM 17 %).
    s = span_u * 0
    s = _lift(span_u, R, s, 32)
    s = _lift(span_u, R, s, 16)
    s = _lift(span_u, R, s, 8)
    s = _lift(span_u, R, s, 4)
    s = _lift(span_u, R, s, 2)
    return _lift(span_u, R, s, 1)


@triton.jit
def _lift(span_u, R, s, STEP: tl.constexpr):
    # One binary-lifting step of _bucket_shift: s + STEP when every shift
    # below it still leaves span_u >= R (the largest, s + STEP - 1, does).
    t = s + STEP
    return tl.where((t <= 63) & ((span_u >> (t - 1)) >= R), t, s)


@triton.jit
def _bucket(v, m0, s):
    # The bucket of a value v >= m0: its distance from the first entry, shifted.
    return ((v - m0).to(tl.uint64, bitcast=True) >> s).to(tl.int64)


@triton.jit
def _entry_buckets(map_ptr, offs, T, R):
    # For table entries offs: which exist, their values and buckets, the
    # previous entry's bucket (-1 before the first), and the shift and the
    # last entry's bucket.
    m0 = tl.load(map_ptr)
    span = (tl.load(map_ptr + (T - 1)) - m0).to(tl.uint64, bitcast=True)
    s = _bucket_shift(span, R)
    jm = offs < T
    v = tl.load(map_ptr + offs, mask=jm, other=0)
    pm = jm & (offs > 0)
    vp = tl.load(map_ptr + offs - 1, mask=pm, other=0)
    bp = tl.where(pm, _bucket(vp, m0, s), -1)
    return jm, v, _bucket(v, m0, s), bp, m0, s, (span >> s).to(tl.int64)


@triton.jit
def _query_buckets(map_ptr, v, qm, T, R):
    # For ids v: which lie within the table's range, and their buckets (0 outside).
    m0 = tl.load(map_ptr)
    mlast = tl.load(map_ptr + (T - 1))
    s = _bucket_shift((mlast - m0).to(tl.uint64, bitcast=True), R)
    inr = qm & (v >= m0) & (v <= mlast)
    return inr, tl.where(inr, _bucket(v, m0, s), 0)


@triton.jit
def _lower_bound(map_ptr, v, T, mask, LOG: tl.constexpr):
    # #{ j : mapping[j] < v } where mask holds: the largest pos in [0, T] with
    # pos == 0 or mapping[pos - 1] < v; steps 2^(LOG-1), ..., 1 sum to
    # 2^LOG - 1 >= T (binary lifting, LOG dependent gathers).
    pos = tl.zeros_like(v)
    for i in tl.static_range(LOG):
        cand = pos + (1 << (LOG - 1 - i))
        ok = cand <= T
        mv = tl.load(map_ptr + (cand - 1), mask=mask & ok, other=0)
        pos = tl.where(ok & (mv < v), cand, pos)
    return pos


@triton.jit
def _build_kernel(map_ptr, start_ptr, T, R, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    jm, v, bj, bp, m0, s, blast = _entry_buckets(map_ptr, offs, T, R)
    # crossings: entry j writes start[k] = j for bucket(j-1) < k <= bucket(j)
    cnt = tl.where(jm, bj - bp, 0).to(tl.int32)
    n = tl.max(cnt, axis=0)
    jv = offs.to(tl.int32)
    for i in range(0, n):
        tl.store(start_ptr + bp + 1 + i, jv, mask=i < cnt)
    # tail: buckets after the last entry's bucket start at T
    km = (offs <= R) & (offs > blast)
    tl.store(start_ptr + offs, tl.zeros([BLOCK], dtype=tl.int32) + T, mask=km)


@triton.jit
def _query_bucket_kernel(ids_ptr, map_ptr, start_ptr, out_ptr, Q, T, R, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    qm = offs < Q
    v = tl.load(ids_ptr + offs, mask=qm, other=0)
    inr, k = _query_buckets(map_ptr, v, qm, T, R)
    lo = tl.load(start_ptr + k, mask=inr, other=0)
    hi = tl.load(start_ptr + k + 1, mask=inr, other=0)
    cnt = hi - lo
    n = tl.max(cnt, axis=0)
    res = tl.zeros([BLOCK], dtype=tl.int64)
    for i in range(0, n):
        j = lo + i
        jm = i < cnt
        mv = tl.load(map_ptr + j, mask=jm, other=0)
        res = tl.where(jm & (mv == v), (j + 1).to(tl.int64), res)
    tl.store(out_ptr + offs, res, mask=qm)


@triton.jit
def _query_bisect_kernel(ids_ptr, map_ptr, out_ptr, Q, T, LOG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    qm = offs < Q
    v = tl.load(ids_ptr + offs, mask=qm, other=0)
    idx = tl.minimum(_lower_bound(map_ptr, v, T, qm, LOG), T - 1)
    g = tl.load(map_ptr + idx, mask=qm, other=0)
    res = tl.where(g == v, idx + 1, 0)
    tl.store(out_ptr + offs, res, mask=qm)


@triton.jit
def _pack_build_kernel(map_ptr, rec_ptr, T, R, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    jm, v, bj, bp, m0, s, blast = _entry_buckets(map_ptr, offs, T, R)
    first = jm & (bj != bp)
    # the next three entries, while they stay in this bucket: copied and counted
    m1 = first & (offs + 1 < T)
    v1 = tl.load(map_ptr + offs + 1, mask=m1, other=0)
    same1 = m1 & (_bucket(v1, m0, s) == bj)
    m2 = same1 & (offs + 2 < T)
    v2 = tl.load(map_ptr + offs + 2, mask=m2, other=0)
    same2 = m2 & (_bucket(v2, m0, s) == bj)
    m3 = same2 & (offs + 3 < T)
    v3 = tl.load(map_ptr + offs + 3, mask=m3, other=0)
    same3 = m3 & (_bucket(v3, m0, s) == bj)
    cnt = 1 + same1.to(tl.int64) + same2.to(tl.int64) + same3.to(tl.int64)
    rec = rec_ptr + bj * 4
    tl.store(rec, v, mask=first)
    tl.store(rec + 1, v1, mask=first)
    tl.store(rec + 2, v2, mask=first)
    tl.store(rec + 3, offs | (cnt << 32), mask=first)
    # empty buckets between the previous entry's bucket and this one
    gap = tl.where(first, bj - bp - 1, 0)
    n = tl.max(gap, axis=0)
    for i in range(0, n):
        tl.store(rec_ptr + (bp + 1 + i) * 4 + 3, tl.zeros([BLOCK], dtype=tl.int64), mask=i < gap)
    # and the buckets after the last entry's
    km = (offs < R) & (offs > blast)
    tl.store(rec_ptr + offs * 4 + 3, tl.zeros([BLOCK], dtype=tl.int64), mask=km)


@triton.jit
def _query_packed_kernel(ids_ptr, map_ptr, rec_ptr, out_ptr, Q, T, R, LOG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    qm = offs < Q
    v = tl.load(ids_ptr + offs, mask=qm, other=0)
    inr, k = _query_buckets(map_ptr, v, qm, T, R)
    rec = rec_ptr + k * 4
    r0 = tl.load(rec, mask=inr, other=0)
    r1 = tl.load(rec + 1, mask=inr, other=0)
    r2 = tl.load(rec + 2, mask=inr, other=0)
    meta = tl.load(rec + 3, mask=inr, other=0)
    cnt = meta >> 32
    pos = meta & 0xFFFFFFFF
    res = tl.zeros([BLOCK], dtype=tl.int64)
    res = tl.where((cnt > 0) & (r0 == v), pos + 1, res)
    res = tl.where((cnt > 1) & (r1 == v), pos + 2, res)
    res = tl.where((cnt > 2) & (r2 == v), pos + 3, res)
    # four or more entries in the bucket and the id past the third: the binary search
    big = inr & (cnt > 3) & (v > r2)
    if tl.max(big.to(tl.int32), axis=0) > 0:
        idx = tl.minimum(_lower_bound(map_ptr, v, T, big, LOG), T - 1)
        g = tl.load(map_ptr + idx, mask=big, other=0)
        res = tl.where(big & (g == v), idx + 1, res)
    tl.store(out_ptr + offs, res, mask=qm)


# A bucket word with no entries: every offset 0xFF (no offset is above 127).
EMPTY_WORD = tl.constexpr(-4294967296)  # 0xFFFFFFFF00000000 as int64
# Offsets are 8 bits wide: buckets up to 2^MAX_WORD_SHIFT values wide.
MAX_WORD_SHIFT = tl.constexpr(7)


@triton.jit
def _word_offset(v, m0, s, b):
    # v's offset from the lowest value of bucket b (v in bucket b: below 2^s).
    return (v - m0) - (b << s)


@triton.jit
def _word_build_kernel(map_ptr, word_ptr, T, R, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    jm, v, bj, bp, m0, s, blast = _entry_buckets(map_ptr, offs, T, R)
    if s <= MAX_WORD_SHIFT:
        first = jm & (bj != bp)
        # the bucket's next four entries: offsets of the next three, and the
        # fifth only for the overflow flag
        word = offs | (_word_offset(v, m0, s, bj) << 32)
        inb = first
        for i in tl.static_range(1, 5):
            inb = inb & (offs + i < T)
            vi = tl.load(map_ptr + offs + i, mask=inb, other=0)
            inb = inb & (_bucket(vi, m0, s) == bj)
            if i < 4:
                d = tl.where(inb, _word_offset(vi, m0, s, bj), 0xFF)
                word = word | (d << (32 + 8 * i))
            else:
                word = word | (inb.to(tl.int64) << 31)
        tl.store(word_ptr + bj, word, mask=first)
        # empty buckets between the previous entry's bucket and this one
        gap = tl.where(first, bj - bp - 1, 0)
        n = tl.max(gap, axis=0)
        empty = tl.full([BLOCK], EMPTY_WORD, tl.int64)
        for i in range(0, n):
            tl.store(word_ptr + bp + 1 + i, empty, mask=i < gap)
        # and the buckets after the last entry's
        km = (offs < R) & (offs > blast)
        tl.store(word_ptr + offs, empty, mask=km)


@triton.jit
def _query_word_kernel(ids_ptr, map_ptr, word_ptr, out_ptr, Q, T, R, LOG: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    qm = offs < Q
    v = tl.load(ids_ptr + offs, mask=qm, other=0)
    m0 = tl.load(map_ptr)
    mlast = tl.load(map_ptr + (T - 1))
    s = _bucket_shift((mlast - m0).to(tl.uint64, bitcast=True), R)
    if s <= MAX_WORD_SHIFT:
        inr = qm & (v >= m0) & (v <= mlast)
        k = tl.where(inr, _bucket(v, m0, s), 0)
        word = tl.load(word_ptr + k, mask=inr, other=EMPTY_WORD)
        o = tl.where(inr, _word_offset(v, m0, s, k), 0x100)   # 0x100 matches no offset
        pos = word & 0x7FFFFFFF
        res = tl.zeros([BLOCK], dtype=tl.int64)
        for i in tl.static_range(4):
            res = tl.where(((word >> (32 + 8 * i)) & 0xFF) == o, pos + (i + 1), res)
        # overflow: ids past the fourth entry walk up the table from pos + 4
        # until an entry is not below them (a few steps, in few programs)
        j = pos + 4
        walk = inr & (((word >> 31) & 1) == 1) & (o > ((word >> 56) & 0xFF))
        while tl.max(walk.to(tl.int32), axis=0) > 0:
            walk = walk & (j < T)
            mv = tl.load(map_ptr + j, mask=walk, other=0)
            res = tl.where(walk & (mv == v), j + 1, res)
            walk = walk & (mv < v)
            j += 1
    else:
        idx = tl.minimum(_lower_bound(map_ptr, v, T, qm, LOG), T - 1)
        g = tl.load(map_ptr + idx, mask=qm, other=0)
        res = tl.where(g == v, idx + 1, 0)
    tl.store(out_ptr + offs, res, mask=qm)


_launch = launch if LAUNCH == "direct" else launch_jit


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, ids: torch.Tensor, mapping: torch.Tensor) -> torch.Tensor:
        ids = ids.contiguous()
        mapping = mapping.contiguous()
        nq = ids.numel()
        nt = mapping.numel()
        out = torch.empty_like(ids)
        if nq == 0:
            return out
        grid = (triton.cdiv(nq, BLOCK_Q),)
        if STRATEGY == "bisect":
            _launch(_query_bisect_kernel, grid, ids, mapping, out, nq, nt, LOG=max(1, nt.bit_length()),
                    BLOCK=BLOCK_Q, num_warps=NUM_WARPS)
            return out
        r = max(2, triton.next_power_of_2(nt)) * BUCKETS_PER_ENTRY
        if STRATEGY == "word" and nt < 2**31:   # a bucket's first entry fits in 31 bits
            words = torch.empty(r, dtype=torch.int64, device=ids.device)
            _launch(_word_build_kernel, (triton.cdiv(max(nt, r), BUILD_BLOCK),), mapping, words, nt, r,
                    BLOCK=BUILD_BLOCK, num_warps=4)
            _launch(_query_word_kernel, grid, ids, mapping, words, out, nq, nt, r, LOG=max(1, nt.bit_length()),
                    BLOCK=BLOCK_Q, num_warps=NUM_WARPS)
            return out
        if STRATEGY == "packed":
            records = torch.empty(4 * r, dtype=torch.int64, device=ids.device)
            _launch(_pack_build_kernel, (triton.cdiv(max(nt, r), BUILD_BLOCK),), mapping, records, nt, r,
                    BLOCK=BUILD_BLOCK, num_warps=4)
            _launch(_query_packed_kernel, grid, ids, mapping, records, out, nq, nt, r, LOG=max(1, nt.bit_length()),
                    BLOCK=BLOCK_Q, num_warps=NUM_WARPS)
            return out
        start = torch.empty(r + 1, dtype=torch.int32, device=ids.device)
        _launch(_build_kernel, (triton.cdiv(max(nt, r + 1), BUILD_BLOCK),), mapping, start, nt, r, BLOCK=BUILD_BLOCK,
                num_warps=4)
        _launch(_query_bucket_kernel, grid, ids, mapping, start, out, nq, nt, r, BLOCK=BLOCK_Q, num_warps=NUM_WARPS)
        return out
