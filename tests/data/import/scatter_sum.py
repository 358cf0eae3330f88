# A recommendation-model style reduction: values summed into segments by an
# index (index_add_), whose order of additions a GPU does not fix. The
# reference must pass against itself: the import sets its tolerance from the
# reference's own deviation (float64, two runs), not from the dtype alone.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, segments: int):
        super().__init__()
        self.segments = segments

    def forward(self, values, index):
        out = torch.zeros(self.segments, values.size(1), device=values.device, dtype=values.dtype)
        return out.index_add_(0, index, values)


rows = 65536
dim = 64
segments = 97


def get_inputs():
    return [torch.randn(rows, dim), torch.randint(0, segments, (rows,))]


def get_init_inputs():
    return [segments]
