#!/usr/bin/env python3
# Kernelwright's static rules for the Python candidates of torch problems: a
# pass over the candidate's syntax tree, not over its text, so aliases,
# built strings and comments neither hide a construct nor invent one.
#
#   python3 -I torch_rules.py FORBIDDEN_JSON < candidate.py
#
# prints a JSON list of {"rule", "line", "excerpt", "why"} (empty: nothing
# found) and exits 0; a source that does not parse is one violation
# ("syntax"). The judge runs it again where the candidate runs, before the
# candidate's runner starts. Defence in depth only: the candidate's own
# process is the barrier (it never shares an interpreter with the judge).
import ast
import json
import re
import sys

MAX_SOURCE_BYTES = 1 << 20

# Modules a kernel may import (and their submodules); everything else is a
# violation. torch's private and compiler submodules are refused below.
ALLOWED_IMPORTS = {
    "torch", "triton", "math", "functools", "itertools", "typing", "collections", "dataclasses", "operator",
    "enum", "numbers", "abc", "__future__", "kw_params", "kw_launch", "numpy", "cmath", "fractions", "decimal", "string", "re",
}
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
    "open": ("files", "a kernel reads and writes tensors, not files (result.json is the judge's)"),
    "input": ("files", "a kernel reads and writes tensors, not files (result.json is the judge's)"),
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
ALLOWED_DUNDER_ATTRIBUTES = {"__init__"}
STDLIB_REACH = {"sys", "os", "gc", "inspect", "ctypes", "subprocess", "importlib", "builtins", "threading", "multiprocessing",
                "io", "pathlib", "shutil", "socket", "signal", "pickle", "marshal", "tempfile", "atexit", "traceback", "weakref",
                "statistics", "time", "json", "glob", "platform", "sysconfig", "site", "types", "warnings", "logging"}
ALLOWED_DUNDER_NAMES = {"__name__"}
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


class Checker(ast.NodeVisitor):
    def __init__(self, source, forbidden):
        self.lines = source.splitlines()
        self.found = []
        self.aliases = {}  # local name -> dotted module or object path ("F" -> "torch.nn.functional")
        self.triton_depth = 0
        self.forbidden = [f for f in (self.normalize(x) for x in forbidden) if f]

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
            if path[0] == "torch" and any(p.startswith("_") and not p.startswith("__") for p in path[1:]):
                self.flag(node, "imports", "torch's private names (a leading underscore) reach its internals; use the public API")
                return
        if path[0] == "torch" and path[-1] in DEVICE_MEMORY_CONTROLS:
            self.flag(node, "device-memory")
            return
        if path[0] == "torch" and len(path) > 1 and (path[1] in REFUSED_TORCH or ".".join(path[1:3]) in REFUSED_TORCH):
            self.flag(node, "compiler" if path[1] in ("compile", "compiler", "_dynamo", "_inductor") else "imports",
                      None if path[1] in ("compile", "compiler", "_dynamo", "_inductor") else
                      "torch." + path[1] + " reaches torch's internals or does the work for the candidate")
            return
        if self.triton_depth:
            return  # Triton code calls only Triton's language
        for f in self.forbidden:
            want = f["parts"]
            last = want[-1]
            if not path[-1].startswith(last):
                continue
            prefix = want[:-1]
            # torch names one operation in several places (torch.softmax,
            # torch.nn.functional.softmax, torch.special.softmax): any of them.
            if not prefix or path[-1 - len(prefix):-1] == prefix or (prefix[0] == "torch" and path[0] == "torch"):
                self.flag(node, "reference-op", "the problem forbids \"" + f["entry"] + "\": a candidate computes the operator itself")
                return
            # A tensor method is the same operation under another name (x.softmax(...)).
            if prefix[0] == "torch" and path[0] == "?" and len(path) >= 2:
                self.flag(node, "reference-op", "the problem forbids \"" + f["entry"] + "\" (here as a method): a candidate computes the operator itself")
                return

    def visit_Attribute(self, node):
        if node.attr.startswith("__") and node.attr.endswith("__") and node.attr not in ALLOWED_DUNDER_ATTRIBUTES:
            self.flag(node, "dunder")
        if not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            self.check_path(node, self.dotted(node))
        for child in ast.iter_child_nodes(node):
            child._parent_attr = node
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id.startswith("__") and node.id.endswith("__") and node.id not in ALLOWED_DUNDER_NAMES:
            self.flag(node, "dunder")
        if node.id in self.aliases and not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            self.check_path(node, self.dotted(node))

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

    # ---- calls, stores, functions ---------------------------------------
    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Name):
            if f.id in CALLS and f.id not in self.aliases:
                rule, why = CALLS[f.id]
                self.flag(node, rule, why)
            elif f.id in ("getattr", "setattr", "delattr", "hasattr"):
                name = node.args[1] if len(node.args) >= 2 else None
                literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
                if not literal:
                    self.flag(node, "dynamic-attribute")
                elif f.id in ("setattr", "delattr") and not (isinstance(node.args[0], ast.Name) and node.args[0].id == "self"):
                    self.flag(node, "monkey-patching", "setattr and delattr change other objects; a kernel sets attributes of its own module (self)")
                elif literal:
                    self.check_path(node, self.dotted(node.args[0]) + name.value.split("."))
                    if name.value.startswith("__") and name.value.endswith("__") and name.value not in ALLOWED_DUNDER_ATTRIBUTES:
                        self.flag(node, "dunder")
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
            self.flag(target, "monkey-patching")

    def visit_Assign(self, node):
        for t in node.targets:
            self.check_store(t)
        self.generic_visit(node)

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

    def visit_Global(self, node):
        self.flag(node, "introspection", "a kernel keeps no global state between calls (a call must not depend on the one before)")

    def is_triton(self, deco):
        path = self.dotted(deco.func if isinstance(deco, ast.Call) else deco)
        return path[0] == "triton" or path[0] == "?" and path[-1] in ("jit", "autotune", "heuristics")

    def visit_FunctionDef(self, node):
        triton = any(self.is_triton(d) for d in node.decorator_list)
        for d in node.decorator_list:
            self.visit(d)
        self.triton_depth += triton
        for stmt in node.body:
            self.visit(stmt)
        for a in node.args.defaults + node.args.kw_defaults:
            if a is not None:
                self.visit(a)
        self.triton_depth -= triton

    visit_AsyncFunctionDef = visit_FunctionDef


def check(source, forbidden):
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
    c = Checker(source, forbidden)
    try:
        c.visit(tree)
    except RecursionError:
        return [{"rule": "syntax", "line": 1, "excerpt": "", "why": "the source nests too deeply to check"}]
    c.found.sort(key=lambda v: v["line"])
    return c.found


def main():
    forbidden = json.loads(sys.argv[1]) if len(sys.argv) > 1 else []
    source = sys.stdin.buffer.read(MAX_SOURCE_BYTES + 1).decode("utf-8", "replace")
    if len(source) > MAX_SOURCE_BYTES:
        out = [{"rule": "size", "line": 1, "excerpt": "", "why": "a candidate source is at most 1 MiB; shorten it"}]
    else:
        out = check(source, forbidden)
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
