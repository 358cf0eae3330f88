# expect: wrong_answer
# A dishonest gpu_softmax candidate: returns memory it never wrote. The
# harness must report wrong_answer (unwritten), whatever the allocator held.
import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        return torch.empty_like(x)
