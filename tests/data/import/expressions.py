# Sizes as expressions and chained assignments; constructor arguments from them.
import torch
import torch.nn as nn


class Model(nn.Module):
    """A projection followed by GELU: y = gelu(x @ W^T + b)."""

    def __init__(self, in_features, out_features):
        super().__init__()
        self.proj = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.nn.functional.gelu(self.proj(x))


batch_size = 64
in_features = width = 96
out_features = width * 2 + (width // 3) % 5
seq = batch_size // 4


def get_inputs():
    return [torch.randn(batch_size, seq, in_features)]


def get_init_inputs():
    return [in_features, out_features]
