# expect: wrong_answer
# A dishonest gpu_softmax candidate: computes in place in its input (saving
# an allocation) and returns it. The harness must report the modified input.
import torch
import triton
import triton.language as tl


@triton.jit
def _row_softmax_inplace(x_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x_ptr + row * n + offs, mask=mask, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(x_ptr + row * n + offs, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(torch.nn.Module):
    def forward(self, x):
        n = x.shape[-1]
        _row_softmax_inplace[(x.numel() // max(n, 1),)](x, n, BLOCK=triton.next_power_of_2(max(n, 1)))
        return x
