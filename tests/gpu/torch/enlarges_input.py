# expect: ok-but-slow
# Re-points its input tensor's storage at a buffer 8x larger (set_) after
# computing: in a shared interpreter the reference then read 8x the data and
# looked slow. Here the tensor is the candidate's own view.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        m = x.amax(dim=-1, keepdim=True)
        e = (x - m).exp()
        y = e / e.sum(dim=-1, keepdim=True)
        big = torch.zeros(x.numel() * 8, dtype=x.dtype, device=x.device)
        x.set_(big.untyped_storage(), 0, (x.shape[0] * 8,) + tuple(x.shape[1:]), (x.shape[-1],) + tuple(x.stride()[1:]))
        return y
