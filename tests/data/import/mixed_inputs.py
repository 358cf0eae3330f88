# Tuple outputs, non-tensor inputs, integer and boolean tensors.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, values, ids, mask, k: int, bias: float):
        picked = torch.gather(values, 1, ids) * self.scale + bias
        kept = torch.where(mask, picked, torch.zeros_like(picked))
        return kept.sum(dim=1), torch.topk(kept, k, dim=1).indices


rows = 32
cols = 50
picks = 10
k = 3
scale = 0.5


def get_inputs():
    values = torch.randn(rows, cols)
    ids = torch.randint(0, cols, (rows, picks))
    mask = torch.rand(rows, picks) > 0.3
    return [values, ids, mask, k, 0.25]


def get_init_inputs():
    return [scale]
