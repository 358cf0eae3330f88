# expect: runtime_error|wrong_answer
# Kills its parent (the judge) after writing a result.json that says ok: the
# judge never wrote it, so it is not a verdict. Under the runner's seccomp
# filter the kill fails (EPERM) and the answer stays unwritten
# (wrong_answer); where the filter is off the judge dies and the CLI charges
# the candidate (runtime_error).
import json
import os
import signal

import torch


class ModelNew(torch.nn.Module):
    def forward(self, x):
        try:
            with open("result.json", "w") as f:
                json.dump({"schema": 1, "status": "ok", "message": "forged", "speedup": 50.0, "checks": [], "timing": []}, f)
            os.kill(os.getppid(), signal.SIGKILL)
        except Exception:
            pass
        return torch.empty_like(x)
