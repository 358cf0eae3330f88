# expect: timeout
# Never returns from its first call.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        while True:
            pass
