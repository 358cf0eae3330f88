# Kernelwright's profiling call for torch problems: the judge runs this file
# under Nsight Compute (ncu --profile-from-start off) once the candidate has
# been judged and every runner is gone:
#
#   ncu ... python3 src/torch_profile_call.py
#
# It builds the reference's inputs and parameters at the last timing shape
# (from a fixed seed: the verdict is already made, nothing here is secret),
# the candidate's ModelNew with the reference's state, calls it twice (Triton
# and inline CUDA compile here, outside the profiled range), then once more
# between cudaProfilerStart and cudaProfilerStop: ncu profiles only the kernels
# of that call. Everything it prints is diagnostic; it decides nothing.
import json
import os
import sys

SRC = os.path.dirname(os.path.abspath(__file__))
SEED = 20261126


def main():
    sys.path.insert(0, SRC)
    import torch

    from torch_runner import adopt_state, load_module

    with open(os.path.join(SRC, "torch_job.json")) as f:
        job = json.load(f)
    shape = job["time_shapes"][-1]
    from torch_sizes import apply_sizes, derived_assignments

    path = os.path.join(SRC, "reference.py")
    reference = load_module("reference", path)
    with open(path, encoding="utf-8") as f:
        apply_sizes(reference, shape["sizes"], derived_assignments(f.read()))
    torch.manual_seed(SEED)
    with torch.device("cuda"):
        inputs = list(reference.get_inputs())
        init = list(reference.get_init_inputs())
    inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in inputs]
    torch.manual_seed(SEED)
    with torch.device("cuda"):
        state = {k: v.detach().clone() for k, v in reference.Model(*init).cuda().state_dict().items()}
    candidate = load_module("candidate", os.path.join(SRC, "candidate.py"))
    torch.manual_seed(SEED)
    with torch.device("cuda"):
        model = candidate.ModelNew(*init)
    model = model.cuda().eval()
    adopt_state(model, state)
    del state
    with torch.no_grad():
        for _ in range(2):
            model(*inputs)
            torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStart()
        model(*inputs)
        torch.cuda.synchronize()
        torch.cuda.cudart().cudaProfilerStop()


if __name__ == "__main__":
    main()
