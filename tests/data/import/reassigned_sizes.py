# Sizes assigned twice, the second time by unpacking (as in one of
# KernelBench's level-2 files): Python keeps the last, and so must the import
# (the first would ask for a 2048 x 2048 image). Both times by unpacking only
# (as level 3's DenseNets set theirs): the problem folder must still load.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.norm = nn.BatchNorm2d(channels)

    def forward(self, x):
        return torch.tanh(self.norm(x))


batch_size = 4
channels = 8
(height, width) = 2048, 2048
height, width = 12, 12


def get_inputs():
    return [torch.rand(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
