# Kernelwright's kernel runner for torch problems: hosts one model (the
# candidate's ModelNew, the reference's Model, or torch.compile of it) in a
# Python process of its own, for the judge (torch_judge.py).
#
#   python3 torch_runner.py ROLE      ROLE: candidate | reference | compiled
#
# The judge's socket is the descriptor in KW_JUDGE_FD. The judge sends length-prefixed pickles (it is
# trusted here); this runner answers with length-prefixed JSON, which the
# judge parses and checks like any untrusted input: everything in this
# process, this file included, is the candidate's to change once its module
# is imported. The judge keeps the clock, freezes this process (SIGSTOP of its
# process group) after every answer, maps the outputs itself and compares.
#
# The first message from the judge is {"op": "begin"}: until it comes, this
# process has only imported torch and touches no device (the judge sends it
# once it holds the host's timing lock, so that no evaluation's start-up runs
# on the device beside another's timing).
#
# Messages from the judge: {"op": "load" | "sets" | "forget" | "call" | "bye", ...}
#   load   sizes, seed, init (the constructor's arguments), state (name ->
#          input id of a shared tensor): builds the model for a shape
#   sets   id -> [("t", fd index, size, shape, stride, dtype, offset) | ("v", value)]
#          with the allocations' descriptors passed alongside (SCM_RIGHTS)
#   call   seq, ids, poison, seed (optional: torch.manual_seed first): calls
#          the model once per id, synchronizes the device, answers
#          {"type": "done", "seq", "outputs": [[desc...] per id]}
#   held   answers {"type": "ok", "held"}: the device memory this process holds
#   room   room (bytes): caps the device memory this process holds, in all
#   profile seq, ids: one call on the first id under PyTorch's profiler (after
#          the timed calls, never inside them), answers {"type": "profiled",
#          "events": [[name, kind, microseconds], ...]}: every kernel, copy and
#          memset the call put on the device. A diagnostic: the judge checks
#          its form and never its truth (this process is the candidate's).
import importlib
import json
import os
import pickle
import socket
import time
import struct
import sys
import traceback

SRC = os.path.dirname(os.path.abspath(__file__))
MAX_MESSAGE = 64 << 20


def send(sock, obj):
    data = json.dumps(obj).encode()
    sock.sendall(struct.pack("<I", len(data)) + data)


def receive(sock):
    """The judge's next message and any file descriptors sent with it."""
    head, fds, _, _ = socket.recv_fds(sock, 4, 256)
    if len(head) < 4:
        head += _exactly(sock, 4 - len(head))
    (n,) = struct.unpack("<I", head)
    body = _exactly(sock, n)
    return pickle.loads(body), fds


def _exactly(sock, n):
    out = bytearray()
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise EOFError("the judge closed the socket")
        out += chunk
    return bytes(out)


def write_hint(exc, text):
    """Why a write failed, where the runner confines writes (torch_landlock):
    a path outside the candidate's own folder is refused."""
    own = os.environ.get("KW_CANDIDATE_DIR", "")
    path = getattr(exc, "filename", None)
    if not own or not (isinstance(exc, PermissionError) or "Permission denied" in text):
        return ""
    if isinstance(path, str) and os.path.abspath(path).startswith(own + os.sep):
        return ""
    where = f" ({path} is outside it)" if isinstance(path, str) else ""
    return (f" [a kernel writes only in its own folder, {own}: next to its module (__file__), in TMPDIR, or in "
            f"tempfile's folders{where}]")


def error_kind(torch, exc):
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    text += write_hint(exc, text)
    name = type(exc).__module__ + "." + type(exc).__name__
    if isinstance(exc, torch.cuda.OutOfMemoryError):
        return "oom", text
    if "triton" in name and ("Compil" in name or "compil" in text.lower()):
        return "compile_error", text
    if isinstance(exc, (SyntaxError, ImportError)) or "BuildExtension" in text or "Error building extension" in text:
        return "compile_error", text
    return "runtime_error", text


def adopt_state(model, state):
    """Gives `model` the reference's parameters and buffers when it has the
    same ones (same names and shapes); a model with others keeps its own."""
    own = model.state_dict()
    if state and own and set(own) == set(state) and all(own[k].shape == state[k].shape for k in own):
        model.load_state_dict(state)


