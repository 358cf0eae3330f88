# Reference MapId, KernelBench format: raw int64 ids -> 1-based position in a
# sorted int64 mapping table, 0 when absent.
#
#   idx    = min(#{ j : mapping[j] < ids[q] }, T - 1)   torch.bucketize(right=False), clamped
#   out[q] = idx + 1 if mapping[idx] == ids[q] else 0
#
# mapping is strictly increasing, so out[q] = j + 1 where mapping[j] == ids[q],
# else 0.
import torch
import torch.nn as nn

T = 1048576    # mapping table entries
Q = 16777216   # queries


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, ids: torch.Tensor, mapping: torch.Tensor) -> torch.Tensor:
        idx = torch.bucketize(ids, mapping, right=False).clamp_(max=mapping.numel() - 1)
        hit = mapping[idx] == ids
        return torch.where(hit, idx + 1, torch.zeros_like(idx))


def get_inputs():
    # Strictly increasing table: random gaps >= 1, mean about 1e8 / T, so the
    # values span roughly [0, 1e8].
    step = max(2, (2 * 10**8) // T)
    gaps = torch.randint(1, step, (T,), dtype=torch.int64)
    mapping = torch.cumsum(gaps, 0) - 1
    # 60% hits, 10% near misses (an entry +- 1), 30% uniform in
    # [-1e6, max + 1e6) (misses, including below the first and above the last
    # entry; a few of them hit by chance).
    kind = torch.rand(Q)
    hits = mapping[torch.randint(0, T, (Q,))]
    near = hits + torch.where(torch.rand(Q) < 0.5, -1, 1)
    top = int(mapping[-1]) + 10**6
    wild = torch.randint(-(10**6), top, (Q,), dtype=torch.int64)
    ids = torch.where(kind < 0.6, hits, torch.where(kind < 0.7, near, wild))
    return [ids, mapping]


def get_init_inputs():
    return []
