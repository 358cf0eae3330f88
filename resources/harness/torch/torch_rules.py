#!/usr/bin/env python3
# Kernelwright's static rules for the Python candidates of torch problems: a
# pass over the candidate's syntax tree, not over its text, so aliases,
# built strings and comments neither hide a construct nor invent one.
#
#   python3 -I torch_rules.py FORBIDDEN_JSON [unconfined] < candidate.py
#
# prints a JSON list of {"rule", "line", "excerpt", "why"} (empty: nothing
# found) and exits 0; a source that does not parse is one violation
# ("syntax"). The judge runs it again where the candidate runs, before the
# candidate's runner starts. Defence in depth only: the candidate's own
# process is the barrier (it never shares an interpreter with the judge).
# Files a kernel writes are confined by the judge where the host can
# (torch_landlock: the runner writes only in its own folder); "unconfined"
# (the judge on a host without Landlock) refuses open() instead.
import ast
import json
import re
import sys

MAX_SOURCE_BYTES = 1 << 20
MAX_REPORTED = 50

# Modules a kernel may import (and their submodules); everything else is a
# violation. torch's private and compiler submodules are refused below.
ALLOWED_IMPORTS = {
    "torch", "triton", "math", "functools", "itertools", "typing", "collections", "dataclasses", "operator",
    "enum", "numbers", "abc", "__future__", "kw_params", "kw_launch", "numpy", "cmath", "fractions", "decimal", "string", "re",
    # Build plumbing of kernels as models write them: os for the environment
    # (TORCH_CUDA_ARCH_LIST) and a build folder's path (its other functions
    # are refused below), time, warnings.
    "os", "time", "warnings",
    # ... and what models write around them: sys for its streams and version,
    # a temporary build folder, a logger. Their attributes are checked below.
    "sys", "tempfile", "logging",
    # A build folder's path as models write it (pathlib.Path(__file__).parent).
    "pathlib",
    # Plain helpers models use around a kernel: a CUDA source's indentation
    # (textwrap.dedent), an extension named by its source's hash, a null
    # context, copies of their own objects, seeded draws for their own weights.
    "contextlib", "textwrap", "hashlib", "copy", "random", "bisect", "heapq",
}
# Roots of the modules a candidate may import: a local name bound to one of
# them (t = torch.cuda, o = os) is followed like an import alias.
MODULE_ROOTS = {"os", "time", "warnings", "math", "functools", "itertools", "operator", "numpy", "triton", "torch", "sys",
                "tempfile", "logging", "pathlib"}
# What a kernel may use of os: its environment and path arithmetic. The rest
# reaches processes, signals, descriptors and files.
OS_ALLOWED = {"environ", "path", "getenv", "getcwd", "cpu_count", "sep", "pathsep", "linesep", "name", "fspath", "makedirs",
              "getpid", "devnull", "curdir", "pardir", "extsep"}
# What a kernel may use of sys, tempfile and logging: streams, versions and
# limits; a folder of its own under the sandbox's private /tmp; a logger that
# writes to a stream. The rest reaches frames, modules, hooks or files.
SYS_ALLOWED = {"stderr", "stdout", "version", "version_info", "hexversion", "platform", "maxsize", "float_info", "byteorder",
               "path", "executable", "getsizeof", "getrecursionlimit", "setrecursionlimit", "implementation", "flags"}
TEMPFILE_ALLOWED = {"mkdtemp", "gettempdir", "TemporaryDirectory", "NamedTemporaryFile", "mkstemp", "gettempprefix"}
LOGGING_ALLOWED = {"getLogger", "basicConfig", "debug", "info", "warning", "warn", "error", "exception", "critical", "log",
                   "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "NOTSET", "Logger", "LoggerAdapter",
                   "NullHandler", "StreamHandler", "Formatter", "disable", "captureWarnings"}
