# Sizes as expressions, chained assignments and statements sharing a line;
# constructor arguments from them.
import torch
import torch.nn as nn


class Model(nn.Module):
    """A projection followed by GELU: y = gelu(x @ W^T + b)."""

    def __init__(self, in_features, out_features, lo):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features)
        self.lo = lo

    def forward(self, x):
        return torch.nn.functional.gelu(self.proj(x)).clamp(min=self.lo)


batch_size = 64
in_features = width = 96
out_features = width * 2 + (width // 3) % 5
seq = batch_size // 4
depth = 2; lo = -1  # statements sharing a line; a negative constant is a value, not a size


def get_inputs():
    return [torch.randn(batch_size, seq, in_features)]


def get_init_inputs():
    return [in_features, out_features, lo]
