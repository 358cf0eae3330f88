# Sizes carried by module-level tuples (KernelBench's level 3 and many of its
# level 2 files): input_shape sizes the input, bias_shape a parameter.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, bias_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        return self.conv(x) + self.bias


batch_size = 8
in_channels = 3
out_channels = 16
height = width = 32
input_shape = (batch_size, in_channels, height, width)
bias_shape = (out_channels, 1, 1)


def get_inputs():
    return [torch.randn(input_shape)]


def get_init_inputs():
    return [in_channels, out_channels, bias_shape]