MODULE_ATTRIBUTES = {"sys": (SYS_ALLOWED, "its streams and version"), "tempfile": (TEMPFILE_ALLOWED, "a temporary build folder"),
                     "logging": (LOGGING_ALLOWED, "a logger that writes to a stream")}
# Private helpers of torch.nn.init that initialise weights as nn.Conv and
# nn.Linear do (a candidate keeps the reference's initialisation).
ALLOWED_TORCH_PRIVATE = {("nn", "init", "_calculate_fan_in_and_fan_out"), ("nn", "init", "_calculate_correct_fan"),
                         ("nn", "init", "_no_grad_uniform_"), ("nn", "init", "_no_grad_normal_")}
# Settings a kernel may change in its own process: they change how its own
# library calls run (cuDNN's autotuner, TF32), which the checks and the
# timing see like any other choice.
ALLOWED_STORES = {("torch", "backends", "cudnn", "benchmark"), ("torch", "backends", "cudnn", "deterministic"),
                  ("torch", "backends", "cudnn", "allow_tf32"), ("torch", "backends", "cuda", "matmul", "allow_tf32"),
                  ("os", "environ")}
# Submodules of torch that reach the harness's machinery or do the work for
# the candidate (the compiler is a baseline, not a kernel).
REFUSED_TORCH = {"_dynamo", "_inductor", "compiler", "compile", "_C", "_ops", "ops", "multiprocessing", "distributed",
                 "_utils_internal", "_guards", "export", "_export", "_higher_order_ops", "_subclasses", "_prims", "_refs",
                 "_decomp", "_functorch", "fx", "jit", "package", "hub", "_library", "library", "_logging", "profiler",
                 "autograd.profiler", "testing"}
CALLS = {
    "eval": ("dynamic-code", "code built at run time escapes every rule"),
    "exec": ("dynamic-code", "code built at run time escapes every rule"),
    "compile": ("dynamic-code", "code built at run time escapes every rule"),
    "__import__": ("imports", "modules are imported by import statements, where the rules see them"),
    "globals": ("introspection", "reaching into frames and namespaces is not a kernel's business"),
    "locals": ("introspection", "reaching into frames and namespaces is not a kernel's business"),
    "vars": ("introspection", "reaching into frames and namespaces is not a kernel's business"),
    "breakpoint": ("introspection", "a kernel does not stop for a debugger"),
    "input": ("files", "a kernel reads its inputs from its arguments, not from a terminal"),
    "exit": ("exit", "leaving the process hides failures"),
    "quit": ("exit", "leaving the process hides failures"),
    "memoryview": ("introspection", "raw memory is not a kernel's business"),
}
WHY = {
    "imports": "a kernel needs torch, triton and plain Python; other modules reach processes, files, the network or the judge",
    "dunder": "double-underscore attributes reach an object's machinery (its class, module, globals)",
    "dynamic-attribute": "an attribute named by a computed string escapes every rule; write the name out",
    "monkey-patching": "changing an imported module's attributes changes what other code calls",
    "compiler": "torch.compile and Inductor are a baseline; a candidate writes the kernel itself",
    "reference-op": "the problem forbids this operation: a candidate computes the operator itself",
    "device-memory": "the judge gives every kernel the same room on the device; a kernel allocates tensors and leaves the allocator alone",
}
# The device memory allocator's controls: the judge gives every kernel timed
# together the same room (a cuDNN convolution's speed follows the workspace it
# can get); a kernel that widened its own could crowd the others out.
DEVICE_MEMORY_CONTROLS = {"set_per_process_memory_fraction", "change_current_allocator", "CUDAPluggableAllocator",
                          "caching_allocator_alloc", "caching_allocator_delete", "MemPool", "use_mem_pool"}
