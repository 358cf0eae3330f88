#!/usr/bin/env python3
# Kernelwright's importer for KernelBench-format files (`problem import`):
#
#   python3 torch_import.py FILE.py
#
# Prints one JSON object: the module-level sizes it found, the ones it varies
# (names that size a tensor in get_inputs), check shapes the reference runs
# on (each tried here, kept only when the reference runs), the time shape (the
# file's own values), bytes (inputs, parameters and outputs at the time shape)
# and flops where PyTorch counts them, the torch ops the reference calls (to
# forbid), tolerances by output dtype, and notes on what it could not infer.
# {"ok": false, "error": ...} with what to fix when the file is not importable.
# The file is the user's own code: it runs here, in this process, on the CPU
# unless CUDA is visible.
import ast
import importlib.util
import json
import sys
import time
import traceback

CREATORS = {"randn", "rand", "randint", "zeros", "ones", "empty", "full", "randperm", "arange", "normal", "bernoulli",
            "rand_like", "randn_like", "tensor"}
# Plumbing, creation and dtype changes: not the operator a candidate must write.
PLUMBING = {"size", "dim", "numel", "shape", "view", "reshape", "contiguous", "to", "float", "half", "bfloat16", "double",
            "int", "long", "bool", "type", "cuda", "cpu", "detach", "clone", "unsqueeze", "squeeze", "permute", "transpose",
            "expand", "flatten", "unflatten", "view_as", "expand_as", "item", "tolist", "empty", "empty_like", "zeros",
            "zeros_like", "ones", "ones_like", "full", "full_like", "new_empty", "new_zeros", "new_ones", "new_full", "stride",
            "is_contiguous", "data_ptr", "element_size", "requires_grad_", "dtype", "device", "get_device", "chunk", "split",
            "narrow", "select", "t", "T", "mT", "unbind", "__get__", "__getitem__", "__setitem__", "__len__", "__iter__",
            "__format__", "__repr__", "__bool__", "__index__", "__int__", "__float__", "dim_order", "storage_offset",
            # arithmetic and comparisons: every kernel does them; forbidding one would forbid its prefix (add -> addmm)
            "add", "sub", "rsub", "mul", "div", "true_divide", "floor_divide", "neg", "gt", "lt", "ge", "le", "eq", "ne",
            "logical_and", "logical_or", "logical_not", "bitwise_and", "bitwise_or", "bitwise_not", "bitwise_xor"}
# Helpers a kernel of the operator needs around its own work: index
# arithmetic, gathering and joining pieces, clamping, prefix sums (jagged
# offsets). The operator is what the reference computes, not these; a list
# that named them would refuse honest kernels (a jagged op's kernel computes
# its offsets with cumsum and arange).
HELPERS = {"arange", "linspace", "tensor", "as_tensor", "new_tensor", "empty_strided", "eye", "repeat_interleave", "repeat",
           "tile", "cumsum", "clamp", "clamp_", "clamp_min", "clamp_max", "clip", "cat", "concat", "concatenate", "stack",
           "index_select", "gather", "take", "where", "masked_fill", "masked_fill_", "fill_", "zero_", "copy_", "roll",
           "flip", "nonzero", "searchsorted", "bucketize", "maximum", "minimum", "abs", "sign", "index", "index_put_"}
# Random draws in a forward are part of what the operator means (KernelBench's
# LSTM draws its initial state): a candidate must draw the same numbers, so
# none of these is forbidden. The judge starts every compared call of the
# reference and the candidate from the same generator state.
RANDOM = {"rand", "randn", "randint", "rand_like", "randn_like", "randint_like", "randperm", "normal", "bernoulli",
          "multinomial", "poisson", "uniform_", "normal_", "bernoulli_", "exponential_", "random_", "manual_seed"}
TOLERANCE = {"float32": ("f32", 1e-4, 1e-5), "float16": ("f16", 1e-2, 1e-2), "bfloat16": ("bf16", 1e-2, 1e-2),
             "float64": ("f64", 1e-10, 1e-12)}
