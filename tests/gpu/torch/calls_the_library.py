# expect: ok
# An honest control under the default policy (a candidate may call library
# ops beside its own kernels): torch's own softmax, accepted at about 1x the
# reference, which is all delegation can earn.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)
