# A reference that imports a package beside torch (KernelBench's Mamba2
# problems need einops); this one exists nowhere.
import torch
import torch.nn as nn
from kw_no_such_package import rearrange


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return rearrange(x)


n = 16


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