MAX_CHECK_ELEMENTS = 1 << 24  # a check shape's inputs, so that a CPU host tries them quickly


class Stage(Exception):
    """Which part of the file failed: get_inputs, the constructor or forward."""

    def __init__(self, where, error):
        super().__init__(f"{where} raised {type(error).__name__}: {str(error)[:300]}")
        self.where, self.error = where, error


def stage(where, fn):
    try:
        return fn()
    except Exception as e:
        raise Stage(where, e)


def fail(message):
    print(json.dumps({"ok": False, "error": message}))
    sys.exit(0)


def evaluate(node, env):
    """An integer expression over earlier sizes, or None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        return env.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = evaluate(node.operand, env)
        return None if v is None else (-v if isinstance(node.op, ast.USub) else v)
    if isinstance(node, ast.BinOp):
        a, b = evaluate(node.left, env), evaluate(node.right, env)
        if a is None or b is None:
            return None
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
               ast.FloorDiv: lambda: a // b if b else None, ast.Mod: lambda: a % b if b else None,
               ast.Pow: lambda: a ** b if 0 <= b < 64 else None, ast.LShift: lambda: a << b if 0 <= b < 64 else None,
               ast.RShift: lambda: a >> b if 0 <= b < 64 else None}
        f = ops.get(type(node.op))
        v = f() if f else None
        return v if isinstance(v, int) else None
    return None


def module_sizes(tree):
    """Module-level integer names in order: {name: value}, {name: expression source}.
    The last assignment wins, as in Python: `height, width = 32, 32` after
    `height = width = 2048` (KernelBench's level 2 has such a file) sets 32."""
    values, exprs = {}, {}

    def bind(name, value):
        v = evaluate(value, values) if value is not None else None
        # A negative constant (hardtanh_min = -1) is a value, never a size.
        if v is not None and v >= 0:
            values[name] = v
            exprs[name] = value
        else:
            values.pop(name, None)
            exprs.pop(name, None)

    for node in tree.body:
        targets, value = [], None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            targets, value = [node.target], None  # n *= 2: no longer a plain size
        pairs = []
        for t in targets:
            if isinstance(t, ast.Name):
                pairs.append((t.id, value))
            elif isinstance(t, (ast.Tuple, ast.List)):
                # a, b = 32, 32 pairs up; any other unpacking leaves its names unknown
                items = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(t.elts) else None
                for k, e in enumerate(t.elts):
                    if isinstance(e, ast.Name):
                        pairs.append((e.id, items[k] if items is not None else None))
        for name, v in pairs:
            bind(name, v)
    return values, exprs


def names_in(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def creator_size_names(call):
    """The names in the size arguments of a tensor creator's call
    (torch.randn(batch, dim), randint(low, high, size)), or None when the
    call creates no tensor."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    if name not in CREATORS:
        return None
    args = call.args
    if name == "randint":  # randint(low, high, size) or randint(high, size)
        args = args[2:] if len(args) >= 3 else args[1:]
    out = set()
    for a in args:
        out |= names_in(a)
    for kw in call.keywords:
        if kw.arg == "size":
            out |= names_in(kw.value)
    return out


def shaping_names(tree):
    """Names that size a tensor made in get_inputs (torch.randn(batch, dim), ...),
    also through the file's own helper functions it calls (make_jagged(batch,
    dim) whose randn(b, dim) is sized by its parameters), and the module-level
    shape tuples it uses (input_shape = (batch_size, 3, 224, 224))."""
    tuples = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, (ast.Tuple, ast.List)):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    tuples[t.id] = node.value
    funcs = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef)}
    memo = {}

    def sizing(name, stack):
        # The names (its parameters, or module-level names it reads) that size
        # a tensor made in function `name`, following calls of the file's
        # other functions with the arguments they are given.
        if name in memo:
            return memo[name]
        if name in stack:
            return set()
        out = set()
        for call in ast.walk(funcs[name]):
            if not isinstance(call, ast.Call):
                continue
            made = creator_size_names(call)
            if made is not None:
                out |= made
                continue
            f = call.func
            if isinstance(f, ast.Name) and f.id in funcs:
                inner = sizing(f.id, stack | {name})
                params = [a.arg for a in funcs[f.id].args.posonlyargs + funcs[f.id].args.args]
                for i, a in enumerate(call.args):
                    if i < len(params) and params[i] in inner:
                        out |= names_in(a)
                for kw in call.keywords:
                    if kw.arg in inner:
                        out |= names_in(kw.value)
                out |= inner - set(params) - {k.arg for k in funcs[f.id].args.kwonlyargs}
        memo[name] = out
        return out

    out = sizing("get_inputs", frozenset()) if "get_inputs" in funcs else set()
    # Sizes inside a module-level tuple are read through it: they vary when the
    # tuple is computed again from them (torch_sizes.apply_sizes).
    through = {name: sorted(names_in(tuples[name])) for name in out if name in tuples}
    return out, through


SPREAD_MARGIN = 4  # the tolerance's atol: this many times the reference's own worst deviation
SPREAD_SECONDS = 60  # the time shape is measured when its three runs (one in float64) should take about this long at most


def pick_spread_shape(check, time_sizes, time_seconds):
    """Where the reference's own spread is measured: the time shape (the timed
    rounds' outputs are checked there, and a longer sum rounds more) when its
    first run here says three more fit in SPREAD_SECONDS, else the largest
    check shape."""
    if time_seconds * 5 <= SPREAD_SECONDS:
        return {"name": "file", "sizes": time_sizes}
    sized = [c for c in check if c.get("sizes")]
    return max(sized, key=lambda c: sum(c["sizes"].values())) if sized else None


def deviation(torch, a, e, rtol):
    """The atol `a` needs against `e`: max(|a - e| - rtol * |e|), over finite elements."""
    a64, e64 = a.detach().double().reshape(-1), e.detach().double().reshape(-1)
    finite = torch.isfinite(a64) & torch.isfinite(e64)
    if not bool(finite.any()):
        return 0.0
    need = (a64[finite] - e64[finite]).abs() - rtol * e64[finite].abs()
    return max(0.0, float(need.max()))


def spread_tolerance(torch, run_spread, sizes, shape_name, base, notes):
    """Tolerances by output dtype: the dtype's default, widened to cover the
    reference's own deviation (its answer against float64, and two runs on the
    device) with a margin. A sum whose order is not fixed (index_add_,
    atomics) then passes against itself; the margin stays far below what a
    skipped or zeroed region would need (capped at 1e-2 of the answers' size)."""
    tolerance = {key: {"rtol": rtol, "atol": atol} for key, rtol, atol in base.values()}
    if sizes is None or not base:
        return tolerance, "the dtype's defaults"
    try:
        first, second, exact = run_spread(sizes)
    except Exception as e:
        notes.append(f"the reference's own spread was not measured ({type(e).__name__}: {str(e)[:120]}): the dtype's default tolerances")
        return tolerance, "the dtype's defaults"
    said = []
    for i, a in enumerate(first):
        if not isinstance(a, torch.Tensor) or not a.is_floating_point():
            continue
        d = str(a.dtype).replace("torch.", "")
        if d not in base:
            continue
        key, rtol, atol = base[d]
        need = deviation(torch, a, second[i], rtol) if i < len(second) and isinstance(second[i], torch.Tensor) else 0.0
        if exact is not None and i < len(exact) and isinstance(exact[i], torch.Tensor):
            need = max(need, deviation(torch, a, exact[i], rtol))
        scale = float(a.detach().double().abs().max()) if a.numel() else 0.0
        wanted = min(SPREAD_MARGIN * need, 1e-2 * scale) if scale > 0 else 0.0
        if wanted > tolerance[key]["atol"]:
            tolerance[key]["atol"] = float(f"{wanted:.2g}")
            said.append(f"{key} atol {tolerance[key]['atol']:.2g} ({SPREAD_MARGIN}x the reference's own deviation "
                        f"at shape {shape_name}; rtol {rtol:g})")
    return tolerance, ("; ".join(said) if said else f"the dtype's defaults cover the reference's own deviation at shape {shape_name}")


class Recorder:
    """The torch functions a forward calls (a TorchFunctionMode)."""

    def __init__(self, torch):
        from torch.overrides import TorchFunctionMode

        seen = self.seen = []

        class Mode(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                name = getattr(func, "__name__", "")
                if name and name not in seen:
                    seen.append(name)
                return func(*args, **(kwargs or {}))

        self.mode = Mode()


def main():
    if len(sys.argv) != 2:
        fail("usage: torch_import.py FILE.py")
    path = sys.argv[1]
    try:
        source = open(path, encoding="utf-8").read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    try:
        tree = ast.parse(source, path)
    except SyntaxError as e:
        fail(f"{path}:{e.lineno}: not valid Python ({e.msg}); fix the syntax error")
    defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    missing = [x for x in ("Model", "get_inputs", "get_init_inputs") if x not in defined]
    if missing:
        fail(f"{path}: defines no {', '.join(missing)} at the top level; a KernelBench file has class Model, get_inputs() and get_init_inputs()")
    try:
        import torch
    except ImportError:
        fail(f"PyTorch is not installed for {sys.executable}: install it (Debian: python3-torch), point KW_PYTHON at a Python that has it, or run the import on the GPU host")

    values, exprs = module_sizes(tree)
    shaping, through = shaping_names(tree)
    # A size inside a module-level tuple get_inputs reads (input_shape =
    # (batch_size, 3, 224, 224)) varies too: the tuple is computed again from
    # the sizes (torch_sizes.apply_sizes), here and in the judge.
    for inside in through.values():
        shaping |= set(inside)
    shaping &= set(values)
    # A derived size (N = 2 * dim) follows its bases; the bases are what varies.
    derived = {n for n in values if names_in(exprs[n]) & set(values)}
    varied = sorted({b for n in shaping for b in ([n] if n not in derived else names_in(exprs[n]) & set(values))} - derived)
    notes = []
    from torch_sizes import apply_sizes, derived_assignments

    derivations = derived_assignments(source)

    device = "cuda" if torch.cuda.is_available() else "cpu"
    spec = importlib.util.spec_from_file_location("reference", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ModuleNotFoundError as e:
        # Not the file's fault: a package this Python lacks (einops for KernelBench's Mamba2 problems).
        fail(f"{path}: importing the file raised ModuleNotFoundError: {e}: install the package '{e.name}' for {sys.executable} "
             f"(or point KW_PYTHON at a Python that has it); the GPU host's Python needs it too, for the judge")
    except Exception as e:
        fail(f"{path}: importing the file raised {type(e).__name__}: {e}")

    def sized(overrides):
        s = dict(values)
        s.update(overrides)
        for n in values:  # derived sizes recomputed, in the file's order
            if n in derived:
                v = evaluate(exprs[n], s)
                if v is not None:
                    s[n] = v
        return s

    def run(sizes, record=False, full=False):
        apply_sizes(module, sizes, derivations)
        if not full:
            # A check shape too large is refused before its inputs exist: built
            # as meta tensors first (PyTorch 2.0 and later), where the shape
            # costs nothing (one KernelBench file's odd17 asked for 28 GB).
            try:
                with torch.device("meta"):
                    shaped = module.get_inputs()
                elements = sum(x.numel() for x in shaped if isinstance(x, torch.Tensor))
            except Exception:
                elements = 0  # an older PyTorch, or inputs that need values: counted once built
            if elements > MAX_CHECK_ELEMENTS:
                raise MemoryError(f"{elements} input elements, more than a check shape should hold")
        torch.manual_seed(1)
        with torch.no_grad():
            inputs = stage("get_inputs()", module.get_inputs)
            init = stage("get_init_inputs()", module.get_init_inputs)
            if not isinstance(inputs, (list, tuple)) or not isinstance(init, (list, tuple)):
                raise Stage("get_inputs() and get_init_inputs() must return lists", TypeError("not a list"))
            inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in inputs]
            elements = sum(x.numel() for x in inputs if isinstance(x, torch.Tensor))
            if not full and elements > MAX_CHECK_ELEMENTS:
                raise MemoryError(f"{elements} input elements, more than a check shape should hold")
            model = stage("Model(*get_init_inputs())", lambda: module.Model(*init).to(device).eval())
            rec = Recorder(torch) if record else None
            if rec:
                with rec.mode:
                    out = stage("the reference (Model.forward)", lambda: model(*inputs))
            else:
                out = stage("the reference (Model.forward)", lambda: model(*inputs))
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        return inputs, model, outs, (rec.seen if rec else [])

    def run_spread(sizes):
        """The reference's answer at `sizes` twice on the device and once in
        float64 (the model and its float inputs converted): what its own
        rounding and run-to-run order spread are."""
        apply_sizes(module, sizes, derivations)
        torch.manual_seed(1)
        with torch.no_grad():
            inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
            model = module.Model(*module.get_init_inputs()).to(device).eval()
            torch.manual_seed(2)
            first = model(*inputs)
            torch.manual_seed(2)
            second = model(*inputs)
            exact = None
            try:
                wide = [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
                torch.manual_seed(2)
                exact = model.double()(*wide)
            except Exception as e:
                notes.append(f"the reference does not run in float64 ({type(e).__name__}): tolerances from two runs only")
        as_list = lambda o: list(o) if isinstance(o, (list, tuple)) else [o]
        return as_list(first), as_list(second), (as_list(exact) if exact is not None else None)

    # The time shape: the file's own values. It must run for the file to be a problem.
    time_sizes = sized({})
    started = time.perf_counter()
    try:
        inputs, model, outs, _ = run(time_sizes, full=True)
    except Stage as e:
        fail(f"{path}: at the file's own sizes, {e}")
    except Exception as e:
        fail(f"{path}: at the file's own sizes, {type(e).__name__}: {str(e)[:300]}")
    time_seconds = time.perf_counter() - started
    if not outs or not all(isinstance(o, torch.Tensor) for o in outs):
        fail(f"{path}: Model.forward returns {type(outs[0]).__name__ if outs else 'nothing'}; it must return a tensor or a tuple of tensors")
    nbytes = lambda t: t.numel() * t.element_size()
    time_bytes = sum(nbytes(x) for x in inputs if isinstance(x, torch.Tensor)) + sum(nbytes(o) for o in outs) \
        + sum(nbytes(p) for p in list(model.parameters()) + list(model.buffers()))
    flops = None
    try:
        from torch.utils.flop_counter import FlopCounterMode

        counter = FlopCounterMode(display=False)
        with counter, torch.no_grad():
            model(*inputs)
        flops = int(counter.get_total_flops())
    except ImportError:
        notes.append(f"flops not counted: PyTorch {torch.__version__} has no flop counter (2.1 and later do); write \"flops\" by hand")
    except Exception as e:
        notes.append(f"flops not counted: the flop counter failed ({type(e).__name__})")
    dtypes = sorted({str(o.dtype).replace("torch.", "") for o in outs})
    del inputs, model, outs

    # Check shapes: edge values for the varied sizes, kept when the reference runs.
    tries = []
    if varied:
        tries.append(("ones", {n: 1 for n in varied}))
        tries.append(("odd17", {n: 17 for n in varied}))
        tries.append(("not_x32", {n: 33 for n in varied}))
        for n in varied:
            tries.append((f"{n}_1", {m: (1 if m == n else min(values[m], 17)) for m in varied}))
        tries.append(("eighth", {n: max(1, values[n] // 8) | 1 for n in varied}))
    else:
        notes.append("no module-level size sizes a tensor in get_inputs: the check shape is the time shape")
    check, rejected, ops = [], [], []
    ran = {}  # sizes tried -> whether the reference ran on them

    def attempt(name, overrides):
        """Keeps the shape when the reference runs on it; whether it ran
        (sizes tried before answer as they did then)."""
        nonlocal ops
        s = sized(overrides)
        key = tuple(sorted(s.items()))
        if s == time_sizes:
            return False
        if key in ran:
            return ran[key]
        ran[key] = False
        try:
            _, _, outs, called = run(s, record=not ops)
            if not ops:
                ops = called
            check.append({"name": name, "sizes": {n: s[n] for n in sorted(values)}})
            ran[key] = True
        except Stage as e:
            rejected.append({"name": name, "why": str(e)[:200]})
        except Exception as e:
            rejected.append({"name": name, "why": f"{type(e).__name__}: {str(e)[:160]}"})
        return ran[key]

    for name, overrides in tries:
        attempt(name, overrides)
    if varied and len(check) < 2:
        # Sizes bound to each other (channels a multiple of the groups, a
        # width divisible by the heads) refuse edge values all changed at
        # once. The file's sizes divided evenly keep such bonds; from the
        # first that runs, each size alone takes the edge values.
        base = None
        for k in (8, 4, 2):
            overrides = {n: max(1, values[n] // k) for n in varied}
            if attempt(f"div{k}", overrides):
                base = overrides
                break
        if base is None and check:
            base = {n: check[0]["sizes"][n] for n in varied}
        if base is None:
            # Nothing smaller ran at all (a model built for one image size and
            # three channels): the file's own sizes, one size at a time.
            base = {n: values[n] for n in varied}
        if base is not None:
            for n in varied:
                for v in (1, 17, 33):
                    if v < values[n]:
                        attempt(f"{n}_{v}_alone", dict(base, **{n: v}))
    if not check:
        check.append({"name": "file", "sizes": {n: time_sizes[n] for n in sorted(values)}})
        notes.append("no smaller shape ran: the file's own sizes are the only check shape")
    if not ops:
        try:
            ops = run(check[0]["sizes"], record=True, full=True)[3]
        except Exception:
            ops = []
    forbidden = [f"torch.{n}" for n in ops if n not in PLUMBING and n not in HELPERS and n not in RANDOM and not n.startswith("_")]
    drawn = [f"torch.{n}" for n in ops if n in RANDOM]
    if drawn:
        notes.append("the reference draws random numbers in its forward (" + ", ".join(drawn) + "): a candidate must draw "
                     "them the same way (each compared call of every runner starts from one generator state)")
    # cuDNN runs float32 convolutions in TF32 by default (torch.backends.cudnn.allow_tf32),
    # and two processes may pick different algorithms: on an H100 a transposed
    # convolution's reference differed from itself by 1e-3 relative.
    tf32 = device == "cuda" and any("conv" in n for n in ops)
    base = {}
    for d in dtypes:
        if d in TOLERANCE:
            key, rtol, atol = TOLERANCE[d]
            if tf32 and d == "float32":
                rtol, atol = 1e-3, 1e-3
                notes.append("float32 tolerance 1e-3: the reference's convolutions run in TF32 on the GPU")
            base[d] = (key, rtol, atol)
    spread_shape = pick_spread_shape(check, time_sizes, time_seconds)
    tolerance, basis = spread_tolerance(torch, run_spread, sized(spread_shape["sizes"]) if spread_shape else None,
                                        spread_shape["name"] if spread_shape else "", base, notes)
    fixed = sorted(set(values) - set(varied) - derived)
    if fixed:
        notes.append("held at the file's values (they configure the operator, not a tensor's size): " + ", ".join(fixed))
    print(json.dumps({"ok": True, "device": device, "torch": torch.__version__, "sizes": sorted(values), "values": time_sizes,
                      "varied": varied, "derived": sorted(derived), "check": check, "rejected": rejected,
                      "time": {"name": "file", "sizes": {n: time_sizes[n] for n in sorted(values)}},
                      "bytes": time_bytes, "flops": flops, "forbidden": forbidden, "tolerance": tolerance,
                      "tolerance_basis": basis, "random_ops": drawn,
                      "output_dtypes": dtypes, "notes": notes}))


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except BaseException as e:
        fail(f"the importer itself failed: {type(e).__name__}: {e}\n{traceback.format_exc()[-1500:]}")
