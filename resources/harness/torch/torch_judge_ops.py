"""What a candidate ran, against the operations its problem forbids.

A problem may forbid operations (problem.json "forbidden": the ops a target
chip lacks, or the operator the candidate is to write itself). The static
rules read names; this module judges behaviour: the candidate's runner
records one check call under PyTorch's profiler (every ATen op dispatched,
with the candidate's line that reached it where the profiler has a stack,
and every device kernel by name), and the judge looks for the forbidden
operations there. An op reached through an nn module under another name
(`self.bn(x)`), a string, or a library's C++ is found; a fallback branch
that never runs (a CPU path) is not, as it should not be.

The record is the runner's word (the runner hosts the candidate), so it is
validated for form and bounded here, and the static rules, which refuse
patching torch or its profiler, keep it honest. Pure Python: unit tests in
tests/python run it without a GPU.
"""
import re
from typing import Dict, List, Optional, Sequence, Set, Tuple

MAX_RECORDED = 4096  # distinct ops and kernels a record may hold
MAX_NAME = 300

# Entries of a forbidden list that name no ATen operation: the judge's
# baselines (torch.compile), the rules (torch.ops, autograd) see to them.
NOT_OPS = {"compile", "inductor", "ops", "autograd", "backward", "func", "functorch", "jit", "script", "trace", "dynamo"}


# nn classes whose names do not split at their capitals into the op's name.
CLASS_OPS = {"SiLU": "silu", "ReLU": "relu", "ReLU6": "relu6", "GELU": "gelu", "ELU": "elu", "SELU": "selu", "CELU": "celu",
             "PReLU": "prelu", "RReLU": "rrelu", "LeakyReLU": "leaky_relu", "GLU": "glu", "RMSNorm": "rms_norm"}


def snake(word: str) -> str:
    """LayerNorm -> layer_norm, SiLU -> silu, RMSNorm -> rms_norm."""
    if word in CLASS_OPS:
        return CLASS_OPS[word]
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", word)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


def op_words(forbidden: Sequence[object]) -> List[str]:
    """The operation words a forbidden list names: "torch.softmax",
    ".softmax(", "nn.Softmax" and "F.softmax" all say "softmax";
    "_convolution" says "convolution"; "torch.compile" names no op."""
    words: List[str] = []
    for entry in forbidden:
        if not isinstance(entry, str):
            continue
        last = [p for p in re.split(r"[.(\s]+", entry.strip()) if p]
        if not last:
            continue
        w = snake(last[-1]).strip("_")
        if not w or w in NOT_OPS or not re.fullmatch(r"[a-z0-9_]+", w):
            continue
        if w not in words:
            words.append(w)
    return words


def op_core(name: str) -> str:
    """aten::_softmax.default -> softmax; aten::conv1d -> conv1d."""
    n = name.split("::", 1)[1] if "::" in name else name
    return n.split(".", 1)[0].strip("_").lower()


def op_hits(name: str, word: str) -> bool:
    """Whether ATen op `name` is (a form of) the operation `word`: the op
    itself, an overload or variant (`softmax`, `_softmax`, `silu_`, `conv1d`,
    `conv_depthwise2d`), or the op a library implements it with
    (`native_layer_norm`, `cudnn_convolution`). `cumsum` is not `sum`."""
    core = op_core(name)
    if core == word:
        return True
    if core.startswith(word) and (core[len(word)] == "_" or core[len(word)].isdigit()):
        return True
    return core.endswith("_" + word)


# Device kernels a library launches (ATen's own, cuDNN's, cuBLAS's): where a
# forbidden operation's kernel runs with no ATen op dispatched (a CUDA graph
# replayed, a library called from an extension's C++).
LIBRARY_KERNEL = re.compile(r"at::native|at_cuda_detail|cudnn|cublas|cutlass|xmma", re.IGNORECASE)


def name_tokens(name: str) -> List[str]:
    """A kernel name's words: split at punctuation and at capitals
    (cunn_SoftMaxForward -> cunn, soft, max, forward)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", name))
    return [t for t in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if t]


def kernel_hits(name: str, word: str) -> bool:
    """A library's kernel whose name says the operation in whole words
    (at::native's cunn_SoftMaxForward for softmax, vectorized_layer_norm_kernel
    for layer_norm; a cumsum kernel is not sum); a candidate's own kernel,
    whatever it is called (softmax_kernel), never."""
    if not LIBRARY_KERNEL.search(name):
        return False
    target = word.replace("_", "")
    tokens = name_tokens(name)
    for i in range(len(tokens)):
        joined = ""
        for t in tokens[i:]:
            joined += t
            if joined == target:
                return True
            if len(joined) >= len(target):
                break
    return False


class BadRecord(ValueError):
    """A record that is not what a runner sends: the candidate's doing."""


