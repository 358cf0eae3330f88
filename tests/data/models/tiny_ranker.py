# A small ranking model for the model profile's tests (CPU-sized): dense
# features normalised, projected and mixed with a softmax over a few slots.
import torch
from torch import nn

batch, features, hidden, slots = 512, 64, 256, 16


class Model(nn.Module):
    def __init__(self, features, hidden, slots):
        super().__init__()
        self.norm = nn.LayerNorm(features)
        self.up = nn.Linear(features, hidden)
        self.act = nn.SiLU()
        self.down = nn.Linear(hidden, slots)
        self.mix = nn.Softmax(dim=-1)

    def forward(self, x):
        return self.mix(self.down(self.act(self.up(self.norm(x)))))


def get_inputs():
    return [torch.randn(batch, features)]


def get_init_inputs():
    return [features, hidden, slots]