# Names and versions, read for messages and version checks (torch.__version__,
# type(x).__name__): they reach no object's machinery, unlike __class__ or
# __globals__.
ALLOWED_DUNDER_ATTRIBUTES = {"__init__", "__name__", "__qualname__", "__doc__", "__version__"}
ATTRIBUTE_BUILTINS = {"getattr", "setattr", "delattr"}
STDLIB_REACH = {"sys", "os", "gc", "inspect", "ctypes", "subprocess", "importlib", "builtins", "threading", "multiprocessing",
                "io", "pathlib", "shutil", "socket", "signal", "pickle", "marshal", "tempfile", "atexit", "traceback", "weakref",
                "statistics", "time", "json", "glob", "platform", "sysconfig", "site", "types", "warnings", "logging"}
ALLOWED_DUNDER_NAMES = {"__name__", "__file__", "__all__", "__doc__"}  # a module's own path: where a kernel keeps its build
IDENTIFIER_LIKE = re.compile(r"^[A-Za-z0-9_.]+$")


def module_allowed(name):
    root, _, rest = name.partition(".")
    if root not in ALLOWED_IMPORTS:
        return False
    if root == "torch" and rest:
        parts = rest.split(".")
        for i in range(len(parts)):
            if ".".join(parts[: i + 1]) in REFUSED_TORCH or parts[i] in REFUSED_TORCH:
                return False
    return True


# open() where the judge cannot confine what a kernel writes.
UNCONFINED_OPEN = ("files", "this host cannot keep a kernel's file writes in its own folder (no Landlock in its Linux kernel), "
                            "so a kernel may not open files here; keep the kernel's source in a string (load_inline)")


