"""Launching a Triton kernel for less host time: what `kernel[grid](...)` does
on every call (binding the arguments to the signature, formatting a cache key
from their specialisation, checking the kernel's globals, asking for the
device and stream) is done once per specialisation here, and the compiled
kernel is launched directly. On an H200 host an empty kernel with ten
arguments cost 17.1 us a launch through `kernel[grid]` and 9.4 us through
its compiled handle; a candidate whose launches take longer than its device
time is judged by its launches.

    from kw_launch import launcher
    copy = launcher(_copy_kernel, BLOCK=BLOCK, num_warps=4)
    copy(grid, src, dst, n)        # as _copy_kernel[grid](src, dst, n, BLOCK=BLOCK, num_warps=4)

or, where the constexprs change from call to call, one launcher kept per
kernel and constexpr values:

    from kw_launch import launch
    launch(_copy_kernel, grid, src, dst, n, BLOCK=block, num_warps=4)

(`launch_jit` takes the same arguments and is `kernel[grid](...)` itself: a
seed can offer both as a tunable choice.)

Positional arguments are the kernel's non-constexpr parameters in order;
constexprs and options (num_warps, num_stages) are fixed when the launcher is
made. A compiled kernel is kept per specialisation of the arguments, keyed
finer than Triton keys it: an int by whether it is 1, a multiple of 16 and
within 32 and 64 bits, a tensor by dtype and 16-byte alignment, a bool or
None by its value. Any other argument (a tuple, a tensor descriptor), anything
this Triton does not offer (no compiled handle, another launch signature), a
callable grid, or a failure of the direct launch falls back to
`kernel[grid](...)`; after the first failure, for good.
"""


def _spec(v):
    """What a compiled kernel depends on of an argument (finer than Triton's own)."""
    if hasattr(v, "data_ptr"):
        return (v.dtype, v.data_ptr() % 16 == 0)
    if isinstance(v, bool) or v is None:
        return (v,)
    if isinstance(v, int):
        return (v == 1, v % 16 == 0, -(1 << 31) <= v < (1 << 31), -(1 << 63) <= v < (1 << 63), v >= 0)
    if isinstance(v, float):
        return (float,)
    # Tuples, tensor descriptors and the like: specialised in ways not
    # mirrored here (a tuple of tensors would key by identity, a compile a
    # call). The caller falls back to kernel[grid] for good.
    raise TypeError(f"kw_launch does not key arguments of type {type(v).__name__}")


class launcher:
    def __init__(self, kernel, **meta):
        self.kernel, self.meta = kernel, meta
        self.handles = {}
        self.direct = True
        try:
            params = list(kernel.params)
            self.order = [(p.name, p.is_constexpr) for p in params]
            self.slots = sum(1 for _, c in self.order if not c)
            missing = [n for n, c in self.order if c and n not in meta]
            if missing or not hasattr(kernel, "warmup"):
                self.direct = False  # a constexpr left to its default: Triton binds it
        except (AttributeError, TypeError):
            self.direct = False

    def _full(self, args):
        """Every parameter's value in signature order, as Triton's launcher takes them."""
        it = iter(args)
        return [self.meta[n] if c else next(it) for n, c in self.order]

    def __call__(self, grid, *args):
        if self.direct and not callable(grid) and len(args) == self.slots:
            try:
                key = tuple(_spec(a) for a in args)
                handle = self.handles.get(key)
                if handle is None:
                    if len(self.handles) >= 64:  # alignments and widths seen: a few; this many is churn
                        self.handles.clear()
                    handle = self.kernel.warmup(*args, grid=grid, **self.meta)
                    if handle is None or not hasattr(handle, "__getitem__"):
                        raise TypeError("warmup returned no compiled kernel")
                    self.handles[key] = handle
                grid3 = tuple(grid) + (1,) * (3 - len(grid))
                handle[grid3](*self._full(args))
                return
            except (TypeError, AttributeError, KeyError, ValueError, RuntimeError):
                # Refused before launching (arguments, API); the usual path from now on.
                self.direct = False
                self.handles.clear()
        self.kernel[grid](*args, **self.meta)


_launchers = {}


def launch(kernel, grid, *args, **meta):
    """`kernel[grid](*args, **meta)` through a launcher kept per kernel and
    meta (in the order given: one call site passes them alike each time)."""
    key = (kernel, tuple(meta.items()))
    try:
        go = _launchers.get(key)
    except TypeError:  # a meta value that cannot key a dict
        kernel[grid](*args, **meta)
        return
    if go is None:
        if len(_launchers) > 256:  # constexprs drawn from a wide range: bounded, not a leak
            _launchers.clear()
        go = _launchers[key] = launcher(kernel, **meta)
    go(grid, *args)


def launch_jit(kernel, grid, *args, **meta):
    """`kernel[grid](*args, **meta)`, Triton's own path."""
    kernel[grid](*args, **meta)
