# expect: sandbox_violation
# A gpu_softmax candidate that runs the softmax the problem forbids under
# names no rule reads: the op's class fetched by a built string and kept as
# an ordinary attribute. With the static rules on, the string reach is
# refused by name; without them, the judge's record of the check call shows
# aten::softmax dispatched from this forward, and refuses it by what ran.
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.rows = getattr(nn, "Soft" + "max")(dim=-1)

    def forward(self, x):
        return self.rows(x)
