# Kernelwright's torch harness: a shape's sizes applied to a reference module in
# KernelBench's format, shared by the importer, the judge, its runners and the
# ncu call.
#
# A shape sets the module-level sizes (batch_size = 16) before get_inputs() and
# get_init_inputs() run. Names computed from them at the top level
# (input_shape = (batch_size, 3, 224, 224)) were computed when the module was
# imported; they are computed again here, in the file's order, so that a size
# carried by such a tuple varies too.
import ast


def derived_assignments(source):
    """The module's top-level assignments whose value reads other names and
    calls nothing (tuples, lists and arithmetic over sizes), in order:
    [(target names, compiled expression)]."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    plain = (ast.Name, ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.UnaryOp, ast.Load, ast.operator, ast.unaryop)
    out = []
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not all(isinstance(t, ast.Name) for t in node.targets):
            continue
        parts = list(ast.walk(node.value))
        if not all(isinstance(p, plain) for p in parts) or not any(isinstance(p, ast.Name) for p in parts):
            continue
        out.append((tuple(t.id for t in node.targets), compile(ast.Expression(node.value), "<sizes>", "eval")))
    return out


def apply_sizes(module, sizes, derived):
    """Sets `sizes` on `module`, then recomputes its derived names (those the
    shape does not set itself). A derivation that fails keeps its old value."""
    for k, v in sizes.items():
        setattr(module, k, v)
    for targets, code in derived:
        if any(t in sizes for t in targets):
            continue
        try:
            value = eval(code, {"__builtins__": {}}, vars(module))
        except Exception:
            continue
        for t in targets:
            setattr(module, t, value)