def validated(reply: object) -> Tuple[List[Tuple[str, int, str]], List[Tuple[str, int]], str]:
    """(ops, kernels, note) from a runner's "recorded" reply, or BadRecord.
    ops: (name, count, call site or ""); kernels: (name, count)."""
    if not isinstance(reply, dict):
        raise BadRecord("a record that is not an object")
    ops_in, kernels_in, note = reply.get("ops"), reply.get("kernels"), reply.get("note", "")
    if not isinstance(ops_in, list) or not isinstance(kernels_in, list) or not isinstance(note, str):
        raise BadRecord("a record without its lists of ops and kernels")
    if len(ops_in) > MAX_RECORDED or len(kernels_in) > MAX_RECORDED:
        raise BadRecord(f"a record of more than {MAX_RECORDED} distinct ops or kernels")
    ops: List[Tuple[str, int, str]] = []
    for o in ops_in:
        if not (isinstance(o, list) and len(o) == 3 and isinstance(o[0], str) and isinstance(o[1], int)
                and not isinstance(o[1], bool) and o[1] > 0 and isinstance(o[2], str)):
            raise BadRecord("a malformed op in a record")
        ops.append((o[0][:MAX_NAME], o[1], o[2][:MAX_NAME]))
    kernels: List[Tuple[str, int]] = []
    for k in kernels_in:
        if not (isinstance(k, list) and len(k) == 2 and isinstance(k[0], str) and isinstance(k[1], int)
                and not isinstance(k[1], bool) and k[1] > 0):
            raise BadRecord("a malformed kernel in a record")
        kernels.append((k[0][:MAX_NAME], k[1]))
    return ops, kernels, note[:MAX_NAME]


def forbidden_ran(ops: Sequence[Tuple[str, int, str]], kernels: Sequence[Tuple[str, int]],
                  words: Sequence[str]) -> List[Dict[str, object]]:
    """Every forbidden operation the record shows: {word, what, name, calls,
    site}, ops first (they carry the call site), one per word."""
    hits: List[Dict[str, object]] = []
    seen: Set[str] = set()
    for word in words:
        for name, calls, site in ops:
            if op_hits(name, word):
                hits.append({"word": word, "what": "op", "name": name, "calls": calls, "site": site})
                seen.add(word)
                break
        if word in seen:
            continue
        for name, calls in kernels:
            if kernel_hits(name, word):
                hits.append({"word": word, "what": "kernel", "name": name, "calls": calls, "site": ""})
                break
    return hits


def violation_text(hits: Sequence[Dict[str, object]], where: str) -> str:
    """The refusal: what ran, from which line, and what to do instead."""
    parts = []
    for h in hits:
        if h["what"] == "op":
            ran = f"ATen op {h['name']} ({h['calls']} call{'s' if h['calls'] != 1 else ''})"
        else:
            ran = f"the library kernel {str(h['name'])[:160]} ({h['calls']} launch{'es' if h['calls'] != 1 else ''})"
        site = f", reached from {h['site']}" if h["site"] else ""
        parts.append(f"{ran}{site}: the problem forbids {h['word']}")
    return ("the candidate ran operations its problem forbids (recorded while it ran " + where + "): " + "; ".join(parts) +
            ". Compute them in the candidate's own kernel (Triton or CUDA); a library call under another name (an nn "
            "module attribute, a functional alias, a C++ extension calling ATen) runs the same forbidden operation. "
            "Branches that never run on the device (a CPU fallback) are fine")


def call_site(stack: Optional[Sequence[object]], module_file: str) -> str:
    """The candidate's innermost function in a profiler stack (frames like
    "/path/candidate.py(42): forward", innermost first), as "forward
    (candidate.py:42)"; "" if none. The profiler's line is where it saw the
    function, which may be its first line rather than the call's."""
    for frame in stack or ():
        text = str(frame)
        if module_file in text:
            m = re.search(r"\((\d+)\):\s*(.*)$", text)
            if m:
                return f"{m.group(2).strip()[:80]} ({module_file}:{m.group(1)})"
    return ""


