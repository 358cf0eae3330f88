#!/usr/bin/env python3
# Kernelsmith's harness for `torch` problems. Generated job dirs run it as
#   python3 src/torch_harness.py
# from the job dir. It reads src/torch_job.json, checks the candidate's ModelNew
# against the reference's Model on fresh seeds, times both (and torch.compile
# of the reference) with CUDA events, and writes result.json in the format of
# docs/result-format.md. It needs PyTorch with a visible CUDA device and
# nothing of Kernelsmith's.
#
# Integrity, in the order a dishonest candidate would try things:
# - the expected outputs are computed before the candidate's code is imported;
# - inputs are cloned for the candidate and verified unmodified afterwards;
# - the CUDA caching allocator is filled with a NaN pattern before each call,
#   so outputs the candidate allocates but does not write show as "unwritten";
# - every output element is compared, NaN never passes;
# - each timed call ends with torch.cuda.synchronize() before the end event,
#   so work on any stream counts (the host-side cost of that sync, measured on
#   an empty region, is subtracted); a GPU-side wait before the start event
#   keeps the host's launch latency out of the sample;
# - L2 is flushed before every timed call by writing a buffer larger than it.
import importlib.util
import json
import math
import os
import statistics
import sys
import time
import traceback

SRC = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.dirname(SRC)
PHASE_FILE = os.path.join(JOB, "build", "phase")