class Checker(ast.NodeVisitor):
    def __init__(self, source, forbidden, files_confined=True):
        self.files_confined = files_confined
        self.name_rebound = False  # set by check(): a module that binds __name__ has no dead "main" block
        self.lines = source.splitlines()
        self.found = []
        self.aliases = {}  # local name -> dotted module or object path ("F" -> "torch.nn.functional")
        self.triton_depth = 0
        self.forbidden = [f for f in (self.normalize(x) for x in forbidden) if f]
        # What names refer to, so that a rule reads what a call reaches and
        # not how a name is spelt: self.<attr> -> the torch class it was
        # built from (self.conv = nn.Conv2d(...)); names bound to an
        # extension the candidate built (load_inline, load).
        self.module_attrs = {}
        self.extensions = set()
        self.extension_makers = set()  # the candidate's functions that return an extension it built (def ext(): ... return _ext)
        # Inside a branch that runs only where the inputs are not on the GPU
        # (a CPU fallback); the judge's inputs of a torch problem are on it.
        self.off_device_depth = 0
        self.inputs = [set()]  # per function: arguments never rebound in it

    @staticmethod
    def normalize(entry):
        # Problems name forbidden operations loosely: "torch.softmax", ".softmax(",
        # "F.conv", "nn.LayerNorm", "layer_norm". Kept: the dotted path without
        # its call parentheses; its last part matches as a prefix.
        e = entry.strip().rstrip("(").strip(".")
        if not e:
            return None
        parts = [p for p in e.split(".") if p]
        if parts and parts[0] == "F":
            parts = ["torch", "nn", "functional"] + parts[1:]
        elif parts and parts[0] in ("nn", "functional"):
            parts = ["torch"] + (["nn"] if parts[0] == "functional" else []) + parts
        return {"entry": entry, "parts": parts}

    def flag(self, node, rule, why=None):
        line = getattr(node, "lineno", 1)
        excerpt = self.lines[line - 1].strip()[:160] if 0 < line <= len(self.lines) else ""
        self.found.append({"rule": rule, "line": line, "excerpt": excerpt, "why": why or WHY.get(rule, "")})

    # ---- names ----------------------------------------------------------
    def dotted(self, node):
        """The dotted path of a Name/Attribute chain with import aliases
        resolved ("F.softmax" -> ["torch","nn","functional","softmax"]);
        an unknown root (a tensor, a local) reads as "?"."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            root = self.aliases.get(node.id)
            parts.append(root if root else "?" if node.id not in ("torch", "triton") else node.id)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) >= 2 \
                and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
            parts.append(node.args[1].value)
            inner = self.dotted(node.args[0])
            return inner + list(reversed(parts))[:-1] if inner else ["?"]
        else:
            parts.append("?")
        out = []
        for p in reversed(parts):
            out.extend(p.split("."))
        return out

    def check_path(self, node, path):
        if path[0] in ("torch", "triton"):
            # Modules reach their own imports (torch.sys, triton.os): the way
            # around the import rule.
            hidden = [p for p in path[1:] if p in STDLIB_REACH]
            if hidden:
                self.flag(node, "imports", path[0] + "." + hidden[0] + " is the " + hidden[0] + " module, which a kernel does not import")
                return
            if path[0] == "torch" and any(p.startswith("_") and not p.startswith("__") for p in path[1:]) \
                    and tuple(path[1:4]) not in ALLOWED_TORCH_PRIVATE:
                self.flag(node, "imports", "torch's private names (a leading underscore) reach its internals; use the public API")
                return
        if path[0] == "os" and len(path) > 1 and path[1] not in OS_ALLOWED:
            self.flag(node, "imports", "os." + path[1] + " reaches processes, signals or files; a kernel uses os only for "
                      "its environment (os.environ) and a build folder's path (os.path, os.makedirs)")
            return
        if path[0] in MODULE_ATTRIBUTES and len(path) > 1 and path[1] not in MODULE_ATTRIBUTES[path[0]][0]:
            self.flag(node, "imports", path[0] + "." + path[1] + " reaches frames, modules, hooks or files; a kernel uses " +
                      path[0] + " only for " + MODULE_ATTRIBUTES[path[0]][1])
            return
        if path[0] == "torch" and path[-1] in DEVICE_MEMORY_CONTROLS:
            self.flag(node, "device-memory")
            return
        if path[0] == "torch" and len(path) > 1 and (path[1] in REFUSED_TORCH or ".".join(path[1:3]) in REFUSED_TORCH):
            self.flag(node, "compiler" if path[1] in ("compile", "compiler", "_dynamo", "_inductor") else "imports",
                      None if path[1] in ("compile", "compiler", "_dynamo", "_inductor") else
                      "torch." + path[1] + " reaches torch's internals or does the work for the candidate")
            return

    # ---- the problem's forbidden operations -----------------------------
    @staticmethod
    def same_op(name, want):
        # One operation, its in-place form (relu_) and nothing else: an own
        # function that merely starts like it (sigmoid_cuda, max_dim) and a
        # different operation (maximum for max) are not it.
        return name == want or name == want + "_" or name.rstrip("_") == want.rstrip("_")

    @staticmethod
    def op_of_class(name):
        # nn.ConvTranspose2d -> conv_transpose2d; nn.BatchNorm2d -> batch_norm2d (and batch_norm).
        snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
        return {snake, re.sub(r"\d+d$", "", snake), snake.replace("_", "")}

    def forbidden_match(self, path, method=False):
        """The forbidden entry that path names (None if none). method: path
        is a method called on a tensor (x.softmax(...)), which is the
        operation of that name whatever module it lives in."""
        if self.triton_depth:
            return None  # Triton code calls only Triton's language
        if self.off_device_depth:
            return None  # dead code on the device the judge runs the problem on
        for f in self.forbidden:
            want = f["parts"]
            prefix = want[:-1]
            last = want[-1]
            names = self.op_of_class(last) | {last} if last[:1].isupper() else {last}
            if method:
                if prefix and prefix[0] == "torch" and any(self.same_op(path[-1], n) for n in names):
                    return f
                continue
            if path[-1][:1].isupper():
                # A module class: the entry names the class, or the functional op it runs.
                candidates = self.op_of_class(path[-1]) | {path[-1]}
            else:
                candidates = {path[-1]}
            if not any(self.same_op(c, n) for c in candidates for n in names):
                continue
            # torch names one operation in several places (torch.softmax,
            # torch.nn.functional.softmax, torch.special.softmax): any of them.
            if not prefix or path[-1 - len(prefix):-1] == prefix or (prefix[0] == "torch" and path[0] == "torch"):
                return f
        return None

    def flag_op(self, node, f, how=""):
        self.flag(node, "reference-op", "the problem forbids \"" + f["entry"] + "\"" + how +
                  ": a candidate computes the operator itself (its own kernel, or library calls the problem allows)")

    def check_call_target(self, node):
        """A call: what it reaches, resolved through what the names refer to."""
        f = node.func
        if isinstance(f, ast.Call):
            # nn.Softmax(dim=1)(x): the module built and run at once.
            inner = self.dotted(f.func)
            if inner[0] == "torch" and inner[-1][:1].isupper():
                hit = self.forbidden_match(inner)
                if hit:
                    self.flag_op(node, hit, " (" + ".".join(inner) + ", run)")
            return
        if not isinstance(f, ast.Attribute):
            return
        receiver = f.value
        if isinstance(receiver, ast.Name) and receiver.id == "self":
            cls = self.module_attrs.get(f.attr)
            if cls:
                hit = self.forbidden_match(cls)
                if hit:
                    self.flag_op(node, hit, " (self." + f.attr + " is " + ".".join(cls) + ")")
            return  # the candidate's own methods and attributes otherwise
        root = receiver
        while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if isinstance(root, ast.Name) and (root.id in self.extensions or root.id in self.extension_makers):
            return  # a function of an extension the candidate built (or of one its own function returns)
        if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) and receiver.value.id == "self" \
                and receiver.attr in self.extensions:
            return  # the same, kept on the module (self.ext.softmax(x))
        path = self.dotted(f)
        if path[0] == "?":
            hit = self.forbidden_match(path, method=True)
            if hit:
                self.flag_op(node, hit, " (here as a method)")

    def visit_Attribute(self, node):
        if node.attr.startswith("__") and node.attr.endswith("__") and node.attr not in ALLOWED_DUNDER_ATTRIBUTES:
            self.flag(node, "dunder")
        if not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            self.check_reference(node)
        for child in ast.iter_child_nodes(node):
            child._parent_attr = node
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id.startswith("__") and node.id.endswith("__") and node.id not in ALLOWED_DUNDER_NAMES:
            self.flag(node, "dunder")
        if node.id in ATTRIBUTE_BUILTINS and node.id not in self.aliases and isinstance(node.ctx, ast.Load) \
                and not getattr(node, "_called", False):
            # getattr passed on as a value (functools.reduce(getattr, ...),
            # map(getattr, ...)) reaches attributes no rule reads.
            self.flag(node, "dynamic-attribute", node.id + " passed as a value reaches any attribute; write the attribute out")
        if node.id in self.aliases and not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            self.check_reference(node)

    def check_reference(self, node):
        """A whole name or attribute chain: what it reaches, and a torch
        function named where it is read (called, or passed on as a value); a
        store is not a call, and a module class built for its parameters runs
        nothing until it is called."""
        path = self.dotted(node)
        self.check_path(node, path)
        if isinstance(node.ctx, ast.Load) and path[0] == "torch" and not path[-1][:1].isupper():
            hit = self.forbidden_match(path)
            if hit:
                self.flag_op(node, hit)

    def visit_Constant(self, node):
        # A short identifier-like string that starts or ends with a double
        # underscore ("__globals__", "__imp" + "ort__") is the way around the
        # attribute rule; a CUDA source mentioning __global__ is not one.
        v = node.value
        if isinstance(v, str) and len(v) <= 64 and IDENTIFIER_LIKE.match(v) and v not in ALLOWED_DUNDER_NAMES | ALLOWED_DUNDER_ATTRIBUTES | {"__main__"}:
            if any(p.startswith("__") or p.endswith("__") for p in v.split(".")):
                self.flag(node, "dunder")

    # ---- imports --------------------------------------------------------
    def visit_Import(self, node):
        for a in node.names:
            if not module_allowed(a.name):
                self.flag(node, "compiler" if a.name.startswith(("torch._dynamo", "torch._inductor", "torch.compiler")) else "imports")
                continue
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                root = a.name.split(".")[0]
                self.aliases[root] = root

    def visit_ImportFrom(self, node):
        mod = node.module or ""
        if node.level:
            self.flag(node, "imports", "relative imports reach the judge's folder")
            return
        if not module_allowed(mod):
            self.flag(node, "compiler" if mod.startswith(("torch._dynamo", "torch._inductor", "torch.compiler")) else "imports")
            return
        for a in node.names:
            if a.name == "*":
                self.flag(node, "imports", "import * hides which names a kernel uses; import them by name")
                continue
            full = mod + "." + a.name
            if mod == "torch" and not module_allowed(full):
                self.flag(node, "compiler" if a.name in ("compile", "compiler", "_dynamo", "_inductor") else "imports")
                continue
            if a.name.startswith("__"):
                self.flag(node, "dunder")
                continue
            self.aliases[a.asname or a.name] = full
            self.check_path(node, full.split("."))
            if full.startswith("torch.") and not a.name[:1].isupper():
                hit = self.forbidden_match(full.split("."))
                if hit:
                    self.flag_op(node, hit)

    # ---- calls, stores, functions ---------------------------------------
    def visit_Call(self, node):
        f = node.func
        f._called = True
        path = self.dotted(f)
        if path[:2] == ["logging", "basicConfig"] and any(k.arg in ("filename", "handlers") for k in node.keywords):
            self.flag(node, "files", "logging.basicConfig with a file or handlers writes files; log to a stream")
        if path[0] == "operator" and path[-1] in ("attrgetter", "methodcaller"):
            self.flag(node, "dynamic-attribute", "operator." + path[-1] + " reaches attributes by a string; write the attribute out")
        if isinstance(f, ast.Name):
            if f.id in CALLS and f.id not in self.aliases:
                rule, why = CALLS[f.id]
                self.flag(node, rule, why)
            elif f.id == "open" and not self.files_confined and f.id not in self.aliases:
                self.flag(node, *UNCONFINED_OPEN)
            elif f.id in ("getattr", "setattr", "delattr", "hasattr"):
                name = node.args[1] if len(node.args) >= 2 else None
                literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
                if not literal:
                    self.flag(node, "dynamic-attribute")
                elif f.id in ("setattr", "delattr") and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self"):
                    self.flag(node, "monkey-patching", "setattr and delattr change other objects; a kernel sets attributes of its own module (self)")
                elif literal:
                    path = self.dotted(node.args[0]) + name.value.split(".")
                    self.check_path(node, path)
                    hit = self.forbidden_match(path) if path[0] == "torch" else None
                    if hit:
                        self.flag_op(node, hit)
                    if name.value.startswith("__") and name.value.endswith("__") and name.value not in ALLOWED_DUNDER_ATTRIBUTES:
                        self.flag(node, "dunder")
        self.check_call_target(node)
        self.generic_visit(node)

    def check_store(self, target):
        if isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self.check_store(t)
            return
        if isinstance(target, ast.Starred):
            self.check_store(target.value)
            return
        node = target
        if isinstance(node, ast.Subscript):
            node = node.value
        if not isinstance(node, ast.Attribute):
            return
        root = node
        while isinstance(root, (ast.Attribute, ast.Subscript)):
            root = root.value
        if isinstance(root, ast.Name) and (root.id in self.aliases or root.id in ("torch", "triton")):
            path = tuple(self.dotted(node))
            if any(path[:len(a)] == a for a in ALLOWED_STORES):
                return
            self.flag(target, "monkey-patching")

    def visit_Assign(self, node):
        for t in node.targets:
            self.check_store(t)
            self.note_binding(t, node.value)
        self.generic_visit(node)

    def note_binding(self, target, value):
        """Remembers what self.<attr> and names are bound to: a torch module
        class (its calls are that module's operation) or an extension the
        candidate built (its functions are the candidate's own)."""
        if isinstance(target, ast.Name) and isinstance(value, (ast.Name, ast.Attribute)):
            # t = torch.cuda: a module under a local name is the module, for
            # every rule (stores into it, what it reaches).
            path = self.dotted(value)
            if path[0] != "?" and (path[0] in ("torch", "triton") or path[0] in MODULE_ROOTS):
                self.aliases[target.id] = ".".join(path)
            elif target.id in self.aliases and target.id not in ("torch", "triton"):
                del self.aliases[target.id]
            return
        if not isinstance(value, ast.Call):
            return
        built = self.dotted(value.func)
        is_extension = self.extension_build(built)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
            if is_extension:
                self.extensions.add(target.attr)
            elif built[0] == "torch" and built[-1][:1].isupper():
                self.module_attrs[target.attr] = built
            else:
                self.module_attrs.pop(target.attr, None)
        elif isinstance(target, ast.Name) and is_extension:
            self.extensions.add(target.id)

    def visit_AugAssign(self, node):
        self.check_store(node.target)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self.check_store(node.target)
        self.generic_visit(node)

    def visit_Delete(self, node):
        for t in node.targets:
            self.check_store(t)
        self.generic_visit(node)

    # ---- CPU fallbacks ----------------------------------------------------
    def on_device(self, test):
        """True when test holds where the judge runs (an input of the function
        is on the GPU, or CUDA is available), False when it holds only off
        it, None when it says neither. Only the function's own arguments,
        never rebound in it, speak for the inputs: a tensor the candidate made
        could be anywhere."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.on_device(test.operand)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            # Off the device: every alternative of an `or` holds only there, or
            # one condition of an `and` does.
            parts = [self.on_device(v) for v in test.values]
            if isinstance(test.op, ast.Or) and all(p is False for p in parts):
                return False
            if isinstance(test.op, ast.And) and any(p is False for p in parts):
                return False
            return None
        if isinstance(test, ast.Call) and not test.args and self.dotted(test.func) == ["torch", "cuda", "is_available"]:
            return True
        if isinstance(test, ast.Attribute) and test.attr == "is_cuda":
            return True if self.is_input(test.value) else None
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
            left, right = test.left, test.comparators[0]
            if isinstance(left, ast.Constant):
                left, right = right, left
            if isinstance(left, ast.Attribute) and left.attr == "type" and isinstance(left.value, ast.Attribute) \
                    and left.value.attr == "device" and self.is_input(left.value.value) \
                    and isinstance(right, ast.Constant) and right.value in ("cuda", "cpu"):
                cuda = right.value == "cuda"
                return cuda if isinstance(test.ops[0], ast.Eq) else not cuda
        return None

    def builds_extension(self, value):
        """A returned value that is an extension the candidate built: a name
        bound to one, or the build call itself."""
        if isinstance(value, ast.Name):
            return value.id in self.extensions
        return isinstance(value, ast.Call) and self.extension_build(self.dotted(value.func))

    @staticmethod
    def extension_build(path):
        """Whether a call of `path` builds an extension (cpp_extension's load_inline or load)."""
        return path[-1] in ("load_inline", "load") and (path[0] in ("torch", "?") or "cpp_extension" in path)

    def main_guard(self, test):
        return not self.name_rebound and isinstance(test, ast.Compare) and len(test.ops) == 1 \
            and isinstance(test.ops[0], ast.Eq) and {type(test.left), type(test.comparators[0])} == {ast.Name, ast.Constant} \
            and {getattr(test.left, "id", None), getattr(test.comparators[0], "id", None)} >= {"__name__"} \
            and "__main__" in (getattr(test.left, "value", None), getattr(test.comparators[0], "value", None))

    def is_input(self, node):
        return isinstance(node, ast.Name) and node.id in self.inputs[-1]

    def visit_If(self, node):
        if self.main_guard(node.test):
            # `if __name__ == "__main__":` never runs in a runner (the module
            # is imported as "candidate"): a model's own test code, not the kernel.
            for stmt in node.orelse:
                self.visit(stmt)
            return
        self.visit(node.test)
        where = self.on_device(node.test)
        self.off_device_depth += where is False
        for stmt in node.body:
            self.visit(stmt)
        self.off_device_depth -= where is False
        self.off_device_depth += where is True
        for stmt in node.orelse:
            self.visit(stmt)
        self.off_device_depth -= where is True

    def is_triton(self, deco):
        path = self.dotted(deco.func if isinstance(deco, ast.Call) else deco)
        return path[0] == "triton" or path[0] == "?" and path[-1] in ("jit", "autotune", "heuristics")

    def visit_FunctionDef(self, node):
        triton = any(self.is_triton(d) for d in node.decorator_list)
        for d in node.decorator_list:
            self.visit(d)
        self.triton_depth += triton
        args = node.args
        names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
        rebound = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}
        self.inputs.append(names - rebound)
        for stmt in node.body:
            self.visit(stmt)
        self.inputs.pop()
        if any(isinstance(n, ast.Return) and n.value is not None and self.builds_extension(n.value) for n in ast.walk(node)):
            self.extension_makers.add(node.name)
        for a in node.args.defaults + node.args.kw_defaults:
            if a is not None:
                self.visit(a)
        self.triton_depth -= triton

    visit_AsyncFunctionDef = visit_FunctionDef


def check(source, forbidden, files_confined=True):
    if len(source.encode("utf-8", "surrogateescape")) > MAX_SOURCE_BYTES:
        return [{"rule": "size", "line": 1, "excerpt": "(%d bytes)" % len(source),
                 "why": "a candidate source is at most 1 MiB; shorten it"}]
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return [{"rule": "syntax", "line": e.lineno or 1, "excerpt": (e.text or "").strip()[:160],
                 "why": "the source does not parse as Python: " + str(e.msg)}]
    except (ValueError, RecursionError, MemoryError) as e:
        return [{"rule": "syntax", "line": 1, "excerpt": "", "why": "the source cannot be parsed: " + type(e).__name__}]
    c = Checker(source, forbidden, files_confined)
    # A module that binds __name__ itself could make its "main" block run.
    c.name_rebound = any(isinstance(n, ast.Name) and n.id == "__name__" and not isinstance(n.ctx, ast.Load) for n in ast.walk(tree))
    try:
        c.visit(tree)
    except RecursionError:
        return [{"rule": "syntax", "line": 1, "excerpt": "", "why": "the source nests too deeply to check"}]
    c.found.sort(key=lambda v: v["line"])
    # A source full of violations gets a message a person reads, not megabytes.
    if len(c.found) > MAX_REPORTED:
        more = len(c.found) - MAX_REPORTED
        c.found = c.found[:MAX_REPORTED] + [{"rule": "more", "line": c.found[MAX_REPORTED - 1]["line"], "excerpt": "",
                                             "why": "%d more violations past these; mend these first" % more}]
    return c.found


def main():
    forbidden = json.loads(sys.argv[1]) if len(sys.argv) > 1 else []
    confined = not (len(sys.argv) > 2 and sys.argv[2] == "unconfined")
    source = sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1).decode("utf-8", "replace")
    if len(source) > MAX_SOURCE_BYTES:
        out = [{"rule": "size", "line": 1, "excerpt": "", "why": "a candidate source is at most 1 MiB; shorten it"}]
    else:
        out = check(source, forbidden, confined)
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
