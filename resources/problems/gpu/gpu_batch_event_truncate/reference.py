# Reference Batch Event Truncate, KernelBench format: keep the first KEEP
# events of every sequence, compacted to the front, the rest zeroed.
#
#   out_lengths[u] = min(lengths[u], keep)
#   out_values     = rows of the kept events, in order, compacted to the
#                    front; the remaining NE - sum(out_lengths) rows are 0.0
#
# lengths is U int64 (events per sequence, 0 allowed); values is NE x D fp32,
# the events of all sequences concatenated in order (NE = sum(lengths)), one
# row of D floats per event; keep is a plain int (>= 0).
import torch
import torch.nn as nn

U = 8192     # sequences
MAXE = 256   # events per sequence: uniform in [0, MAXE], about 1 in 16 forced to 0
D = 64       # floats per event row
KEEP = 128   # events kept per sequence (the first ones)


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, lengths: torch.Tensor, values: torch.Tensor, keep: int):
        num_events = values.shape[0]
        out_lengths = torch.clamp(lengths, max=keep)
        starts = torch.cumsum(lengths, 0) - lengths                 # first event of each sequence
        seq = torch.repeat_interleave(torch.arange(lengths.numel(), device=values.device), lengths,
                                      output_size=num_events)        # sequence of each event
        pos = torch.arange(num_events, device=values.device) - starts[seq]   # index within its sequence
        kept = values[pos < keep]
        out_values = torch.zeros_like(values)
        out_values[: kept.shape[0]] = kept
        return out_lengths, out_values


def get_inputs():
    lengths = torch.randint(0, MAXE + 1, (U,), dtype=torch.int64)
    lengths[torch.rand(U) < 1.0 / 16] = 0
    num_events = int(lengths.sum())
    values = torch.randn(num_events, D)
    return [lengths, values, KEEP]


def get_init_inputs():
    return []
