"""A C++ kernel called in a module's place, through a binding.

A binding (model_regions.py finds one by behaviour) says which of a region's
tensors (its inputs, parameters and buffers) each argument of a problem's
function is, seen how (as it is, with dimensions permuted, or flattened),
which sizes follow from their shapes, and how each output goes back into the
module's shape. A kernel source (the problem's reference or a searched
winner) is compiled once, with the problem's flags and the winner's
parameters, into a shared library with one C entry point that takes the
function's arguments as an array of pointers; ctypes calls it on contiguous
copies of the bound tensors.
"""
import ctypes
import hashlib
import os
import shlex
import subprocess
from typing import Dict, List

POINTER_TYPES = {"f32": "float", "f64": "double", "i64": "int64_t", "i32": "int32_t", "u8": "uint8_t", "i8": "int8_t"}
SCALAR_CTYPES = {"f32": ctypes.c_float, "f64": ctypes.c_double, "i64": ctypes.c_int64, "i32": ctypes.c_int32}
COMPILE_S = 300


class KernelError(Exception):
    """A kernel that does not build or cannot be called: the message says why."""


def torch_dtype(torch, name):
    return {"f32": torch.float32, "f64": torch.float64, "i64": torch.int64, "i32": torch.int32,
            "u8": torch.uint8, "i8": torch.int8, "f16": torch.float16, "bf16": torch.bfloat16}.get(name)


def region_tensors(torch, module, args) -> Dict[str, object]:
    """What a binding draws from, by source name: input:I, param:NAME, buffer:NAME."""
    pool = {f"input:{i}": a for i, a in enumerate(args) if isinstance(a, torch.Tensor)}
    pool.update({f"param:{n}": p.detach() for n, p in module.named_parameters(recurse=False)})
    pool.update({f"buffer:{n}": b for n, b in module.named_buffers(recurse=False)})
    return pool


def seen_as(t, view, rank):
    """A tensor seen as a problem's argument of `rank` dimensions."""
    if view.get("perm"):
        t = t.permute(*view["perm"])
    kind = view.get("flatten")
    if kind == "all":
        t = t.reshape(-1)
    elif kind == "leading":
        t = t.reshape(-1, *t.shape[t.dim() - rank + 1:])
    elif kind == "squeeze":
        t = t.reshape([d for d in t.shape if d != 1])
    return t.contiguous()


def wrapper_source(source: str, binding: dict) -> str:
    dtypes, sizes, scalars = binding["dtypes"], binding["sizes"], binding["scalars"]
    args = []
    for i, name in enumerate(binding["call"]):
        if name in dtypes:
            args.append(f"static_cast<{POINTER_TYPES[dtypes[name]]}*>(a[{i}])")
        elif name in scalars:
            args.append(f"*static_cast<{POINTER_TYPES[scalars[name]['dtype']]}*>(a[{i}])")
        elif name in sizes:
            args.append(f"*static_cast<int64_t*>(a[{i}])")
        else:
            raise KernelError(f"the function's argument {name} is neither an array, a size nor a scalar of the problem")
    return ("#include <cstddef>\n#include <cstdint>\n#include <cmath>\n"
            f"#include \"{source}\"\n"
            f"extern \"C\" void kw_model_call(void** a) {{ {binding['function']}({', '.join(args)}); }}\n")


def compile_kernel(source: str, binding: dict, defines: List[str], spec: dict, build_dir: str):
    """The kernel's library, built once per source, parameters and flags."""
    flags = list(spec.get("compile", {}).get("flags", ["-O3"])) + list(defines)
    with open(source, "rb") as f:
        text = f.read()
    key = hashlib.sha256(text + "\0".join(flags).encode() + binding["function"].encode()).hexdigest()[:16]
    lib = os.path.join(build_dir, f"kernel-{key}.so")
    if not os.path.exists(lib):
        wrapper = os.path.join(build_dir, f"kernel-{key}.cpp")
        with open(wrapper, "w") as f:
            f.write(wrapper_source(os.path.abspath(source), binding))
        cxx = shlex.split(os.environ.get("CXX", "g++"))
        cmd = cxx + ["-std=c++17", "-shared", "-fPIC"] + flags + [wrapper, "-o", lib]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=COMPILE_S)
        if done.returncode != 0:
            raise KernelError(f"{os.path.basename(source)} does not build: {done.stderr.strip()[-600:]}")
    try:
        return ctypes.CDLL(lib)
    except OSError as e:
        raise KernelError(f"{lib} does not load: {e}")


def call(torch, kernel, binding: dict, module, args) -> List[object]:
    """The kernel's outputs for the module's call `module(*args)`, in the
    module's output order and shapes. `kernel` is a C++ library
    (compile_kernel) or a torch problem's model (model_torch_problems)."""
    pool = region_tensors(torch, module, args)
    arrays, sizes = {}, {}
    for b in binding["inputs"]:
        t = pool.get(b["from"])
        if t is None:
            raise KernelError(f"the module has no {b['from']} any more: extract the model again")
        symbols = binding_shape(binding, b["arg"])
        arrays[b["arg"]] = seen_as(t, b, len(symbols))
        for s, d in zip(symbols, arrays[b["arg"]].shape):
            if isinstance(s, str) and sizes.setdefault(s, d) != d:
                raise KernelError(f"the module's tensors disagree on {s} ({sizes[s]} and {d})")
    for s, d in binding["sizes"].items():
        sizes.setdefault(s, d)  # sizes no input shows: as extracted
    if binding.get("backend") == "torch":
        got = kernel(arrays, sizes, len(binding["outputs"]))
        produced = {b["arg"]: got[int(b["arg"].split(":")[1])] for b in binding["outputs"]}
    else:
        produced = call_cpp(torch, kernel, binding, arrays, sizes)
    results = [None] * len(binding["outputs"])
    for b in binding["outputs"]:
        o = produced[b["arg"]]
        if b.get("flatten"):
            o = o.reshape(args[b["module_shape_of"]].shape)
        elif b.get("perm"):
            inverse = [0] * len(b["perm"])
            for i, p in enumerate(b["perm"]):
                inverse[p] = i
            o = o.permute(*inverse)
        results[b["to"]] = o
    return results


def call_cpp(torch, kernel, binding, arrays, sizes):
    """The C entry point on contiguous arrays; the outputs it wrote."""
    dtypes = binding["dtypes"]
    device = next(iter(arrays.values())).device if arrays else "cpu"
    outputs = {}
    for b in binding["outputs"]:
        outputs[b["arg"]] = arrays[b["arg"]] = torch.empty([sizes[s] for s in binding_shape(binding, b["arg"])],
                                                           dtype=torch_dtype(torch, dtypes[b["arg"]]), device=device)
    keep = []
    pointers = (ctypes.c_void_p * len(binding["call"]))()
    for i, name in enumerate(binding["call"]):
        if name in arrays:
            pointers[i] = arrays[name].data_ptr()
        else:
            value = SCALAR_CTYPES[binding["scalars"][name]["dtype"]](binding["scalars"][name]["value"]) \
                if name in binding["scalars"] else ctypes.c_int64(sizes[name])
            keep.append(value)
            pointers[i] = ctypes.cast(ctypes.pointer(value), ctypes.c_void_p)
    kernel.kw_model_call(pointers)
    return outputs


def binding_shape(binding: dict, arg: str) -> List[str]:
    return binding["shapes"][arg]
