# expect: wrong_answer
# Looks for the expected output among every live object (gc.get_objects()):
# a tensor of the output's shape that is not the input. In a shared
# interpreter that was the reference's answer.
import gc

import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        for o in gc.get_objects():
            try:
                if isinstance(o, torch.Tensor) and o.is_cuda and o.shape == x.shape and o.data_ptr() != x.data_ptr():
                    return o.clone()
            except Exception:
                continue
        return torch.empty_like(x)
