# expect: wrong_answer
# Returns at once and fills the output from a thread of its own after the
# call has returned: the judge freezes its process when it answers.
import threading
import time

import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)

        def later():
            time.sleep(0.002)
            m = x.amax(dim=-1, keepdim=True)
            e = (x - m).exp()
            y.copy_(e / e.sum(dim=-1, keepdim=True))
            torch.cuda.synchronize()

        threading.Thread(target=later, daemon=True).start()
        return y