def event_site(event: object, module_file: str) -> str:
    """An op event's call site: from its own stack where the profiler keeps
    one (PyTorch 1.x), else from the Python-function events that enclose it
    (PyTorch 2.x traces Python calls as events named like a stack frame and
    may leave the op's own stack empty on a device trace)."""
    site = call_site(getattr(event, "stack", None), module_file)
    parent, depth = getattr(event, "cpu_parent", None), 0
    while not site and parent is not None and depth < 64:
        site = call_site([getattr(parent, "name", "")], module_file)
        parent, depth = getattr(parent, "cpu_parent", None), depth + 1
    return site


def dispatch_sites(torch, run, module_file: str, words: Sequence[str]) -> Dict[str, str]:
    """{ATen op name: call site} of the ops that are forms of `words`, from
    one more call of `run()` under a Python dispatch mode that reads the
    Python stack as each op is dispatched (a C++ extension's ATen call is
    dispatched too). Only ever run once the record showed a forbidden op
    without a site (a profiler that keeps no stacks, as PyTorch 2.x's does
    on a device trace): it names the line of a refusal already decided.
    Anything failing here gives no site, never a verdict."""
    import traceback

    try:
        from torch.utils._python_dispatch import TorchDispatchMode
    except ImportError:
        return {}
    sites: Dict[str, str] = {}

    class Sites(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = "aten::" + str(getattr(func, "__name__", "")).split(".")[0]
            if name not in sites and any(op_hits(name, w) for w in words):
                frames = [f"{f.filename}({f.lineno}): {f.name}" for f in reversed(traceback.extract_stack())]
                site = call_site(frames, module_file)
                if site:
                    sites[name] = site
            return func(*args, **(kwargs or {}))

    try:
        with Sites():
            run()
        if torch.cuda.is_available():
            torch.cuda.synchronize()
    except Exception:
        pass
    return sites


def record_call(torch, run, module_file: str, words: Sequence[str] = ()) -> Dict[str, object]:
    """Runs `run()` (one call of the model) under PyTorch's profiler, in the
    candidate's runner (a forbidden op, a form of `words`, that the profiler
    left without a site gets one from dispatch_sites): {"ops": [[aten name, count, call site]], "kernels":
    [[device kernel name, count]], "note"}. The candidate's call failing is
    its own failure (raised); a profiler that cannot trace the device (no
    CUPTI) still records the ops, the host's side, which decides."""
    from torch.profiler import ProfilerActivity, profile

    device = torch.cuda.is_available()
    note = ""

    def started(activities):
        p = profile(activities=activities, with_stack=True)
        p.__enter__()
        return p

    if device:
        torch.cuda.synchronize()
    try:
        prof = started([ProfilerActivity.CPU, ProfilerActivity.CUDA] if device else [ProfilerActivity.CPU])
    except Exception as exc:
        if not device:
            raise
        prof = started([ProfilerActivity.CPU])
        note = f"device kernels not recorded ({type(exc).__name__})"
    try:
        out = run()
        if device:
            torch.cuda.synchronize()
    except BaseException:
        try:
            prof.__exit__(None, None, None)
        except Exception:
            pass
        raise  # the candidate's call failed: its own failure
    del out
    # The profiler failing after a good call is no fault of the candidate's:
    # nothing is recorded, and the note says why (the judge refuses nothing).
    try:
        prof.__exit__(None, None, None)
        events = list(prof.events())
    except Exception as exc:
        return {"ops": [], "kernels": [], "note": f"the profiler failed after the call ({type(exc).__name__}): nothing recorded"}
    ops: Dict[str, list] = {}
    kernels: Dict[str, int] = {}
    cuda = getattr(torch.autograd.DeviceType, "CUDA", None)
    for e in events:
        name = str(e.name)[:MAX_NAME]
        if cuda is not None and getattr(e, "device_type", None) == cuda:
            if len(kernels) < MAX_RECORDED or name in kernels:
                kernels[name] = kernels.get(name, 0) + 1
        elif name.startswith("aten::"):
            o = ops.get(name)
            if o is None:
                if len(ops) >= MAX_RECORDED:
                    note = "more distinct ops than a record holds"
                    continue
                o = ops[name] = [name, 0, ""]
            o[1] += 1
            if not o[2]:
                o[2] = event_site(e, module_file)
    unsited = [o for o in ops.values() if not o[2] and any(op_hits(o[0], w) for w in words)]
    if unsited:
        found = dispatch_sites(torch, run, module_file, words)
        for o in unsited:
            o[2] = next((site for name, site in found.items()
                         if any(op_hits(o[0], w) and op_hits(name, w) for w in words)), "")
    return {"ops": list(ops.values()), "kernels": [[k, n] for k, n in kernels.items()], "note": note}
