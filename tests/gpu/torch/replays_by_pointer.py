# expect: wrong_answer
# Replays the answer computed for the same input address (warm-up and timed
# calls used to share buffers).
import torch

_answers = {}


class ModelNew(torch.nn.Module):
    def forward(self, x):
        key = (x.data_ptr(), tuple(x.shape))
        if key not in _answers:
            m = x.amax(dim=-1, keepdim=True)
            e = (x - m).exp()
            _answers[key] = e / e.sum(dim=-1, keepdim=True)
        return _answers[key]
