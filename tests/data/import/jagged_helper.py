# A recommendation-model pooling whose inputs a helper function builds:
# get_inputs passes the module-level sizes to make_jagged, whose tensors
# they size (problem import varies them like direct ones).
import torch
import torch.nn as nn

class Model(nn.Module):
    """Sums each segment of a jagged tensor (recommendation-model pooling)."""
    def __init__(self):
        super().__init__()
    def forward(self, values, offsets):
        lengths = offsets[1:] - offsets[:-1]
        seg = torch.repeat_interleave(torch.arange(lengths.numel(), device=values.device), lengths)
        out = torch.zeros(lengths.numel(), values.shape[1], device=values.device, dtype=values.dtype)
        out.index_add_(0, seg, values)
        return out

batch_size = 1024
max_len = 64
dim = 128

def make_jagged(b, max_len, dim):
    lengths = torch.randint(0, max_len + 1, (b,))
    offsets = torch.zeros(b + 1, dtype=torch.int64)
    offsets[1:] = torch.cumsum(lengths, 0)
    values = torch.randn(int(offsets[-1]), dim)
    return values, offsets

def get_inputs():
    values, offsets = make_jagged(batch_size, max_len, dim)
    return [values, offsets]

def get_init_inputs():
    return []
