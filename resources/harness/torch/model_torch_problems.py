"""A bundled torch problem seen as a function of named arguments, for
matching a model's regions to it by behaviour (model_regions.py) and for
calling its reference or a searched winner in a module's place
(model_kernels.py).

A torch problem is a KernelBench module: module-level sizes, Model built
from get_init_inputs(), forward over get_inputs(). Its arguments are the
forward's tensor inputs ("input:I") and the Model's parameters and buffers
("state:NAME"); its outputs are the forward's ("output:J"). Each one's
symbolic shape is learned by running the reference once at small, distinct
probe sizes: a dimension equal to a size's probe is that size, any other is
a constant.
"""
import importlib.util
import os
import sys
from typing import Dict, List

from torch_sizes import apply_sizes, derived_assignments

PROBES = [17, 19, 23, 29, 31, 37, 41, 43]
SHORT = {"float32": "f32", "float64": "f64", "int64": "i64", "int32": "i32", "uint8": "u8", "int8": "i8",
         "float16": "f16", "bfloat16": "bf16"}


def short_dtype(t) -> str:
    return SHORT.get(str(t.dtype).replace("torch.", ""), str(t.dtype))


def load_reference(path: str, tag: str):
    spec = importlib.util.spec_from_file_location(f"kw_problem_{tag}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(path) as f:
        module._kw_derived = derived_assignments(f.read())
    return module


def load_winner(path: str, tag: str):
    """A searched winner, with its own kw_params (its parameters, written
    beside it) importable while it loads, and no other winner's."""
    folder = os.path.dirname(os.path.abspath(path))
    sys.modules.pop("kw_params", None)
    sys.path.insert(0, folder)
    try:
        return load_reference(path, tag)
    finally:
        sys.path.remove(folder)
        sys.modules.pop("kw_params", None)


def set_sizes(module, sizes: Dict[str, int]):
    apply_sizes(module, sizes, module._kw_derived)


def arguments(torch, problem_dir: str, spec: dict) -> List[dict]:
    """The problem's arguments and outputs with symbolic shapes; [] when it
    cannot be seen that way (a non-tensor forward input, a reference that
    does not run at the probe sizes)."""
    ref = load_reference(os.path.join(problem_dir, spec.get("reference", "reference.py")), spec.get("name", "p"))
    sizes = list(spec.get("sizes", []))
    if len(sizes) > len(PROBES):
        return []
    probes = dict(zip(sizes, PROBES))
    set_sizes(ref, probes)
    torch.manual_seed(0)
    try:
        inputs = list(ref.get_inputs())
        init = list(ref.get_init_inputs()) if hasattr(ref, "get_init_inputs") else []
        model = ref.Model(*init).eval()
        with torch.no_grad():
            out = model(*inputs)
    except Exception:
        return []
    if not all(isinstance(x, torch.Tensor) for x in inputs):
        return []
    outs = [out] if isinstance(out, torch.Tensor) else list(out) if isinstance(out, (tuple, list)) else []
    if not outs or not all(isinstance(o, torch.Tensor) for o in outs):
        return []

    def sym(shape):
        return [next((s for s, v in probes.items() if v == d), int(d)) for d in shape]

    args = [{"name": f"input:{i}", "dtype": short_dtype(x), "shape": sym(x.shape)} for i, x in enumerate(inputs)]
    args += [{"name": f"state:{n}", "dtype": short_dtype(t), "shape": sym(t.shape)} for n, t in model.state_dict().items()]
    args += [{"name": f"output:{j}", "dtype": short_dtype(o), "shape": sym(o.shape), "output": True} for j, o in enumerate(outs)]
    return args


class TorchKernel:
    """A torch problem's Model (the reference) or a winner's ModelNew, built
    at a binding's sizes with the region's tensors as its state."""

    def __init__(self, torch, reference_path: str, source_path: str = "", tag: str = "k"):
        self.torch = torch
        self.reference = load_reference(reference_path, tag + "_ref")
        if source_path:
            winner = load_winner(source_path, tag + "_new")
            self.cls = getattr(winner, "ModelNew", None) or getattr(winner, "Model")
        else:
            self.cls = self.reference.Model
        self.built = {}

    def model(self, sizes: Dict[str, int], state: Dict[str, object], device):
        key = tuple(sorted(sizes.items()))
        m = self.built.get(key)
        if m is None:
            set_sizes(self.reference, sizes)
            init = list(self.reference.get_init_inputs()) if hasattr(self.reference, "get_init_inputs") else []
            m = self.cls(*init).to(device).eval()
            own = m.state_dict()
            # The region's tensors where the model has the same names and
            # shapes (a winner may keep the reference's names or its own).
            m.load_state_dict({k: v.to(device) for k, v in state.items() if k in own and own[k].shape == v.shape},
                              strict=False)
            self.built[key] = m
        return m

    def __call__(self, arrays: Dict[str, object], sizes: Dict[str, int], outputs: int):
        inputs = [arrays[f"input:{i}"] for i in range(sum(1 for k in arrays if k.startswith("input:")))]
        state = {k[len("state:"):]: v for k, v in arrays.items() if k.startswith("state:")}
        device = inputs[0].device if inputs else "cpu"
        with self.torch.no_grad():
            out = self.model(sizes, state, device)(*inputs)
        outs = [out] if isinstance(out, self.torch.Tensor) else list(out)
        return outs[:outputs]
