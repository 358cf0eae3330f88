# expect: wrong_answer
# Correct on the first call of each shape, then returns what it returned
# before: a harness that checks one call and times others passes it.
import torch

_seen = {}


class ModelNew(torch.nn.Module):
    def forward(self, x):
        key = tuple(x.shape)
        if key in _seen:
            return _seen[key]
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        y = e / e.sum(dim=-1, keepdim=True)
        _seen[key] = y
        return y