def clean(x):
    """Non-finite numbers as the strings result.json uses; everything JSON can hold."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


def write_result(result):
    tmp = os.path.join(JOB, "result.json.tmp")
    with open(tmp, "w") as f:
        json.dump(clean(result), f, allow_nan=False)
    os.replace(tmp, os.path.join(JOB, "result.json"))


def phase(name):
    os.makedirs(os.path.dirname(PHASE_FILE), exist_ok=True)
    with open(PHASE_FILE, "w") as f:
        f.write(name + "\n")


class Finished(Exception):
    """Ends the run with a status and a message (not the candidate's exception)."""

    def __init__(self, status, message, log=""):
        super().__init__(message)
        self.status, self.message, self.log = status, message, log


def tail(text, limit=20000):
    return text if len(text) <= limit else "...\n" + text[-limit:]


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def dtype_name(torch, dtype):
    return {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16"}.get(dtype, "")


def as_list(out):
    if isinstance(out, (list, tuple)):
        return list(out)
    return [out]


def classify_exception(torch, exc, where):
    """A candidate's exception as (status, message)."""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    name = type(exc).__module__ + "." + type(exc).__name__
    if isinstance(exc, torch.cuda.OutOfMemoryError):
        return "oom", f"{where}: out of GPU memory: {text}"
    if "triton" in name and ("Compil" in name or "compil" in text.lower()):
        return "compile_error", f"{where}: Triton could not compile a kernel: {text}"
    if isinstance(exc, (SyntaxError, ImportError)) or "BuildExtension" in text or "Error building extension" in text:
        return "compile_error", f"{where}: {text}"
    return "runtime_error", f"{where}: {text}"


class Harness:
    def __init__(self, job):
        self.job = job
        import torch

        self.torch = torch
        self.env = {"torch": torch.__version__, "cuda": torch.version.cuda or ""}
        try:
            import triton

            self.env["triton"] = triton.__version__
        except Exception:
            pass
        if not torch.cuda.is_available():
            raise Finished("infra_error", "no CUDA device is visible to PyTorch on this host (check CUDA_VISIBLE_DEVICES and the driver)")
        props = torch.cuda.get_device_properties(0)
        self.env.update({"gpu": props.name, "sms": props.multi_processor_count, "host": os.uname().nodename})
        self.l2_bytes = getattr(props, "L2_cache_size", 50 << 20) or (50 << 20)
        self.reference = None
        self.candidate = None

    # ---- inputs and models -------------------------------------------------
    def set_sizes(self, sizes):
        for k, v in sizes.items():
            setattr(self.reference, k, v)

    def make_inputs(self, sizes, seed):
        torch = self.torch
        self.set_sizes(sizes)
        torch.manual_seed(seed)
        with torch.device("cuda"):
            inputs = list(self.reference.get_inputs())
            init = list(self.reference.get_init_inputs())
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in inputs]
        return inputs, init

    def build(self, cls, init, seed, state=None):
        torch = self.torch
        torch.manual_seed(seed)
        with torch.device("cuda"):
            model = cls(*init)
        model = model.cuda().eval()
        if state is not None:
            own = model.state_dict()
            if own and set(own) == set(state) and all(own[k].shape == state[k].shape for k in own):
                model.load_state_dict(state)
        return model

    @staticmethod
    def clone(inputs):
        return [x.clone() if hasattr(x, "clone") else x for x in inputs]

    def poison_allocator(self, nbytes):
        # Freed blocks stay in PyTorch's caching allocator; the candidate's
        # torch.empty reuses them, so what it never writes reads as NaN.
        # Both pools: blocks of 1 MiB and less come from the small-block pool.
        torch = self.torch
        blocks = [torch.empty(max(nbytes, 2 << 20), dtype=torch.uint8, device="cuda")]
        blocks += [torch.empty(size, dtype=torch.uint8, device="cuda") for size in (512, 4096, 65536, 1 << 20) for _ in range(4)]
        for b in blocks:
            b.fill_(0xFF)
        del blocks

    # ---- correctness --------------------------------------------------------
    def compare(self, shape, seed, index, expected, actual):
        torch = self.torch
        case = {"shape": shape["name"], "sizes": shape["sizes"], "seed": seed, "output": f"out{index}", "passed": False,
                "kind": "ok", "elements": 0, "mismatches": 0, "unwritten": 0, "nondeterministic": 0,
                "max_abs_error": 0.0, "max_rel_error": 0.0}
        if not isinstance(actual, torch.Tensor):
            case.update(kind="mismatch", detail=f"expected a tensor, got {type(actual).__name__}")
            return case
        case["elements"] = expected.numel()
        if tuple(actual.shape) != tuple(expected.shape) or actual.dtype != expected.dtype:
            case.update(kind="mismatch", mismatches=expected.numel(),
                        detail=f"expected {tuple(expected.shape)} {expected.dtype}, got {tuple(actual.shape)} {actual.dtype}")
            return case
        e = expected.to("cuda")
        a = actual.detach()
        if e.numel() == 0:
            case.update(passed=True)
            return case
        if e.is_floating_point():
            tol = self.job["tolerances"].get(dtype_name(torch, e.dtype), {"rtol": 1e-4, "atol": 1e-4})
            e64, a64 = e.double(), a.double()
            diff = (a64 - e64).abs()
            a_nan, e_nan = torch.isnan(a64), torch.isnan(e64)
            bad = ~(diff <= tol["atol"] + tol["rtol"] * e64.abs()) & ~(a_nan & e_nan)
            unwritten = int((a_nan & ~e_nan).sum())
            finite = ~(a_nan | e_nan) & torch.isfinite(diff)
            if bool(finite.any()):
                case["max_abs_error"] = float(diff[finite].max())
                case["max_rel_error"] = float((diff[finite] / e64.abs()[finite].clamp_min(1e-30)).max())
        else:
            bad = a != e
            unwritten = 0
        mismatches = int(bad.sum())
        case["mismatches"] = mismatches
        case["unwritten"] = unwritten
        if mismatches == 0:
            case["passed"] = True
            return case
        first = int(bad.flatten().nonzero()[0])
        case["first_mismatch"] = {"index": first, "expected": float(e.flatten()[first]), "actual": float(a.flatten()[first])}
        if unwritten == mismatches:
            case["kind"] = "unwritten"
        elif e.is_floating_point() and bool(torch.isnan(a.double()).any()):
            case["kind"] = "nan"
        elif not bool(a.any()) and bool(e.any()):
            case["kind"] = "all_zero"
        else:
            case["kind"] = "mismatch"
        return case

    def check(self, checks):
        torch = self.torch
        job = self.job
        # Expected outputs first, before any candidate code exists in this process.
        phase("reference outputs")
        cases = []
        # The configured seeds, plus seeds drawn now: a candidate cannot have
        # been fitted to inputs nobody knew before this run.
        fresh = [int.from_bytes(os.urandom(4), "little") for _ in range(job.get("fresh_seeds", 0))]
        for shape in job["check_shapes"]:
            for seed in list(job["seeds"]) + fresh:
                inputs, init = self.make_inputs(shape["sizes"], seed)
                ref = self.build(self.reference.Model, init, seed)
                with torch.no_grad():
                    expected = [t.detach().clone() for t in as_list(ref(*self.clone(inputs)))]
                state = {k: v.detach().clone() for k, v in ref.state_dict().items()}
                cases.append((shape, seed, inputs, init, expected, state))
                del ref
        torch.cuda.synchronize()

        phase("import")
        self.import_candidate()
        phase("check")
        for shape, seed, inputs, init, expected, state in cases:
            where = f"shape {shape['name']} seed {seed}"
            try:
                cand = self.build(self.candidate.ModelNew, init, seed, state)
                given = self.clone(inputs)
                self.poison_allocator(sum(t.numel() * t.element_size() for t in expected) * 2)
                with torch.no_grad():
                    out = as_list(cand(*given))
                torch.cuda.synchronize()
            except Finished:
                raise
            except Exception as exc:
                status, message = classify_exception(torch, exc, where)
                raise Finished(status, message, traceback.format_exc())
            for i, (orig, now) in enumerate(zip(inputs, given)):
                if isinstance(orig, torch.Tensor) and not torch.equal(orig, now):
                    checks.append({"shape": shape["name"], "sizes": shape["sizes"], "seed": seed, "output": f"input{i}",
                                   "passed": False, "kind": "modified_input", "elements": orig.numel(),
                                   "mismatches": int((orig != now).sum()), "unwritten": 0, "nondeterministic": 0,
                                   "max_abs_error": 0.0, "max_rel_error": 0.0})
                    raise Finished("wrong_answer", f"{where}: the candidate modified input {i} in place")
            if len(out) != len(expected):
                raise Finished("wrong_answer", f"{where}: the candidate returned {len(out)} outputs, the reference {len(expected)}")
            for i, (e, a) in enumerate(zip(expected, out)):
                case = self.compare(shape, seed, i, e, a)
                checks.append(case)
                if not case["passed"]:
                    detail = case.get("detail") or (
                        f"{case['mismatches']} of {case['elements']} elements wrong ({case['kind']})"
                        + (f", first at {case['first_mismatch']['index']}: expected {case['first_mismatch']['expected']:.6g}, "
                           f"got {case['first_mismatch']['actual']:.6g}" if "first_mismatch" in case else ""))
                    raise Finished("wrong_answer", f"{where}, output {i}: {detail}")

    def import_candidate(self):
        sys.path.insert(0, SRC)  # ks_params
        try:
            self.candidate = load_module("candidate", os.path.join(SRC, "candidate.py"))
        except Exception as exc:
            status, message = classify_exception(self.torch, exc, "importing the candidate")
            if status == "runtime_error":
                status = "compile_error"
            raise Finished(status, message, traceback.format_exc())
        if not hasattr(self.candidate, "ModelNew"):
            raise Finished("compile_error", "the candidate defines no class ModelNew (same constructor and forward as the reference's Model)")

    # ---- timing -------------------------------------------------------------
    def sync_overhead(self):
        torch = self.torch
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        samples = []
        for _ in range(50):
            start.record()
            torch.cuda.synchronize()
            end.record()
            end.synchronize()
            samples.append(start.elapsed_time(end) / 1e3)
        return statistics.median(samples)

    def time_shape(self, shape, overhead):
        torch = self.torch
        job = self.job
        seed = job["time_seed"]
        inputs, init = self.make_inputs(shape["sizes"], seed)
        ref = self.build(self.reference.Model, init, seed)
        state = {k: v.detach().clone() for k, v in ref.state_dict().items()}
        try:
            cand = self.build(self.candidate.ModelNew, init, seed, state)
        except Exception as exc:
            status, message = classify_exception(torch, exc, f"timing shape {shape['name']}")
            raise Finished(status, message, traceback.format_exc())
        runs = [("candidate", cand), ("reference", ref)]
        if job.get("compile_baseline", True):
            try:
                compiled = torch.compile(ref)
                with torch.no_grad():
                    compiled(*inputs)
                runs.append(("torch.compile", compiled))
            except Exception as exc:
                self.env.setdefault("baseline_errors", []).append(f"torch.compile: {type(exc).__name__}: {str(exc)[:300]}")
        # Larger than L2 several times over; zeroing it also keeps the GPU busy
        # while the host launches the timed call, so launch latency is not timed.
        flush = torch.empty(max(4 * self.l2_bytes, 256 << 20) // 4, dtype=torch.float32, device="cuda")
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

        # A busy wait on the GPU before the start event: the host launches the
        # call (Python, Triton's launcher, Inductor's guards: tens of µs) while
        # the GPU waits, so the start event marks the kernel's start, not the
        # host's; the synchronize before the end event still waits for every stream.
        sleep = getattr(torch.cuda, "_sleep", None)

        def timed(model):
            flush.zero_()
            if sleep is not None:
                sleep(1_000_000)
            start.record()
            model(*inputs)
            torch.cuda.synchronize()
            end.record()
            end.synchronize()
            return max(start.elapsed_time(end) / 1e3 - overhead, 1e-9)

        samples = {name: [] for name, _ in runs}
        with torch.no_grad():
            # Warm-up: JIT compilation, autotuning and allocator growth stay out of the numbers.
            for name, model in runs:
                t0 = time.perf_counter()
                n = 0
                while n < job["min_warmup"] or time.perf_counter() - t0 < job["warmup_s"] / len(runs):
                    try:
                        model(*inputs)
                    except Exception as exc:
                        if name != "candidate":
                            raise
                        status, message = classify_exception(torch, exc, f"timing shape {shape['name']}")
                        raise Finished(status, message, traceback.format_exc())
                    torch.cuda.synchronize()
                    n += 1
                    if n >= 1000:
                        break
            # The rep count from one more call of each, warm: a first call that
            # compiled (Inductor, Triton) must not shrink the sample.
            estimate = 0.0
            for name, model in runs:
                t0 = time.perf_counter()
                model(*inputs)
                torch.cuda.synchronize()
                estimate += time.perf_counter() - t0
            reps = int(min(job["max_reps"], max(job["min_reps"], job["time_budget_s"] / max(estimate, 1e-6))))
            # Round robin, so that clock and thermal drift fall on every kernel alike.
            for _ in range(reps):
                for name, model in runs:
                    samples[name].append(timed(model))

        def stats(name):
            s = sorted(samples[name])
            n = len(s)
            mean = statistics.fmean(s)
            return {"name": name, "median": statistics.median(s), "p10": s[int(0.1 * (n - 1))], "p90": s[int(0.9 * (n - 1))],
                    "mean": mean, "cv": (statistics.pstdev(s) / mean) if mean > 0 else 0.0, "min": s[0], "max": s[-1], "samples": s}

        cand_stats = stats("candidate")
        baselines = [stats(name) for name, _ in runs[1:]]
        return {"shape": shape["name"], "sizes": shape["sizes"], "bytes": shape.get("bytes", 0), "flops": shape.get("flops", 0),
                "warmup": job["min_warmup"], "reps": reps, "speedup": baselines[0]["median"] / cand_stats["median"],
                "candidate": cand_stats, "baselines": baselines}


def take_timing_lock():
    """Jobs that time kernels take turns on the host (the executor hands over
    a lock in KS_TIMING_LOCK_FD). Held from the first reference output to the
    end: another job's checks running on the GPU would slow the timed calls."""
    fd = os.environ.get("KS_TIMING_LOCK_FD")
    if not fd:
        return 0.0
    import fcntl

    t0 = time.perf_counter()
    try:
        fcntl.flock(int(fd), fcntl.LOCK_EX)
    except OSError:
        return 0.0
    return time.perf_counter() - t0


def main():
    with open(os.path.join(SRC, "torch_job.json")) as f:
        job = json.load(f)
    result = {"status": "infra_error", "message": "", "speedup": None, "implausible_speedup": False, "build_log": "",
              "checks": [], "timing": [], "phase_seconds": {}, "env": {}}
    t0 = time.perf_counter()
    harness = None
    try:
        phase("loading reference")
        try:
            import torch  # noqa: F401
        except Exception as exc:
            raise Finished("infra_error", f"PyTorch does not import on this host: {exc} (install torch, or point KS_PYTHON at a Python that has it)")
        harness = Harness(job)
        result["env"] = harness.env
        harness.reference = load_module("reference", os.path.join(SRC, "reference.py"))
        result["phase_seconds"]["setup"] = time.perf_counter() - t0
        if not job["check_only"]:
            result["phase_seconds"]["timing_lock_wait"] = take_timing_lock()
        t1 = time.perf_counter()
        harness.check(result["checks"])
        result["phase_seconds"]["check"] = time.perf_counter() - t1
        if not job["check_only"]:
            phase("time")
            t2 = time.perf_counter()
            overhead = harness.sync_overhead()
            result["env"]["sync_overhead_s"] = overhead
            for shape in job["time_shapes"]:
                result["timing"].append(harness.time_shape(shape, overhead))
            result["phase_seconds"]["time"] = time.perf_counter() - t2
            speedups = [t["speedup"] for t in result["timing"]]
            result["speedup"] = math.exp(sum(math.log(s) for s in speedups) / len(speedups)) if speedups else None
            result["implausible_speedup"] = bool(result["speedup"] and result["speedup"] > job["implausible_speedup"])
        result["status"] = "ok"
        result["message"] = "correct on every check shape" + ("" if job["check_only"] else f"; {result['speedup']:.3g}x the eager reference")
    except Finished as done:
        result["status"], result["message"] = done.status, done.message
        result["build_log"] = tail(done.log)
        result["speedup"] = None
        result["timing"] = []
    except Exception as exc:
        # The harness or the reference failed: not the candidate's doing unless its code is on the stack.
        tb = traceback.format_exc()
        status = "runtime_error" if "candidate.py" in tb else "infra_error"
        result["status"] = status
        result["message"] = ("the candidate raised " if status == "runtime_error" else "the harness failed: ") + \
            "".join(traceback.format_exception_only(type(exc), exc)).strip()
        result["build_log"] = tail(tb)
        result["speedup"] = None
        result["timing"] = []
    if harness is not None:
        result["env"] = harness.env
    phase("done")
    write_result(result)


if __name__ == "__main__":
    main()
