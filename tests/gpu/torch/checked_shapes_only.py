# expect: wrong_answer
# Correct on the small check shapes, nothing on the timed one (which the
# harness never checked): returns unwritten memory for large inputs.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        if x.numel() >= 1 << 24:
            return torch.empty_like(x)
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        return e / e.sum(dim=-1, keepdim=True)
