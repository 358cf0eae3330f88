# A KernelBench-format file whose reference draws random numbers in its
# forward (as KernelBench's level-3 LSTM draws its initial state when none is
# given): the reference against itself must be correct, on both of the
# candidate's checked calls. verify_torch_backend.sh imports and runs it.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        h0 = torch.randn(x.size(0), x.size(1), device=x.device)
        return torch.tanh(self.proj(x) + h0)


batch = 64
hidden = 256


def get_inputs():
    return [torch.rand(batch, hidden)]


def get_init_inputs():
    return [hidden]
