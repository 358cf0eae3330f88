# expect: runtime_error|wrong_answer
# Speaks for its runner: finds the judge's request in the runner's frames,
# answers it at once with the outputs of an earlier call (same sequence
# number), and returns memory it never writes.
import json
import os
import socket
import struct
import sys

import torch

_first = []


def _request():
    f = sys._getframe(1)
    while f is not None:
        msg = f.f_locals.get("msg")
        if isinstance(msg, dict) and "seq" in msg:
            return msg
        f = f.f_back
    return None


class ModelNew(torch.nn.Module):
    def forward(self, x):
        if not _first:
            m = x.amax(dim=-1, keepdim=True)
            e = (x - m).exp()
            y = e / e.sum(dim=-1, keepdim=True)
            _first.append(y)
            return y
        msg = _request()
        runner = sys.modules["__main__"]
        try:
            desc = runner.Runner.__dict__  # the runner's own exporter, if it can be found
            exporter = None
            for obj in list(sys._getframe(1).f_locals.values()):
                if hasattr(obj, "cuda") and hasattr(obj.cuda, "export"):
                    exporter = obj.cuda
            if msg is not None and exporter is not None:
                d = exporter.export(_first[0])
                body = json.dumps({"type": "done", "seq": msg["seq"], "outputs": [[d]] * len(msg.get("ids", [1]))}).encode()
                s = socket.socket(fileno=os.dup(int(os.environ.get("KW_JUDGE_FD", "3"))))
                s.sendall(struct.pack("<I", len(body)) + body)
        except Exception:
            pass
        return torch.empty_like(x)