def load_module(name, path):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def seed_generators(torch, seed):
    """What torch.manual_seed does to this host's generators (the CPU's and
    every CUDA device's), without its lazy seeding of backends that never
    start here (XPU, MTIA), each of which formats the Python stack on every
    call (20-40 us apiece on a CPU of this project's CI). It runs before a
    timed call's first launch, inside the judge's lead flush: a runner's
    set-up took 320-440 us of the 500 us lead on an H200 host."""
    seed = int(seed)
    torch.cuda.manual_seed_all(seed)  # CUDA is initialised in a runner: seeded at once
    torch.default_generator.manual_seed(seed)


class Runner:
    def __init__(self, sock, role):
        self.sock, self.role = sock, role
        import torch

        import torch_cuda

        self.torch = torch
        self.cuda = torch_cuda.Driver()
        self.maps = {}      # fd key -> (ptr, size, handle, raw)
        self.bases = {}     # (fd key, dtype) -> all of the mapping as that dtype
        self.sets = {}      # id -> list of args (tensors built fresh before each call)
        self.specs = {}     # id -> the judge's description of each argument
        self.model = None
        self.keep = []      # the last call's outputs stay allocated until the next call
        self.keep_previous = []
        self.touch_buf = torch.zeros(1, device="cuda")  # an empty call's one kernel
        self.marks = [torch.cuda.Event(enable_timing=True) for _ in range(3)]  # the call's device times, for diagnosis
        self.cls = None
        self.room = 0       # bytes of device memory this runner may hold (0: no cap)
        # A diagnostic for judging the judge (KW_RUNNER_PROFILE): where a
        # call's host time goes in this process, written to this runner's
        # error file (the job's build/runner-NAME.err, kept with --keep-job):
        # "sets" each set's launch time, "1" that and Python's profiler over
        # the launches (which slows what it watches).
        mode = os.environ.get("KW_RUNNER_PROFILE", "")
        self.stamping = mode in ("1", "sets")
        self.profiler = None
        self.profiled_calls = 0
        if mode == "1":
            import cProfile

            self.profiler = cProfile.Profile()

    def import_model(self):
        from torch_sizes import derived_assignments

        if self.role == "candidate":
            sys.path.insert(0, SRC)  # kw_params, kw_launch
            # Its copy in its own folder (the judge's candidate_folder), where
            # what it writes next to __file__ may land.
            path = os.path.join(os.environ.get("KW_CANDIDATE_DIR") or SRC, "candidate.py")
            self.module = load_module("candidate", path)
            self.cls = getattr(self.module, "ModelNew", None)
            if self.cls is None:
                raise ImportError("the candidate defines no class ModelNew (same constructor and forward as the reference's Model)")
        else:
            path = os.path.join(SRC, "reference.py")
            self.module = load_module("reference", path)
            self.cls = self.module.Model
        with open(path, encoding="utf-8") as f:
            self.derived = derived_assignments(f.read())

    def tensor(self, spec):
        """A new tensor object over a mapping (one view op: the typed base is
        kept per mapping, so a call's host path stays short)."""
        _, key, shape, stride, dtype, offset = spec
        whole = self.bases.get((key, dtype))
        if whole is None:
            import torch_cuda

            whole = torch_cuda.typed_base(self.maps[key][3], getattr(self.torch, dtype))
            self.bases[(key, dtype)] = whole
        return whole.as_strided(shape, stride, offset // whole.element_size())

    def args(self, i):
        return [self.tensor(a) if a[0] == "t" else a[1] for a in self.specs[i]]

    def on_sets(self, msg, fds):
        import torch_cuda

        try:
            for key, size, fd_index in msg["maps"]:
                ptr, handle = self.cuda.map_shared(fds[fd_index], size)
                self.maps[key] = (ptr, size, handle, torch_cuda._wrap(ptr, size))
                for k in [k for k in self.bases if k[0] == key]:
                    del self.bases[k]
        finally:
            for fd in fds:
                os.close(fd)
        for i, specs in msg["sets"].items():
            self.specs[i] = specs

    def on_forget(self, msg):
        for i in msg["ids"]:
            self.specs.pop(i, None)
        for key in msg.get("unmap", []):
            for k in [k for k in self.bases if k[0] == key]:
                del self.bases[k]
            if key in self.maps:
                ptr, size, handle, raw = self.maps.pop(key)
                del raw
                self.cuda.unmap_shared(ptr, size, handle)

    def on_load(self, msg):
        torch = self.torch
        from torch_sizes import apply_sizes

        # The shape's sizes, as the reference's module-level names, before the
        # model is built: a constructor may read them (KernelBench's VanillaRNN
        # sizes its hidden state from `batch_size`). A candidate's module gets
        # those of them it defines itself, as a copy of the reference would.
        sizes = msg["sizes"] if self.role != "candidate" else {k: v for k, v in msg["sizes"].items() if hasattr(self.module, k)}
        apply_sizes(self.module, sizes, self.derived)
        # A new shape: nothing of the last one stays reserved (a check shape's
        # poisoned blocks would otherwise sit in the cache through timing;
        # KernelBench's 6 GiB outputs held three times in each of three
        # runners did not fit an H100). Every runner does the same.
        self.keep, self.keep_previous = [], []
        self.model = None
        torch.cuda.empty_cache()
        torch.manual_seed(msg["seed"])
        with torch.device("cuda"):
            model = self.cls(*msg["init"])
        model = model.cuda().eval()
        state = {k: self.tensor(spec) for k, spec in msg.get("state", {}).items()}
        adopt_state(model, state)
        self.model = torch.compile(model) if self.role == "compiled" else model

    def on_room(self, msg):
        """Caps this process's device memory at `room` bytes in all, its model
        included: every kernel timed together gets the same room. Without it
        the kernels raced for the device: cuDNN chooses a
        convolution's algorithm by the workspace it can get, again whenever it
        cannot, and on an H100 the runner that met a full device kept a plan
        17 % slower for the rest of the rounds (KernelBench's
        conv_standard_1d_dilated_strided read 0.853x against itself beside
        the torch.compile baseline, 1.002x without it)."""
        torch = self.torch
        total = torch.cuda.get_device_properties(torch.cuda.current_device()).total_memory
        self.room = int(msg["room"])
        torch.cuda.set_per_process_memory_fraction(min(1.0, self.room / total))

    def poison(self, nbytes):
        # Freed blocks stay in the caching allocator; an output allocated but
        # never written then reads as NaN (both pools: blocks of 1 MiB and less
        # come from the small pool).
        torch = self.torch
        blocks = [torch.empty(max(nbytes, 2 << 20), dtype=torch.uint8, device="cuda")]
        blocks += [torch.empty(size, dtype=torch.uint8, device="cuda") for size in (512, 4096, 65536, 1 << 20) for _ in range(4)]
        for b in blocks:
            b.fill_(0xFF)
        del blocks

    def on_call(self, msg):
        torch = self.torch
        ids = msg["ids"]
        missing = [i for i in ids if i not in self.specs]
        if missing:
            raise KeyError(f"input set {missing[0]} was never shared with this runner")
        t0 = time.perf_counter()
        # The call before last lets go first, so that the poison below covers
        # its memory; the last call's outputs stay allocated through this
        # call, so no new output can land where the last answer lies.
        self.keep_previous = self.keep
        if msg.get("touch"):
            # An empty call that still uses the device: the hand-off's cost
            # includes the device switching to this process and back.
            self.touch_buf.add_(1.0)
        if msg.get("poison"):
            self.poison(msg["poison"])
            torch.cuda.synchronize()
        if msg.get("seed") is not None:
            # Every call whose outputs the judge compares: each runner's sets
            # then draw the same random numbers (before the first mark).
            seed_generators(torch, msg["seed"])
        outs = []
        t1 = time.perf_counter()
        # Three marks, not one per set: on a slow host recording an event
        # cost 18-50 us of Python, which a kernel of 90 us cannot hide.
        marks = self.marks
        marks[0].record()
        profiler = self.profiler if len(ids) > 1 else None
        stamps = [time.perf_counter()] if self.stamping and len(ids) > 1 else None
        if profiler:
            profiler.enable()
        with torch.no_grad():
            for k, i in enumerate(ids):
                # Fresh views, built while the device runs the previous set's
                # kernels: nothing a previous call did to them remains.
                out = self.model(*self.args(i))
                outs.append(list(out) if isinstance(out, (list, tuple)) else [out])
                if k == 0:
                    marks[1].record()
                if stamps is not None:
                    stamps.append(time.perf_counter())
        if profiler:
            profiler.disable()
        marks[2].record()
        t_launched = time.perf_counter()
        # Described after every set is launched, while the device still runs
        # them (an allocation's handle does not depend on its contents): the
        # launches come first, so the device is not kept waiting for them.
        described = [[self.cuda.export(t) if isinstance(t, torch.Tensor) else {"not_a_tensor": type(t).__name__} for t in per]
                     for per in outs]
        t2 = time.perf_counter()
        torch.cuda.synchronize()
        t3 = time.perf_counter()
        # The device's view of the call (first set, then the mean of the others): a diagnostic too.
        first = marks[0].elapsed_time(marks[1]) * 1e-3 if ids else 0.0
        rest = marks[1].elapsed_time(marks[2]) * 1e-3 / (len(ids) - 1) if len(ids) > 1 else 0.0
        for per, row in zip(outs, described):
            for j, t in enumerate(per):
                if row[j] is None:
                    # Memory the judge cannot map (an input, a pool of the
                    # kernel's own): copied, within the call.
                    t = t.detach().clone()
                    per[j] = t
                    torch.cuda.synchronize()
                    d = self.cuda.export(t)
                    row[j] = d if d is not None else {"unexportable": True}
        self.keep = outs
        # The runner's own account (set-up, views and launches, synchronize, export,
        # the device's first set and each other, describing the outputs for the
        # judge): a diagnostic the judge reports and never believes. Launches
        # and the description are apart: the first is the candidate's host
        # path, the second the judge's (handles for the outputs).
        self.self_timed = [t1 - t0, t_launched - t1, t3 - t2, time.perf_counter() - t3, first, rest, t2 - t_launched]
        if stamps is not None:  # written after the call's own account: the judge's clock still runs
            self.report_profile([round((b - a) * 1e6, 1) for a, b in zip(stamps, stamps[1:])])
        return described

    def report_profile(self, set_times):
        """KW_RUNNER_PROFILE's account on this runner's error file: each
        call's host microseconds a set, and every 5 calls the profiler's
        totals so far (the judge kills its runners; nothing waits for an
        end, and a shape may have ten timed rounds)."""
        self.profiled_calls += 1
        sys.stderr.write("KW-RUNNER-SETS " + " ".join(str(x) for x in set_times) + "\n")
        if self.profiler is not None and self.profiled_calls % 5 == 0:
            import io
            import pstats

            text = io.StringIO()
            pstats.Stats(self.profiler, stream=text).sort_stats("tottime").print_stats(22)
            sys.stderr.write(f"KW-RUNNER-PROFILE {self.role} after {self.profiled_calls} calls\n{text.getvalue()}")
        sys.stderr.flush()

    def on_profile(self, msg):
        torch = self.torch
        from torch.profiler import ProfilerActivity, profile

        args = self.args(msg["ids"][0])
        with torch.no_grad():
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                out = self.model(*args)
                torch.cuda.synchronize()
        del out
        return device_events(torch, prof)


    def on_record(self, msg):
        """One call on set `ids[0]` under PyTorch's profiler: every ATen op
        it dispatched (with the candidate's line that reached it) and every
        device kernel, for the judge to look for the problem's forbidden
        operations (torch_judge_ops)."""
        from torch_judge_ops import record_call

        args = self.args(msg["ids"][0])
        module_file = os.path.basename(getattr(self.module, "__file__", "") or "candidate.py")
        with self.torch.no_grad():
            words = [w for w in msg.get("words", []) if isinstance(w, str)][:64]
            return record_call(self.torch, lambda: self.model(*args), module_file, words)


MAX_PROFILE_EVENTS = 4096


def device_events(torch, prof):
    """[name, kind, microseconds] of each device activity a profile recorded."""
    cuda = torch.autograd.DeviceType.CUDA
    events = []
    for e in prof.events():
        if getattr(e, "device_type", None) != cuda:
            continue
        name = str(e.name)
        low = name.lower()
        kind = "copy" if low.startswith("memcpy") else "memset" if low.startswith("memset") else "kernel"
        events.append([name[:300], kind, float(e.time_range.elapsed_us())])
        if len(events) >= MAX_PROFILE_EVENTS:
            break
    return events


def main():
    role = sys.argv[1]
    if role != "candidate":
        # The problem's own runners are not dumpable: the candidate (same uid)
        # cannot read their memory or their outputs' handles.
        try:
            import ctypes

            ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
        except Exception:
            pass
    sock = socket.socket(fileno=int(os.environ.get("KW_JUDGE_FD", "3")))
    runner = None
    try:
        importlib.import_module("torch")  # before the judge's word: a runner that cannot import it says so

        sys.path.insert(0, SRC)
        begin, _ = receive(sock)
        if not isinstance(begin, dict) or begin.get("op") != "begin":
            return
        runner = Runner(sock, role)
    except Exception as exc:
        send(sock, {"type": "ready", "seq": 0, "ok": False, "message": f"the kernel runner cannot start: {type(exc).__name__}: {exc}"})
        return
    # The candidate's runner runs its code under the seccomp filter
    # (torch_seccomp): nothing it starts leaves the runner's session, signals
    # another process, moves a process between CPUs or traces one. Installed
    # once torch and the device are up, on every thread they started.
    seccomp = files = "not asked for"
    if role == "candidate":
        try:
            import torch_seccomp

            seccomp = "off (KW_RUNNER_SECCOMP=0)" if os.environ.get("KW_RUNNER_SECCOMP") == "0" else torch_seccomp.install()
        except Exception as exc:  # reported, never fatal: the judge records why
            seccomp = f"failed: {type(exc).__name__}: {exc}"
        # ... and writes only in its own folder (and to the devices).
        try:
            import torch_landlock

            own = os.environ.get("KW_CANDIDATE_DIR", "")
            files = ("off (KW_RUNNER_LANDLOCK=0)" if os.environ.get("KW_RUNNER_LANDLOCK") == "0" else
                     "no folder of its own was given" if not own else torch_landlock.restrict_writes([own, "/dev"]))
        except Exception as exc:
            files = f"failed: {type(exc).__name__}: {exc}"
    # Said before any of the candidate's code runs: only this message can
    # report that the runner itself could not start, and how it is confined.
    send(sock, {"type": "ready", "seq": 0, "ok": True, "seccomp": seccomp, "files": files})
    try:
        runner.import_model()
    except BaseException as exc:
        kind, text = error_kind(runner.torch, exc)
        send(sock, {"type": "loaded", "seq": 0, "ok": False, "kind": "compile_error" if kind == "runtime_error" else kind, "message": text,
                    "trace": traceback.format_exc()[-8000:]})
        return
    send(sock, {"type": "loaded", "seq": 0, "ok": True})
    while True:
        try:
            msg, fds = receive(sock)
        except EOFError:
            return
        op = msg.get("op")
        seq = msg.get("seq", 0)
        try:
            if op == "bye":
                return
            if op == "sets":
                runner.on_sets(msg, fds)
                send(sock, {"type": "ok", "seq": seq})
            elif op == "forget":
                runner.on_forget(msg)
                send(sock, {"type": "ok", "seq": seq})
            elif op == "load":
                runner.on_load(msg)
                send(sock, {"type": "ok", "seq": seq})
            elif op == "held":
                send(sock, {"type": "ok", "seq": seq, "held": runner.torch.cuda.memory_reserved()})
            elif op == "room":
                runner.on_room(msg)
                send(sock, {"type": "ok", "seq": seq})
            elif op == "call":
                outputs = runner.on_call(msg)
                send(sock, {"type": "done", "seq": seq, "outputs": outputs, "self_timed": runner.self_timed})
            elif op == "profile":
                send(sock, {"type": "profiled", "seq": seq, "events": runner.on_profile(msg)})
            elif op == "record":
                send(sock, dict(runner.on_record(msg), type="recorded", seq=seq))
        except BaseException as exc:
            kind, text = error_kind(runner.torch, exc)
            if kind == "oom" and runner.room:
                text += f" (this kernel's room on the device: {runner.room / 2**30:.2f} GiB, as much as each kernel timed beside it gets)"
            send(sock, {"type": "error", "seq": seq, "kind": kind, "message": text, "trace": traceback.format_exc()[-8000:]})


if __name__ == "__main__":
    main()
