#!/usr/bin/env python3
# Kernelwright's judge for `torch` problems. Generated job dirs run it as
#   python3 src/torch_judge.py
# from the job dir; it reads src/torch_job.json and writes result.json (the
# format of docs/result-format.md). It needs PyTorch with a visible CUDA device.
#
# The judge never imports the candidate. It draws every input from a secret
# seed (never written where a candidate can read it before the verdict),
# builds the inputs and the models' parameters from the reference module (the
# problem's own code), keeps the expected outputs, the comparison and the
# clock, and writes result.json after every runner is gone. Models run in
# kernel runners (torch_runner.py), one Python process each: the reference,
# torch.compile of the reference, and the candidate, which imports only its
# module, torch and triton. Inputs reach runners as device allocations they
# map (torch_cuda.py); outputs come back as IPC handles of the runner's own
# memory, which the judge maps and reads itself.
#
# Timing: the judge's clock runs from sending "call" to receiving "done",
# after which the runner's process group is frozen (SIGSTOP) and the judge
# waits for the device to be idle (a probe kernel of its own comes back
# quickly only when no other context's work is left), so work on any stream,
# or queued after a forged "done", is inside the time. An empty call's cost
# (measured through the reference's runner, which no candidate can slow) is
# taken off every call, and so is what a call with work costs beyond the
# empty call and the device's time for that work (measured through the
# reference's runner and its CUDA events: the problem's word, never the
# candidate's); kernels shorter than a few hand-offs are called in
# batches over distinct input sets. Each timing shape has a pool of input sets
# whose contents are redrawn every round: every timed output of the candidate
# is checked against the reference's output for the same inputs, and every
# input is compared with a copy no runner holds after every call.
import collections
import importlib
import json
import math
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import time
import traceback

import torch_judge_ops
import torch_judge_protocol
from torch_judge_host import (become_subreaper, children_now, group_of, kill_descendants, mps_pipe, pin, signal_all, take_timing_lock,
                              task_room, timing_cpus, tree_of)
from torch_seccomp import confirmed as seccomp_confirmed, filters_of
from torch_judge_precision import paired_ratios, precise_enough, speedup_interval
from torch_judge_profile import run_ncu, write_profile
from torch_judge_scale import WholeOutput

SRC = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.dirname(SRC)
PHASE_FILE = os.path.join(JOB, "build", "phase")
MAX_REPLY = 8 << 20
MAX_BATCH = 64
# What CUDA says when it could not open a device: busy for a moment, or unable
# to start its threads within the job's task limit (the message then says how
# near the limit the job was). The job is run once more.
DEVICE_BUSY = ("busy or unavailable", "cudaErrorDevicesUnavailable", "Error 304", "OS call failed")
COMPARE_SLICE = 1 << 25  # elements of an output compared at once (float64 temporaries: 256 MiB each)


def clean(x):
    """Non-finite numbers as the strings result.json uses; everything JSON can hold."""
    if isinstance(x, float) and not math.isfinite(x):
        return "nan" if x != x else ("inf" if x > 0 else "-inf")
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if isinstance(x, str):
        return x.encode("utf-8", "replace").decode("utf-8")
    if isinstance(x, (int, float, bool)) or x is None:
        return x
    return str(x)


def write_result(result):
    tmp = os.path.join(JOB, "result.json.tmp")
    try:
        os.unlink(tmp)
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w") as f:
        json.dump(clean(result), f, allow_nan=False)
    os.replace(tmp, os.path.join(JOB, "result.json"))


def phase(name):
    os.makedirs(os.path.dirname(PHASE_FILE), exist_ok=True)
    with open(PHASE_FILE, "w") as f:
        f.write(name + "\n")


def tail(text, limit=20000):
    return text if len(text) <= limit else "...\n" + text[-limit:]


def mix(a, b):
    """Two 64-bit values into one (splitmix64 of their combination)."""
    z = (a * 0x9E3779B97F4A7C15 + b + 0x632BE59BD9B4E5) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def fresh_seed():
    """A generator seed for runners' compared calls: drawn afresh, so that it
    tells a candidate nothing of the secret or of later inputs."""
    return int.from_bytes(os.urandom(8), "little")


class Finished(Exception):
    """Ends the run with a status and a message."""

    def __init__(self, status, message, log=""):
        super().__init__(message)
        self.status, self.message, self.log = status, message, log


def stats(samples):
    s = sorted(samples)
    n = len(s)
    if n == 0:
        return {"median": 0.0, "p10": 0.0, "p90": 0.0, "mean": 0.0, "cv": 0.0, "min": 0.0, "max": 0.0, "samples": []}

    def pct(p):
        idx = p * (n - 1)
        lo = int(idx)
        hi = min(lo + 1, n - 1)
        return s[lo] + (s[hi] - s[lo]) * (idx - lo)

    mean = sum(s) / n
    var = sum((x - mean) ** 2 for x in s) / (n - 1) if n > 1 else 0.0
    return {"median": pct(0.5), "p10": pct(0.1), "p90": pct(0.9), "mean": mean, "cv": math.sqrt(var) / mean if mean > 0 else 0.0,
            "min": s[0], "max": s[-1], "samples": list(samples)}


def paired_speedup(slow, fast):
    """The median of each round's ratio: drift of the machine falls on both kernels of a round and cancels."""
    r = paired_ratios(slow, fast)
    return stats(r)["median"] if r else 0.0


class RunnerFailure(Exception):
    def __init__(self, runner, kind, message, trace=""):
        super().__init__(message)
        self.runner, self.kind, self.message, self.trace = runner, kind, message, trace


# ------------------------------------------------------------------ runners ---
RUNNER_NAMES = {"candidate": "candidate", "reference": "reference", "compiled": "torch.compile"}


class Runner:
    """One kernel runner: a Python process hosting one model, frozen whenever
    it is not answering the judge."""

    def __init__(self, judge, name, role):
        self.judge, self.name, self.role = judge, name, role
        self.candidate = role == "candidate"
        self.seq = 0
        self.frozen = False
        self.dead = False
        self.killed_by_judge = False
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = {k: v for k, v in os.environ.items() if k not in ("KW_TIMING_LOCK_FD", "PYTORCH_CUDA_ALLOC_CONF", "PYTHONPATH")}
        env["KW_JUDGE_FD"] = str(child.fileno())
        cwd = JOB
        if self.candidate:
            # Under the runner's seccomp filter (no setsid) inductor's pool of
            # compile workers is not needed: a candidate that calls
            # torch.compile compiles in its own process.
            env["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
            # Its own folder for everything it writes (torch_landlock keeps it
            # there): its module (so a .cu written next to __file__ lands
            # there), temporary files, HOME and every compiler's cache, apart
            # from the problem's runners' caches.
            cwd = candidate_folder()
            env.update(KW_CANDIDATE_DIR=cwd, TMPDIR=os.path.join(cwd, "tmp"), HOME=os.path.join(cwd, "home"),
                       XDG_CACHE_HOME=os.path.join(cwd, "cache"), TRITON_CACHE_DIR=os.path.join(cwd, "cache", "triton"),
                       TORCHINDUCTOR_CACHE_DIR=os.path.join(cwd, "cache", "inductor"),
                       TORCH_EXTENSIONS_DIR=os.path.join(cwd, "cache", "extensions"))
        self.apart = []  # processes of this runner's tree outside its group, stopped with it
        self.seccomp = None  # the candidate's runner: "on", or why not (confinement)
        self.files = None  # the candidate's runner: where it may write
        self.err_path = os.path.join(JOB, "build", f"runner-{name.replace('.', '_')}.err")
        err = open(self.err_path, "wb")
        self.proc = subprocess.Popen([sys.executable, os.path.join(SRC, "torch_runner.py"), role], pass_fds=[child.fileno()], env=env,
                                     stdin=subprocess.DEVNULL, stdout=err, stderr=err, start_new_session=True, cwd=cwd)
        err.close()
        child.close()
        self.sock = parent

    def stderr_text(self, limit=2000):
        try:
            with open(self.err_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - limit))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def death_text(self):
        rc = self.proc.poll()
        if rc is None:
            return "stopped answering"
        if rc < 0:
            try:
                return f"crashed ({signal.Signals(-rc).name})"
            except ValueError:
                return f"crashed (signal {-rc})"
        return f"exited (status {rc})"

    def freeze(self, between=None):
        """Stops the runner's process group; `between` runs while waiting
        (the judge probes the device meanwhile)."""
        if self.dead or self.frozen:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGSTOP)
        except ProcessLookupError:
            return
        # Stopped before anything else happens: poll the process's state.
        path = f"/proc/{self.proc.pid}/stat"
        for _ in range(2000):
            try:
                with open(path) as f:
                    state = f.read().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                break
            if state in ("T", "t", "Z", "X"):
                break
            if between is not None:
                between()
            else:
                time.sleep(0.0001)
        # A process of the runner's that made a group of its own (setpgid:
        # ninja does it for every compiler it starts) is not reached by the
        # group's signal: stopped one by one, until the tree holds no
        # running process outside the group.
        for _ in range(8):
            more = [p for p in tree_of(self.proc.pid) if p not in self.apart and group_of(p) not in (None, self.proc.pid)]
            if not more:
                break
            self.apart += signal_all(more, signal.SIGSTOP)
        if self.judge is not None:
            self.judge.kill_strays()
        self.frozen = True

    def thaw(self):
        if self.frozen and not self.dead:
            try:
                os.killpg(self.proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            signal_all(self.apart, signal.SIGCONT)
        self.apart = []
        self.frozen = False

    def kill(self):
        if self.dead and self.sock is None:
            return
        self.dead = True
        self.killed_by_judge = True
        tree = tree_of(self.proc.pid)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        signal_all(tree, signal.SIGKILL)  # the tree's members in groups of their own
        self.apart = []
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        cuda = getattr(self.judge, "cuda", None)
        if cuda is not None:
            try:
                cuda.close_all(self.name)  # no mapping holds a dead runner's memory
            except Exception:
                pass  # the judge's own device state is reported where it is used

    def confinement(self, why_not):
        """Records the candidate runner's seccomp filter, confirmed from /proc
        (the runner's word, sent before any of the candidate's code ran, says
        why it is missing): more filters than the judge's own."""
        if why_not == "":
            if not seccomp_confirmed(self.proc.pid, os.getpid()):
                raise RunnerFailure(self, "infra", f"the kernel runner reported its seccomp filter installed, but /proc shows "
                                                   f"{filters_of(self.proc.pid)} filter(s) against the judge's {filters_of(os.getpid())}")
            state = "on"
        else:
            state = f"off: {why_not}"
        if self.judge is not None:
            self.judge.env["seccomp"] = state
        self.seccomp = state

    def pending(self):
        """True when the runner wrote something nobody asked for."""
        r, _, _ = select.select([self.sock], [], [], 0)
        return bool(r)

    def send(self, msg, fds=()):
        if self.dead or self.sock is None:
            raise RunnerFailure(self, "runtime_error", "is gone")
        # A message waiting before the request exists was written ahead of
        # time (a forged answer): the runner speaks only when asked.
        if self.pending():
            self.kill()
            raise RunnerFailure(self, "runtime_error", "wrote to the judge before it was asked (an answer prepared ahead of its request)")
        self.thaw()
        self.seq = int.from_bytes(os.urandom(7), "little") + 1  # unpredictable: no answer can be written before its request
        msg = dict(msg, seq=self.seq)
        data = pickle.dumps(msg)
        head = struct.pack("<I", len(data))
        try:
            if fds:
                socket.send_fds(self.sock, [head], list(fds))
                self.sock.sendall(data)
            else:
                self.sock.sendall(head + data)
        except OSError:
            failure = self.failure("", "while the judge sent it work")
            self.kill()
            raise failure
        return self.seq

    def _exactly(self, n, deadline):
        out = bytearray()
        while len(out) < n:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                raise TimeoutError
            chunk = self.sock.recv(min(n - len(out), 1 << 20))
            if not chunk:
                raise EOFError
            out += chunk
        return bytes(out)

    def receive(self, seq, limit, where):
        """The runner's answer to message `seq` (JSON, checked); a failure of
        the runner raises RunnerFailure."""
        deadline = time.perf_counter() + limit
        while True:
            try:
                (n,) = struct.unpack("<I", self._exactly(4, deadline))
                if n > MAX_REPLY:
                    raise RunnerFailure(self, "runtime_error", f"sent the judge a message of {n} bytes {where} (the most is {MAX_REPLY})")
                msg = json.loads(self._exactly(n, deadline).decode("utf-8", "replace"))
            except TimeoutError:
                self.kill()
                raise RunnerFailure(self, "timeout", f"exceeded its time limit of {limit:.3g} s {where}")
            except (EOFError, OSError):
                # The runner closed its end (or reset it): dead, or as good as dead.
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
                failure = self.failure("", where)
                self.kill()
                raise failure
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise RunnerFailure(self, "runtime_error", f"sent the judge a malformed message {where}")
            if not isinstance(msg, dict):
                raise RunnerFailure(self, "runtime_error", f"sent the judge a malformed message {where}")
            if msg.get("type") == "error":
                kind = msg.get("kind") if msg.get("kind") in ("oom", "compile_error", "runtime_error") else "runtime_error"
                raise RunnerFailure(self, kind, f"raised {where}: {str(msg.get('message', ''))[:2000]}", str(msg.get("trace", ""))[:8000])
            if msg.get("seq") != seq:
                # Every request is answered before the next is sent, so an answer
                # to something else is the runner's own invention.
                self.kill()
                raise RunnerFailure(self, "runtime_error", f"answered something it was not asked {where}")
            return msg

    def failure(self, what, where):
        text = what or self.death_text()
        err = self.stderr_text()
        if "CUDA out of memory" in err or "OutOfMemoryError" in err:
            return RunnerFailure(self, "oom", f"ran out of GPU memory {where}", err)
        return RunnerFailure(self, "runtime_error", f"{text} {where}", err)

    def request(self, msg, limit, where, fds=()):
        seq = self.send(msg, fds)
        reply = self.receive(seq, limit, where)
        self.freeze()
        return reply

    def begin(self):
        """Lets the runner touch the device (it has imported torch and waits
        for this); a runner already gone is reported by `start`."""
        if self.candidate:
            # From here on a kill of the judge is likely the candidate's doing
            # (Kernelwright reads this marker when the judge dies early).
            sys.stderr.write(f"\nKW-CANDIDATE-RUNNER pid={self.proc.pid}\n")
            sys.stderr.flush()
        data = pickle.dumps({"op": "begin"})
        try:
            self.sock.sendall(struct.pack("<I", len(data)) + data)
        except OSError:
            pass

    def start(self, limit):
        """Waits for the runner's own word (before any of the model's code ran),
        then for the model's module to import."""
        try:
            hello = self.receive(0, limit, "while starting")
        except RunnerFailure as f:
            raise RunnerFailure(self, "infra", f"the kernel runner did not start: {f.message}", f.trace)
        if hello.get("type") != "ready":
            raise RunnerFailure(self, "runtime_error", "spoke for its kernel runner while starting")
        if not hello.get("ok"):
            raise RunnerFailure(self, "infra", str(hello.get("message", "the kernel runner cannot start"))[:2000])
        if self.candidate:
            self.confinement(str(hello.get("seccomp", "not reported"))[:300])
            files = str(hello.get("files", "not reported"))[:300]
            self.files = "own folder" if files == "" else f"anywhere its user may: {files}"
            if self.judge is not None:
                self.judge.env["files"] = self.files
                if files != "" and files_confined():
                    # The rules allowed files on the word that they would be
                    # confined, and they are not: judged as on a host without.
                    why = rule_violations(self.judge.job, confined=False)
                    if why:
                        raise Finished("sandbox_violation", why + f"\n  (this runner could not confine its writes: {files})")
        loaded = self.receive(0, limit, "while importing its module")
        if loaded.get("type") != "loaded":
            raise RunnerFailure(self, "runtime_error", "sent something else than its module's import status")
        if not loaded.get("ok"):
            kind = loaded.get("kind") if loaded.get("kind") in ("oom", "compile_error") else "compile_error"
            raise RunnerFailure(self, kind, f"could not be imported: {str(loaded.get('message', ''))[:2000]}", str(loaded.get("trace", ""))[:8000])
        self.freeze()


# --------------------------------------------------------------- input sets ---
class InputSet:
    """One set of a model's inputs (and the parameters it is built with) in
    one device allocation runners map; a pristine copy only the judge holds."""

    counter = 0

    def __init__(self, judge, values):
        torch = judge.torch
        InputSet.counter += 1
        self.id = f"s{InputSet.counter}"
        self.judge = judge
        offsets, total = [], 0
        for v in values:
            if isinstance(v, torch.Tensor):
                offsets.append(total)
                total += (v.numel() * v.element_size() + 511) // 512 * 512
            else:
                offsets.append(None)
        self.alloc = judge.cuda.alloc_shared(max(total, 512))
        self.views, self.specs, self.pristine = [], [], []
        for v, off in zip(values, offsets):
            if isinstance(v, torch.Tensor):
                v = v.to(getattr(judge, "device", "cuda")).contiguous()
                t = self.alloc.tensor(list(v.shape), list(v.stride()), v.dtype, off)
                t.copy_(v)
                self.views.append(t)
                # The drawn tensor itself is the pristine copy: callers hand
                # over fresh draws and never write them (a second copy of a
                # 16 GiB input did not fit beside the rest on an H100).
                self.pristine.append(v)
                self.specs.append(("t", self.id, list(v.shape), list(v.stride()), str(v.dtype).replace("torch.", ""), off))
            else:
                self.views.append(v)
                self.pristine.append(None)
                self.specs.append(("v", v))
        self.bytes = total
        self.holders = set()  # names of the runners that map it

    def refill(self, values):
        """New contents, same addresses (a fresh draw for every round); False,
        with nothing changed, when the draw's shapes differ (inputs whose
        sizes depend on the draw, as ragged batches): the caller replaces
        the set."""
        torch = self.judge.torch
        if len(values) != len(self.views):
            return False
        for v, t in zip(values, self.views):
            if isinstance(v, torch.Tensor) != isinstance(t, torch.Tensor):
                return False
            if isinstance(v, torch.Tensor) and (tuple(v.shape) != tuple(t.shape) or v.dtype != t.dtype):
                return False
            if not isinstance(v, torch.Tensor) and v != t:
                return False
        for i, v in enumerate(values):
            if isinstance(v, torch.Tensor):
                self.views[i].copy_(v)
                # The fresh draw is the pristine copy, as when the set was made.
                self.pristine[i] = v.to(self.views[i].device).contiguous()
        return True

    def release_pristine(self):
        """Lets the pristine copies go before the next draw, which becomes
        them (refill): the set, its pristine copy and a new draw of an 8 GiB
        input did not fit beside the runners on an 80 GB H100 (KernelBench
        level 1, conv_standard_1d_dilated_strided). Only between rounds: a
        call's inputs are checked against them right after it."""
        self.pristine = [None] * len(self.pristine)

    def intact(self):
        """The index of the first input a call changed (restored), or -1."""
        torch = self.judge.torch
        bad = -1
        for i, (t, p) in enumerate(zip(self.views, self.pristine)):
            if isinstance(t, torch.Tensor) and t.numel() and not same_bytes(torch, t, p):
                t.copy_(p)
                bad = i if bad < 0 else bad
        return bad

    def free(self):
        self.views, self.pristine = [], []
        self.alloc.free()


def same_bytes(torch, a, b):
    """Whether two contiguous tensors of one shape and dtype hold the same
    bytes (not values: NaN is not equal to itself). Compared a slice at a
    time: torch.equal makes a temporary of one bool per element, and a whole
    8 GiB input's did not fit beside the runners on an 80 GB H100."""
    a, b = a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8)
    # Eight bytes an element (an eighth of the temporaries) where both start
    # on an 8-byte boundary: a drawn input may be a slice 4 bytes into its storage.
    if a.numel() % 8 == 0 and a.storage_offset() % 8 == 0 and b.storage_offset() % 8 == 0:
        a, b = a.view(torch.int64), b.view(torch.int64)
    return all(torch.equal(a[s:s + COMPARE_SLICE], b[s:s + COMPARE_SLICE]) for s in range(0, a.numel(), COMPARE_SLICE))


# -------------------------------------------------------------------- judge ---
class Judge:
    def __init__(self, job, result, prestarted=None):
        self.job, self.result = job, result
        self.prestarted = prestarted if prestarted is not None else {}
        import torch

        import torch_cuda

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
        try:
            self.cuda = torch_cuda.Driver()
        except torch_cuda.CudaError as e:
            raise Finished("infra_error", f"the judge cannot share device memory with its runners: {e}")
        self.l2_bytes = getattr(props, "L2_cache_size", 50 << 20) or (50 << 20)
        self.flush_buf = torch.empty(max(4 * self.l2_bytes, 256 << 20) // 4, dtype=torch.float32, device="cuda")
        self.probe_buf = torch.zeros(1, dtype=torch.float32, device="cuda")
        self.flush_reps = self.lead_flush()
        from torch_runner import load_module  # the runner's loader; at import, torch_runner loads only the standard library

        from torch_sizes import derived_assignments

        self.reference = load_module("reference", os.path.join(SRC, "reference.py"))
        with open(os.path.join(SRC, "reference.py"), encoding="utf-8") as f:
            self.derived = derived_assignments(f.read())  # input_shape = (batch_size, ...): follows each shape's sizes
        self.runners = {}
        self.live = set()  # input sets mapped by runners
        self.trusted_handles = set()  # output allocations of the reference's and the baseline's runners
        self.compile_failed = False
        self.secret = 0
        self.idle_probe = self.measure_probe()
        # Seconds by part of the run (verify, freeze, refresh, and where check and time went).
        self.seconds = collections.defaultdict(float, verify=0.0, freeze=0.0, refresh=0.0)
        self.profile_files = {}  # profile/<name> -> text, written once every runner is gone
        self.profile_notes = {}  # tool -> why it gave nothing (profile/unavailable-<tool>.txt)

    # ---- the device ---------------------------------------------------------
    def probe(self):
        t0 = time.perf_counter()
        self.probe_buf.add_(1.0)
        self.torch.cuda.synchronize()
        return time.perf_counter() - t0

    def lead_flush(self):
        """How many flushes make up the lead before each call (KW_JUDGE_LEAD_US,
        default 1000 us). An H100 host's hand-off took 450-550 us both ways
        and a Triton kernel's first set after the runner was frozen
        354-553 us of its Python (under the profiler; in a plain process
        417 us after 10 ms idle, 84 us back to back): with a 500 us lead
        the device waited for it, 130-240 us a call (rmsnorm's seeds 109
        and 206 us a set, 96 and 176 us with 1000; eager references
        unchanged). What a longer lead costs: a call whose launching
        outlasts its device work is read short by the lead beyond the
        hand-off (about 300-400 us a call on that host; the empty call grew
        by that much), spread over the call's sets."""
        torch = self.torch
        try:
            lead = float(os.environ.get("KW_JUDGE_LEAD_US", "1000")) * 1e-6
        except ValueError:
            lead = 1000e-6
        if not math.isfinite(lead) or lead < 0:
            lead = 0.0  # one flush, as before the lead
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(5):
            a.record()
            self.flush_buf.zero_()
            b.record()
            b.synchronize()
            times.append(a.elapsed_time(b) * 1e-3)
        one = max(sorted(times)[2], 1e-6)
        reps = max(1, min(64, math.ceil(lead / one)))
        self.lead_s = reps * one
        self.env["lead_flush"] = {"flushes": reps, "us": round(self.lead_s * 1e6, 1)}
        return reps

    def measure_probe(self):
        t = sorted(self.probe() for _ in range(50))
        return t[len(t) // 2]

    def quick(self):
        """The longest a probe takes on a device no other context uses."""
        return max(4 * self.idle_probe, self.idle_probe + 40e-6)

    def drain(self, limit):
        """Waits until no other context's work is left on the device: GPU time
        slices go to one context at a time, so while a runner's kernel still
        runs, a probe of the judge's waits far longer than on an idle device.
        Returns the probes it took (3 when the device was idle), 0 past `limit`."""
        return len(self.drain_probes(limit))

    def drain_probes(self, limit):
        """`drain`, returning each probe's seconds ([] past `limit`)."""
        quick = self.quick()
        start = time.perf_counter()
        in_a_row = 0
        probes = []
        # Three quick probes in a row: one can fall between two time slices.
        while in_a_row < 3:
            probes.append(self.probe())
            in_a_row = in_a_row + 1 if probes[-1] <= quick else 0
            if time.perf_counter() - start > limit:
                return []
        return probes

    # ---- runners --------------------------------------------------------------
    def runner(self, role):
        name = RUNNER_NAMES[role]
        r = self.runners.get(name)
        if r is None:
            phase("loading the reference" if role != "candidate" else "loading the candidate")
            r = self.prestarted.pop(role, None)
            if r is None:
                # Not started with the others: it may touch the device at once
                # (the judge holds the timing lock by now).
                r = Runner(self, name, role)
                r.begin()
            r.judge = self
            self.runners[name] = r
            try:
                # Importing a module may build inline CUDA (load_inline): a compiler's time.
                r.start(max(120.0, 2 * self.job.get("compile_allowance_s", 60)))
            except RunnerFailure as f:
                self.fail_runner(f, "while loading")
        return r

    def fail_runner(self, f, where=""):
        """A runner's failure as the verdict: the candidate's failures are its
        own; the problem's kernels failing is never the candidate's fault."""
        r = f.runner
        if f.kind == "infra":
            raise Finished("infra_error", f.message, f.trace)
        if r.candidate:
            raise Finished(f.kind, f"the candidate {f.message}", f.trace)
        raise Finished("infra_error", f"the problem's {r.name} {f.message} (the problem's fault; no candidate was charged)", f.trace)

    def share(self, runners, s):
        for r in runners:
            try:
                r.request({"op": "sets", "maps": [(s.id, s.alloc.size, 0)], "sets": {s.id: s.specs}}, 60, "while mapping inputs", fds=[s.alloc.fd])
            except RunnerFailure as f:
                self.fail_runner(f)
            s.holders.add(r.name)
        self.live.add(s)

    def forget_in(self, r, s):
        """One runner lets go of a set (the set itself stays)."""
        try:
            r.request({"op": "forget", "ids": [s.id], "unmap": [s.id]}, 60, "while unmapping inputs")
        except RunnerFailure as f:
            self.fail_runner(f)
        s.holders.discard(r.name)

    def forget(self, runners, s):
        for r in runners:
            if not r.dead:
                try:
                    r.request({"op": "forget", "ids": [s.id], "unmap": [s.id]}, 60, "while unmapping inputs")
                except RunnerFailure as f:
                    self.fail_runner(f)
        self.live.discard(s)
        s.free()

    def load(self, runners, sizes, seed, init, state_set, state_names):
        state = {name: state_set.specs[i] for i, name in enumerate(state_names)}
        for r in runners:
            try:
                r.request({"op": "load", "sizes": sizes, "seed": seed & 0x7FFFFFFFFFFFFFFF, "init": init, "state": state}, max(120.0, self.job.get("call_timeout_s", 60)),
                          "while building its model")
            except RunnerFailure as f:
                self.fail_runner(f)

    def give_room(self, runners):
        """Every kernel timed together gets the same room on the device, its
        model included: an equal part of four fifths of what is free and what
        the problem's own runners hold (the rest stays the judge's: more input
        sets, comparisons). What the candidate holds is not counted in: a
        candidate that kept memory to crowd the reference out of its
        workspace has no room left for itself. Each one's room in bytes; 0
        where the device is not CUDA's."""
        if getattr(self, "device", "cuda") != "cuda" or not runners:
            return 0
        held = 0
        for r in runners:
            if not r.candidate:
                try:
                    held += int(r.request({"op": "held"}, 60, "while asking what it holds on the device").get("held", 0))
                except RunnerFailure as f:
                    self.fail_runner(f)
        room = int(0.8 * (self.torch.cuda.mem_get_info()[0] + held) / len(runners))
        for r in runners:
            try:
                r.request({"op": "room", "room": room}, 60, "while giving it its room on the device")
            except RunnerFailure as f:
                self.fail_runner(f)
        return room

    def call(self, r, sets, limit, where, poison=0, touch=False, flush=False, seed=None):
        """One hand-off: (seconds on the judge's clock, [outputs per set]).
        `flush` evicts the inputs from L2 first (every timed call, and the
        empty calls whose cost is taken off them). `seed`: the runner seeds
        torch's generators with it just before the call, so that a reference
        drawing random numbers in its forward answers alike in every runner
        (every call whose outputs are compared gets one)."""
        self.cuda.next_call(r.name)
        # Nothing of anyone's is left on the device when the clock starts.
        self.torch.cuda.synchronize()
        self.drain(max(limit, 1.0))
        if flush:
            # Launched, not waited for: the device stays busy through the
            # hand-off. A device idle for a few hundred microseconds before a
            # kernel runs that kernel far slower (on an H200, eager softmax
            # 222 -> 281 us and its Triton seed 167 -> 319 us after 0.3 ms
            # idle), which would charge the hand-off's idleness to the kernel.
            # The runner's work queues behind the flush; the empty calls
            # taken off every call include it the same way. The flush is
            # repeated to last about the lead (lead_flush): the runner's first
            # kernel is then queued before the device runs out of work. With
            # one flush (70 us on an H100) the device waited for the first
            # set's Python (the hand-off, the forward's own set-up, a Triton
            # or torch.compile launch): the first set of a call took 100-240
            # us more device time than the others for compiled and Triton
            # kernels, 30 us for eager ones. The flush is work, not a clock:
            # nothing of another context's can run hidden inside it.
            for _ in range(self.flush_reps):
                self.flush_buf.zero_()
        try:
            t0 = time.perf_counter()
            msg = {"op": "call", "ids": [s.id for s in sets], "poison": poison, "touch": touch}
            if seed is not None:
                msg["seed"] = seed
            seq = r.send(msg)
            reply = r.receive(seq, limit, where)
        except RunnerFailure as f:
            self.fail_runner(f)
        t1 = time.perf_counter()
        # The clock stops when a probe right after the answer finds the device
        # idle (a probe waits for whatever the runner left running, so that
        # is charged), and goes on for every later probe that was slow while
        # the runner was stopped and until three in a row found the device
        # idle: a slow probe waited for work of another context (what a
        # runner or a helper of its left running), so its whole length is
        # charged. Charging the whole span to the idle device instead for one
        # slow probe made a call's cost a coin toss: on an H100 host one call
        # in three or more met a single slow probe, adding 250-400 us.
        watch = [self.probe()]
        t_idle = time.perf_counter()
        r.freeze(between=lambda: watch.append(self.probe()))
        drained = self.drain_probes(max(limit, 1.0))
        if not drained:
            r.kill()
            self.fail_runner(RunnerFailure(r, "timeout", f"left work on the device that did not end within {max(limit, 1.0):.3g} s {where}"))
        t2 = time.perf_counter()
        probes = len(drained)
        quick = self.quick()
        t_end = t_idle + sum(p for p in watch[1:] + drained if p > quick)
        self.seconds["freeze"] += t2 - t1
        sent = reply.get("self_timed")
        told = torch_judge_protocol.reported_seconds(sent)
        if told is None:
            self.fail_runner(RunnerFailure(r, "runtime_error", "reported a call's parts as " + torch_judge_protocol.describe(sent) +
                                           f", not durations in seconds, {where}"))
        self.last_parts = (t1 - t0, t_end - t1, watch[0], max(watch[1:], default=0.0), probes, told)
        if reply.get("type") != "done":
            self.fail_runner(RunnerFailure(r, "runtime_error", f"answered a call with something else than its outputs {where}"))
        outs = reply.get("outputs")
        if not isinstance(outs, list) or len(outs) != len(sets):
            self.fail_runner(RunnerFailure(r, "runtime_error", f"answered for {len(outs) if isinstance(outs, list) else 'no'} input sets, not {len(sets)}, {where}"))
        # Inputs must be as the judge wrote them: a write shows here (and is
        # undone). Every set the runner holds, not only the call's: a write into
        # another set must not be blamed on the next kernel that reads it.
        v0 = time.perf_counter()
        first_bad = -1
        for s in list(self.live):
            if r.name not in s.holders:
                continue
            bad = s.intact()  # restores what was changed, in every set, before anyone is blamed
            if bad >= 0 and first_bad < 0:
                first_bad = bad
        self.seconds["verify"] += time.perf_counter() - v0
        if first_bad >= 0:
            who = "the candidate" if r.candidate else f"the problem's {r.name}"
            raise Finished("wrong_answer" if r.candidate else "infra_error", f"{who} modified input {first_bad} in place {where} (inputs are read-only)")
        return t_end - t0, outs

    def outputs(self, r, descs, where):
        """The tensors a runner's descriptors name: views of the runner's
        memory, read in place. They hold until the runner's next call (the
        runner keeps its last outputs, and it is frozen, its device work
        drained, whenever the judge reads them); a copy would hold each of
        KernelBench's 6 GiB outputs twice more on the device."""
        out = []
        for i, d in enumerate(descs if isinstance(descs, list) else []):
            # Memory the problem's runners own is never the candidate's answer.
            if r.candidate and isinstance(d, dict) and d.get("handle") in self.trusted_handles:
                raise Finished("wrong_answer", f"the candidate returned another runner's memory as output {i} {where}")
            if not r.candidate and isinstance(d, dict) and isinstance(d.get("handle"), str):
                self.trusted_handles.add(d["handle"])
            if isinstance(d, dict) and "not_a_tensor" in d:
                raise Finished("wrong_answer" if r.candidate else "infra_error",
                               f"{'the candidate' if r.candidate else r.name} returned a {str(d['not_a_tensor'])[:40]} as output {i} {where}, not a tensor")
            who = "the candidate" if r.candidate else f"the problem's {r.name}"
            try:
                out.append(self.cuda.open(d, r.name))
            except Exception as e:
                self.cuda.close_all(r.name)
                if out_of_memory(e):
                    # The judge's own memory, not any runner's fault: the device
                    # (a problem's tensors held by the judge and every runner) or
                    # the job's host memory limit (it counts every mapping).
                    device = "CUDA out of memory" in str(e) or type(e).__name__ == "OutOfMemoryError"
                    fix = ("the device holds the problem's tensors in the judge and every runner: a smaller time shape, "
                           "or a device with more memory" if device else "give each job more memory (fewer workers)")
                    raise Finished("infra_error", f"the judge ran out of {'device' if device else 'host'} memory reading output {i} "
                                                  f"of the {r.name}'s runner {where} ({str(e)[:200]}); {fix}")
                raise Finished("runtime_error" if r.candidate else "infra_error",
                               f"{who} returned output {i} {where} that the judge cannot read: {str(e)[:300]}")
        # The mappings stay open while the runner reuses its memory (see
        # torch_cuda.Driver.next_call).
        return out

    def kill_strays(self):
        """Kills the judge's children that are no runner: processes a runner
        started whose parent died (a double fork), which came back to the
        judge as their subreaper; nothing of a candidate's runs outside a
        runner's tree, where a freeze reaches it."""
        known = {r.proc.pid for r in list(self.runners.values()) + list(self.prestarted.values())}
        strays = [p for p in children_now(os.getpid()) if p not in known]
        if not strays:
            return
        signal_all(strays, signal.SIGKILL)
        for p in strays:  # reaped when already gone; kill_descendants reaps the rest at the end
            try:
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass
        self.env["strays_killed"] = self.env.get("strays_killed", 0) + len(strays)

    def stop_runners(self):
        for r in self.runners.values():
            r.kill()
        self.runners = {}
        self.cuda.close_all()

    # ---- inputs ---------------------------------------------------------------
    def draw(self, sizes, seed):
        """The reference module's inputs and constructor arguments for a shape, from `seed`."""
        from torch_sizes import apply_sizes

        torch = self.torch
        apply_sizes(self.reference, sizes, self.derived)
        torch.manual_seed(seed & 0x7FFFFFFFFFFFFFFF)
        with torch.device("cuda"):
            inputs = list(self.reference.get_inputs())
            init = list(self.reference.get_init_inputs())
        inputs = [x.cuda() if isinstance(x, torch.Tensor) else x for x in inputs]
        return inputs, init

    def parameters(self, init, seed):
        """The reference model's parameters and buffers, built as runners build it."""
        torch = self.torch
        torch.manual_seed(seed & 0x7FFFFFFFFFFFFFFF)
        with torch.device("cuda"):
            model = self.reference.Model(*init)
        model = model.cuda().eval()
        state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        del model
        return state

    # ---- comparison -----------------------------------------------------------
    def compare(self, shape, seed, index, expected, actual, kind=None, errors=True):
        """A check case for one output; `errors` False skips measuring the
        error of an output that passes (the timed rounds': only a failure
        is recorded, and the full comparison of 100s of MiB in float64 would
        take most of a round)."""
        torch = self.torch
        # "seed" stays a number for readers of result.json; a draw with no
        # configured seed (a fresh one, a timed round) is named in "draw".
        case = {"shape": shape["name"], "sizes": shape["sizes"], "seed": seed if isinstance(seed, int) else 0,
                "output": f"out{index}", "passed": False,
                "kind": "ok", "elements": expected.numel(), "mismatches": 0, "unwritten": 0, "nondeterministic": 0,
                "max_abs_error": 0.0, "max_rel_error": 0.0}
        if not isinstance(seed, int):
            case["draw"] = str(seed)
        if kind:
            case["call"] = kind
        if tuple(actual.shape) != tuple(expected.shape) or actual.dtype != expected.dtype:
            case.update(kind="mismatch", mismatches=expected.numel(),
                        detail=f"expected {tuple(expected.shape)} {expected.dtype}, got {tuple(actual.shape)} {actual.dtype}")
            return case
        if expected.numel() == 0:
            case.update(passed=True)
            return case
        e, a = expected, actual
        if e.is_floating_point():
            names = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16", torch.bfloat16: "bf16"}
            tol = self.job["tolerances"].get(names.get(e.dtype, ""), {"rtol": 1e-4, "atol": 1e-4})
        # Compared a slice at a time: float64 temporaries of a whole output
        # (KernelBench's reach 6 GiB in float32) would not fit beside it.
        ef, af = e.reshape(-1), a.reshape(-1)
        slices = [(s, ef[s:s + COMPARE_SLICE], af[s:s + COMPARE_SLICE]) for s in range(0, ef.numel(), COMPARE_SLICE)]
        if not errors:
            if torch.equal(a, e):
                case["passed"] = True
                return case
            if e.is_floating_point():
                wide = torch.float64 if e.dtype == torch.float64 else torch.float32
                whole = WholeOutput(torch, tol["atol"], full=False)
                close = True
                for _, ec, ac in slices:
                    close = close and bool(torch.isclose(ac.to(wide), ec.to(wide), rtol=tol["rtol"], atol=tol["atol"], equal_nan=True).all())
                    if not close:
                        break
                    whole.add(ec, ac)
                if close and whole.failure() is None:
                    case["passed"] = True
                    return case
            # A failure: measured in full below, for its message.
        mismatches = unwritten = 0
        first, a_nan_any, a_any, e_any = None, False, False, False
        whole = WholeOutput(torch, tol["atol"]) if e.is_floating_point() else None
        for s, ec, ac in slices:
            if e.is_floating_point():
                whole.add(ec, ac)
                e64, a64 = ec.double(), ac.double()
                diff = (a64 - e64).abs()
                a_nan, e_nan = torch.isnan(a64), torch.isnan(e64)
                bad = ~((diff <= tol["atol"] + tol["rtol"] * e64.abs()) | (a64 == e64)) & ~(a_nan & e_nan)  # inf == inf is right
                unwritten += int((a_nan & ~e_nan).sum())
                a_nan_any = a_nan_any or bool(a_nan.any())
                finite = ~(a_nan | e_nan) & torch.isfinite(diff)
                if bool(finite.any()):
                    case["max_abs_error"] = max(case["max_abs_error"], float(diff[finite].max()))
                    case["max_rel_error"] = max(case["max_rel_error"],
                                                float((diff[finite] / e64.abs()[finite].clamp_min(1e-30)).max()))
                del e64, a64, diff, a_nan, e_nan, finite
            else:
                bad = ac != ec
            n = int(bad.sum())
            if n and first is None:
                first = s + int(bad.nonzero()[0])
            mismatches += n
            a_any = a_any or bool(ac.any())
            e_any = e_any or bool(ec.any())
            del bad
        case["mismatches"], case["unwritten"] = mismatches, unwritten
        if whole is not None:
            case["whole_relative_error"] = whole.relative_error()
        if mismatches == 0:
            failure = whole.failure() if whole is not None else None
            if failure:
                case.update(kind="zero_region", detail=failure)
                return case
            case["passed"] = True
            return case
        case["first_mismatch"] = {"index": first, "expected": float(ef[first]), "actual": float(af[first])}
        if unwritten == mismatches:
            case["kind"] = "unwritten"
        elif e.is_floating_point() and a_nan_any:
            case["kind"] = "nan"
        elif not a_any and e_any:
            case["kind"] = "all_zero"
        else:
            case["kind"] = "mismatch"
        return case

    def check_outputs(self, shape, seed, expected, got, checks, where, record=True):
        if len(got) != len(expected):
            raise Finished("wrong_answer", f"{where}: the candidate returned {len(got)} outputs, the reference {len(expected)}")
        for i, (e, a) in enumerate(zip(expected, got)):
            case = self.compare(shape, seed, i, e, a, errors=record)
            if record or not case["passed"]:
                checks.append(case)
            if not case["passed"]:
                detail = case.get("detail") or (
                    f"{case['mismatches']} of {case['elements']} elements wrong ({case['kind']})"
                    + (f", first at {case['first_mismatch']['index']}: expected {case['first_mismatch']['expected']:.6g}, "
                       f"got {case['first_mismatch']['actual']:.6g}" if "first_mismatch" in case else ""))
                raise Finished("wrong_answer", f"{where}, output {i}: {detail}")

    # ---- the run --------------------------------------------------------------
    def check(self, checks):
        job = self.job
        ref = self.runner("reference")
        cand = None
        seeds = list(job["seeds"])
        for si, shape in enumerate(job["check_shapes"]):
            for seed in seeds + [None] * job.get("fresh_seeds", 0):
                # Configured seeds name a draw; each is mixed with the secret, and
                # the fresh ones are the secret's alone.
                label = seed if seed is not None else "fresh"
                drawn = mix(self.secret, mix(seed if seed is not None else (1 << 40) + len(checks), si))
                where = f"shape {shape['name']} seed {label}"
                phase("reference on a check shape")
                inputs, init = self.draw(shape["sizes"], drawn)
                state = self.parameters(init, drawn)
                names = list(state)
                s_in = InputSet(self, inputs)
                s_state = InputSet(self, [state[k] for k in names])
                runners = [ref] + ([cand] if cand else [])
                self.share(runners, s_in)
                self.share(runners, s_state)
                self.load([ref], shape["sizes"], drawn, init, s_state, names)
                # Every compared call starts from a generator state the judge
                # chose: a reference that draws random numbers in its forward
                # (KernelBench's LSTM draws its initial state) then gives the
                # same answer to the candidate's second call as to its first,
                # and in the timed rounds below.
                draws = fresh_seed()
                _, outs = self.call(ref, [s_in], job["call_timeout_s"], where, seed=draws)
                expected = self.outputs(ref, outs[0], where)
                phase("candidate on a check shape")
                if cand is None:
                    cand = self.runner("candidate")
                    self.share([cand], s_in)
                    self.share([cand], s_state)
                self.load([cand], shape["sizes"], drawn, init, s_state, names)
                # Room for the outputs and as much again of temporaries, up to
                # 1 GiB more: twice a 7.5 GiB output did not fit on an H100.
                out_bytes = sum(t.numel() * t.element_size() for t in expected)
                poison = min(2 * out_bytes, out_bytes + (1 << 30))
                for call in range(2):
                    # A first call on a shape may compile (Triton, inline CUDA).
                    limit = job["call_timeout_s"] + (job.get("compile_allowance_s", 60) if call == 0 else 0)
                    t_call = time.perf_counter()
                    _, outs = self.call(cand, [s_in], limit, f"{where} (call {call + 1})", poison=poison, seed=draws)
                    if call == 0:  # a diagnostic: what the candidate's compiles on new shapes cost
                        self.seconds["check_first_calls"] += time.perf_counter() - t_call
                    got = self.outputs(cand, outs[0], where)
                    self.check_outputs(shape, label, expected, got, checks, f"{where} (call {call + 1})", record=call == 0)
                if si == 0 and "ops_recorded" not in self.env:
                    self.record_ops(cand, s_in, f"{where} (call 3)")
                self.forget([ref, cand], s_in)
                self.forget([ref, cand], s_state)

    def time_shape(self, si, shape):
        job = self.job
        where = f"on timing shape {shape['name']}"
        phase("timing")
        reference = self.runner("reference")
        compiled = None
        if job.get("compile_baseline", True) and not self.compile_failed:
            try:
                compiled = self.runner("compiled")
            except Finished as f:
                self.drop_compiled(f)
        cand = self.runner("candidate")
        kernels = [reference] + ([compiled] if compiled else []) + [cand]

        def guarded(r, action):
            """Runs `action`; a failure of the torch.compile baseline drops the
            baseline (recorded in env), not the run. True when `r` still counts."""
            try:
                action()
                return True
            except Finished as f:
                if r is not self.runners.get("torch.compile") or r is None:
                    raise
                self.drop_compiled(f)
                kernels.remove(r)
                return False

        t_sets = time.perf_counter()
        base_seed = mix(self.secret, 1000 + si)
        inputs, init = self.draw(shape["sizes"], base_seed)
        state = self.parameters(init, base_seed)
        names = list(state)
        s_state = InputSet(self, [state[k] for k in names])
        for r in list(kernels):
            guarded(r, lambda: (self.share([r], s_state), self.load([r], shape["sizes"], base_seed, init, s_state, names)))
        pool, answer_bytes = [], []
        room = [0]
        checks = self.result["checks"]
        first_limit = job["call_timeout_s"] + job.get("compile_allowance_s", 60)

        def room_for_sets():
            """How many sets the device holds beside what is here: a set and
            its answer take about six times their size (the inputs and their
            pristine copy in the judge, each runner's outputs of this call and
            the last, the comparison's temporaries). Large problems rotate
            fewer sets; every round still refills them with fresh values, so
            no call sees inputs twice."""
            torch = self.torch
            per_set = pool[0].bytes + answer_bytes[0]
            free = torch.cuda.mem_get_info()[0] + torch.cuda.memory_reserved() - torch.cuda.memory_allocated()
            return len(pool) + int(free // max(6 * per_set, 1))

        def add_sets(upto):
            while len(pool) < upto:
                if pool and len(pool) >= room_for_sets():
                    break
                j = len(pool)
                values = self.draw(shape["sizes"], mix(base_seed, j + 1))[0] if j else inputs
                s = InputSet(self, values)
                pool.append(s)
                for r in list(kernels):
                    guarded(r, lambda: self.share([r], s))
                if j == 0:
                    # Before any kernel's first call on the shape: the room
                    # each kernel's memory (cuDNN's workspaces) competes for.
                    room[0] = self.give_room([r for r in kernels if not r.dead])
                draws = fresh_seed()
                _, outs = self.call(reference, [s], job["call_timeout_s"], where, seed=draws)
                answer = self.outputs(reference, outs[0], where)
                answer_bytes.append(sum(a.numel() * a.element_size() for a in answer))
                _, first_outs = self.call(cand, [s], first_limit, where, seed=draws)
                self.check_outputs(shape, f"set {j}", answer, self.outputs(cand, first_outs[0], where), checks,
                                   f"timing shape {shape['name']} input set {j}", record=j == 0)

        add_sets(3)
        inputs.clear()  # the first set's originals: its pristine copy stands for them
        # Where the time phase's seconds go (a diagnostic: the sets and their
        # first calls, the hand-off, the warm-up, the timed rounds).
        self.seconds["time_sets"] += time.perf_counter() - t_sets
        t_handoff = time.perf_counter()
        # The hand-off's cost through the candidate (reported) and through the
        # reference (taken off every call: no candidate can inflate it).
        cand_empty = sorted(self.call(cand, [], 10, "while measuring the hand-off", touch=True, flush=True)[0] for _ in range(21))[10]
        empty = sorted(self.call(reference, [], 10, "while measuring the hand-off", touch=True, flush=True)[0] for _ in range(21))[10]
        # The candidate's own empty call is reported; batching follows the
        # smaller of the two (a candidate slow on purpose when called with
        # nothing cannot force large batches), and what is taken off a call is
        # the reference's, never more than half of what was measured.
        handoff = cand_empty
        batch_unit = min(cand_empty, empty)
        self.seconds["time_handoff"] += time.perf_counter() - t_handoff

        def per_call(t, n, overhead=0.0):
            """Seconds per input set of a call of `t` seconds over `n` sets: less
            the empty call and `overhead` (at most half of what is left),
            never less than half of what was measured beyond the lead."""
            work = t - empty
            return max(work - min(overhead, 0.5 * max(work, 0.0)), 0.5 * (t - self.lead_s), 1e-9) / n

        # Warm-up: every kernel a few times (the compiled baseline compiles
        # here), also estimating a call's length, and on until every kernel's
        # last call is within 20% of its fastest (at most 20 calls): a large
        # problem's first calls on an H100 ran 2-5x its settled time, which
        # ten timed rounds do not outvote.
        estimate, fastest, settled = {}, {}, {}
        warm = 0
        start = time.perf_counter()
        rot = 0

        def one_call_each(limit, what):
            """Every kernel called once, untimed, on the next set of the pool:
            its seconds by name (a kernel that failed is left out)."""
            nonlocal rot
            took = {}
            for r in list(kernels):
                s = pool[rot % len(pool)]
                rot += 1
                timed = []
                if guarded(r, lambda: timed.append(self.call(r, [s], limit, f"{what} {where}", flush=True)[0])):
                    took[r.name] = timed[0]
            return took

        def warming():
            if warm < max(1, job["min_warmup"]) or (time.perf_counter() - start < job["warmup_s"] and warm < 100):
                return True
            return warm < 20 and not all(settled.get(r.name, False) for r in kernels)

        while warming():
            for name, t in one_call_each(first_limit if warm == 0 else job["call_timeout_s"], "a warm-up call").items():
                estimate[name] = per_call(t, 1)
                fastest[name] = min(fastest.get(name, estimate[name]), estimate[name])
                settled[name] = warm > 0 and estimate[name] <= 1.2 * fastest[name]
            warm += 1
        self.seconds["time_warmup"] += time.perf_counter() - start
        shortest = min(estimate.get(r.name, 0.0) for r in kernels)
        batch = 1
        if 0 < shortest < 8 * batch_unit:
            per_set = max(s.bytes for s in pool) or 1
            # A set lives about ten times over (the pool, its pristine copy,
            # each runner's outputs of this call and the last), and another
            # evaluation may share the device: at most 2 GiB of pool and a
            # 24th of what the device has free. (Torch jobs are bounded by
            # RLIMIT_DATA, not by address space, which device mappings take.)
            # Sets too large for two in that room are never batched: each
            # runner would hold a batch of outputs twice over (on an H200,
            # three 6 GiB sets per call ran a runner out of memory).
            pool_bytes = min(2 << 30, self.torch.cuda.mem_get_info()[0] // 24)
            most = min(MAX_BATCH, pool_bytes // per_set)
            if most >= 2:
                batch = min(most, int(math.ceil(8 * batch_unit / shortest)))
                t_more = time.perf_counter()
                add_sets(batch)
                self.seconds["time_sets"] += time.perf_counter() - t_more
        per_round = sum(estimate.get(r.name, 0.0) * batch for r in kernels) + len(kernels) * (empty + 4 * self.idle_probe)
        reps = int(min(job["max_reps"], max(job["min_reps"], job["time_budget_s"] / max(per_round, 1e-6))))

        # Samples by kernel; every kernel gets one per round (a dropped
        # baseline's are dropped with it), so the reference's and the
        # candidate's stay paired round by round.
        pinned = self.pin_for_timing(kernels)
        calls = {r.name: [] for r in kernels}  # each timed call's seconds on the judge's clock
        fixed = {}  # per trusted runner, each call beyond the empty call and its device time
        parts = {}  # per kernel, (until its answer, until the device was idle) of each timed call
        # The timing CPU is new to the runners: on an H100 a launch-bound
        # model's first ten rounds there ran 14-22 ms a call, the rest 11-13 ms
        # (KernelBench's DenseNet201). Untimed calls on it first, until each
        # kernel's last is within 10 % of its fastest there: one each at least,
        # more (two at least, 20 at most) while within a quarter of the budget,
        # so a kernel of a second a call pays one call, not two.
        t_settle = time.perf_counter()
        fastest_here, calm, n = {}, False, 0
        while n < 1 or ((n < 2 or not calm) and n < 20 and time.perf_counter() - t_settle < 0.25 * job["time_budget_s"]):
            took = one_call_each(job["call_timeout_s"], "a settling call")
            for name, t in took.items():
                fastest_here[name] = min(fastest_here.get(name, t), t)
            calm = all(t <= 1.1 * fastest_here[name] for name, t in took.items())
            n += 1
        self.seconds["time_settle"] += time.perf_counter() - t_settle

        def speedup_known():
            """Whether the candidate's paired ratio to the reference is known
            well enough to stop (torch_judge_precision); a dropped side has
            nothing left to pair."""
            if "reference" not in calls or "candidate" not in calls:
                return True
            return precise_enough(paired_ratios([per_call(t, batch) for t in calls["reference"]],
                                                [per_call(t, batch) for t in calls["candidate"]]))

        rounds = 0
        loop_start = time.perf_counter()
        order = mix(self.secret, 77 + si)
        # The planned rounds, then more while the speedup's interval is wide
        # (up to max_reps), all within three times the budget as before.
        for rep in range(max(reps, job["max_reps"])):
            if rep >= job["min_reps"] and time.perf_counter() - loop_start > 3 * job["time_budget_s"]:
                break
            # (asked every 5 % more rounds: sorting every round's ratios each
            # round would cost more than a microsecond kernel's rounds)
            if rep >= reps and rep % max(1, rep // 20) == 0 and speedup_known():
                break
            # The round's sets, redrawn: no kernel is timed on inputs it saw before.
            order = mix(order, rep)
            first = order % len(pool)
            sets = [pool[(first + k) % len(pool)] for k in range(batch)]
            r0 = time.perf_counter()
            for k, s in enumerate(sets):
                # Two copies of an input at most while it is redrawn: the set
                # and the new draw (the old draw, its pristine copy, let go
                # first; the new one takes its place).
                values = None
                s.release_pristine()
                values = self.draw(shape["sizes"], mix(order, k + 1))[0]
                if not s.refill(values):
                    # Sizes that depend on the draw: a new set in the old one's place.
                    fresh = InputSet(self, values)
                    for r in list(kernels):
                        guarded(r, lambda: self.share([r], fresh))
                    for r in list(kernels):
                        if not r.dead:
                            guarded(r, lambda: self.forget_in(r, s))
                    self.live.discard(s)
                    s.free()
                    pool[pool.index(s)] = fresh
                    sets[k] = fresh
            values = None  # the set's pristine copy now, or kept by the set that replaced one
            self.seconds["refresh"] += time.perf_counter() - r0
            answer, produced = None, None
            draws = fresh_seed()
            turn = list(kernels)
            for jj in range(len(turn)):
                r = turn[(jj + rep) % len(turn)]  # rotated: no kernel always runs right after another
                got = []
                # Every kernel's call of a round from one generator state (its
                # outputs are compared): the sets then draw alike in each.
                if not guarded(r, lambda: got.append(self.call(r, sets, job["call_timeout_s"] * len(sets), f"a timed call {where}",
                                                               flush=True, seed=draws))):
                    calls.pop(r.name, None)
                    continue
                t, outs = got[0]
                calls[r.name].append(t)
                parts.setdefault(r.name, []).append(self.last_parts)
                if r is not cand:
                    # What a call with work costs beyond the empty call and the
                    # device's own time for that work, through the problem's own
                    # runners: their device times (CUDA events around their
                    # sets) are the problem's word, never the candidate's.
                    told = self.last_parts[5]
                    if told[4] > 0:
                        fixed.setdefault(r.name, []).append(t - empty - (told[4] + (len(sets) - 1) * told[5]))
                if r is reference:
                    answer = [self.outputs(r, o, where) for o in outs]
                elif r is cand:
                    produced = [self.outputs(r, o, where) for o in outs]
            v0 = time.perf_counter()
            for k in range(len(sets)):
                self.check_outputs(shape, f"round {rep}", answer[k], produced[k], checks, f"a timed call {where} (fresh inputs)", record=False)
            self.seconds["verify"] += time.perf_counter() - v0
            rounds = rep + 1
        self.seconds["time_rounds"] += time.perf_counter() - loop_start
        self.unpin(kernels, pinned)
        if si == len(job["time_shapes"]) - 1 and job.get("breakdown", True) and not cand.dead:
            self.profile_breakdown(cand, pool[0], shape)
        # A call with work pays more than an empty call, beyond the device's
        # work (the first launch after the hand-off, the device's switch back
        # and forth, a longer answer): measured through the problem's runners
        # and taken off every kernel's calls alike (on an H100, a batch of 8-10
        # sets: 300-700 us, more than the empty call itself). Whatever slows
        # those runners' calls (a helper the candidate left running) can only
        # make it look larger, so it is the lower quartile of each runner's
        # calls and the smaller of the runners'; the device's own time, which
        # a kernel slowed by another's leftovers would show, is not in it.
        quartiles = [sorted(v)[len(v) // 4] for v in fixed.values() if len(v) >= 3]
        overhead = max(0.0, min(quartiles)) if quartiles else 0.0
        samples = {name: [per_call(t, batch, overhead) for t in ts] for name, ts in calls.items()}
        for s in pool + [s_state]:
            for r in list(kernels):
                if not r.dead:
                    guarded(r, lambda: self.forget_in(r, s))
            self.live.discard(s)
            s.free()
        self.cuda.close_all()

        def kernel_stats(name):
            return dict(stats(samples[name]), name=name)

        baselines = [kernel_stats(r.name) for r in kernels if r is not cand]
        speedups = {r.name: paired_speedup(samples[r.name], samples["candidate"]) for r in kernels if r is not cand}
        interval = speedup_interval(paired_ratios(samples.get("reference", []), samples.get("candidate", [])))
        return {"shape": shape["name"], "sizes": shape["sizes"], "bytes": shape.get("bytes", 0), "flops": shape.get("flops", 0), "gathers": shape.get("gathers", 0),
                "warmup": warm, "reps": rounds, "reps_planned": reps, "input_sets": len(pool), "batch": batch, "handoff_seconds": handoff,
                "empty_call_seconds": empty, "call_overhead_seconds": overhead, "cache": "l2flush", "speedup": speedups["reference"], "speedups": speedups,
                # the speedup's 95 % interval (the median of the paired ratios)
                "speedup_interval": list(interval),
                "candidate": kernel_stats("candidate"), "baselines": baselines,
                # Where a timed call's seconds went, for judging the judge.
                "call_parts": {name: {"answer": stats([x[0] for x in p])["median"], "answer_p90": stats([x[0] for x in p])["p90"],
                                      "settle": stats([x[1] for x in p])["median"], "settle_p90": stats([x[1] for x in p])["p90"],
                                      "first_probe": stats([x[2] for x in p])["median"], "first_probe_p90": stats([x[2] for x in p])["p90"],
                                      "watch_max_p90": stats([x[3] for x in p])["p90"], "drain_probes_max": max(x[4] for x in p),
                                      # the runner's own word, never used for timing
                                      "runner_told": [stats([x[5][k] for x in p])["median"] for k in range(7)]}
                               for name, p in parts.items()},
                "idle_probe_seconds": self.idle_probe,
                # each kernel's room on the device, its model included (give_room)
                "device_room_bytes": room[0]}

    def pin_for_timing(self, kernels):
        """The timed rounds' CPUs (timing_cpus): the CPUs each process had before, or None."""
        cpus, why = timing_cpus()
        if cpus is None:
            self.env["timing_cpus"] = why
            return None
        before = os.sched_getaffinity(0)
        failed = [f for f in [pin(0, cpus[1])] + [pin(r.proc.pid, {cpus[0]}) for r in kernels if not r.dead] if f]
        self.env["timing_cpus"] = {"runners": cpus[0], "judge": len(cpus[1])} if not failed else "not pinned: " + "; ".join(failed)
        return before

    def unpin(self, kernels, before):
        """Back to the CPUs of before: nothing outside the timed rounds is held to one CPU
        (torch.compile's workers start from the runner)."""
        if before is None:
            return
        pin(0, before)
        for r in kernels:
            if not r.dead:
                pin(r.proc.pid, before)

    def record_ops(self, r, s, where):
        """The problem's forbidden operations, judged by what the candidate
        ran: one more call on a check set under PyTorch's profiler (after two
        correct ones, so its compiles are done), every ATen op and device
        kernel it ran, against the forbidden list (torch_judge_ops). A
        problem that forbids nothing skips it."""
        words = torch_judge_ops.op_words(self.job.get("forbidden", [])) if self.job.get("record_ops", True) else []
        self.env["ops_recorded"] = {"forbidden": words}
        if not words:
            return
        t0 = time.perf_counter()
        phase("candidate's ops recorded")
        try:
            # The words go along so that a forbidden op the profiler keeps no
            # stack for can be given its line; the judge decides from the ops.
            reply = r.request({"op": "record", "ids": [s.id], "words": words}, 2 * self.job["call_timeout_s"] + 30.0, where)
        except RunnerFailure as f:
            self.fail_runner(f, where)
        finally:
            self.seconds["record_ops"] = time.perf_counter() - t0
        if reply.get("type") != "recorded":
            raise Finished("runtime_error", f"the candidate's runner answered something else than the record of its ops {where}")
        try:
            ops, kernels, note = torch_judge_ops.validated(reply)
        except torch_judge_ops.BadRecord as e:
            raise Finished("runtime_error", f"the candidate's runner sent {e} {where}")
        self.env["ops_recorded"].update({"ops": len(ops), "kernels": len(kernels), **({"note": note} if note else {})})
        hits = torch_judge_ops.forbidden_ran(ops, kernels, words)
        if hits:
            raise Finished("sandbox_violation", torch_judge_ops.violation_text(hits, where))

    def profile_breakdown(self, r, s, shape):
        """One call of the candidate on input set `s` under PyTorch's profiler,
        after its timed calls: every kernel, copy and memset it launched,
        grouped by name (profile/breakdown.json). The runner's word, checked
        for form only: it informs a diagnosis, never a score. A failure here
        is a note, not a verdict (the candidate was already judged)."""
        t0 = time.perf_counter()
        where = f"under PyTorch's profiler on timing shape {shape['name']}"
        try:
            self.torch.cuda.synchronize()
            reply = r.request({"op": "profile", "ids": [s.id]}, max(60.0, 4 * self.job["call_timeout_s"]), where)
        except RunnerFailure as f:
            self.profile_notes["breakdown"] = f"the candidate's runner failed {where}: {f.message}"
            return
        finally:
            self.seconds["breakdown"] = time.perf_counter() - t0
        events = reply.get("events") if reply.get("type") == "profiled" else None
        if not isinstance(events, list):
            self.profile_notes["breakdown"] = f"the candidate's runner answered something else than a profile {where}"
            return
        groups = {}
        for e in events[:4096]:
            if not (isinstance(e, list) and len(e) == 3 and isinstance(e[0], str) and e[1] in ("kernel", "copy", "memset")
                    and isinstance(e[2], (int, float)) and math.isfinite(e[2]) and e[2] >= 0):
                self.profile_notes["breakdown"] = f"the candidate's runner sent a malformed profile event {where}"
                return
            g = groups.setdefault((e[0][:300], e[1]), [0, 0.0])
            g[0] += 1
            g[1] += float(e[2])
        rows = sorted(({"name": k[0], "kind": k[1], "calls": v[0], "us": v[1]} for k, v in groups.items()), key=lambda x: -x["us"])
        if not rows:
            self.profile_notes["breakdown"] = (f"PyTorch's profiler saw no device activity {where} (a profiler without CUDA "
                                               "support, or a call that ran nothing on the device)")
        self.profile_files["breakdown.json"] = json.dumps({
            "schema": 1, "source": "torch.profiler", "shape": shape["name"], "sizes": shape["sizes"],
            "launches": sum(v[0] for v in groups.values()), "device_us": sum(v[1] for v in groups.values()),
            "kernels": rows[:64]}, allow_nan=False)

    def drop_compiled(self, failure):
        r = self.runners.get("torch.compile")
        outside = torch_judge_protocol.outside_signal(r.proc.poll(), r.killed_by_judge) if r is not None else None
        if outside:
            # A baseline that fails by its own error is left out, with why; one
            # ended from outside (another process signalled it) would leave a
            # speedup read without the fastest baseline: the run is void.
            raise Finished("infra_error", f"the torch.compile baseline's runner was ended by {outside} from another process "
                           "while it was timed: its time is unknown, so no speedup can be given (no candidate was charged); "
                           "run the evaluation again")
        self.compile_failed = True  # not started again for later shapes
        self.env.setdefault("baseline_errors", []).append(f"torch.compile: {failure.message[:300]}")
        r = self.runners.pop("torch.compile", None)
        if r is not None:
            r.kill()
        for s in self.live:
            s.holders.discard("torch.compile")


def out_of_memory(exc):
    text = str(exc)
    return "out of memory" in text.lower() or "CUDA_ERROR_OUT_OF_MEMORY" in text or type(exc).__name__ == "OutOfMemoryError"


def files_confined():
    """Whether the candidate's runner will write only in its own folder
    (torch_landlock; KW_RUNNER_LANDLOCK=0 turns it off)."""
    import torch_landlock

    return os.environ.get("KW_RUNNER_LANDLOCK") != "0" and torch_landlock.abi() > 0


def candidate_folder():
    """The candidate's own folder (build/candidate): its module, its working
    folder, its temporary files and caches, and the only place its runner
    may write where the host confines files. A fresh copy of its module:
    nothing of an earlier runner's stays."""
    home = os.path.join(JOB, "build", "candidate")
    for sub in ("tmp", "home", "cache"):
        os.makedirs(os.path.join(home, sub), exist_ok=True)
    with open(os.path.join(SRC, "candidate.py"), "rb") as f:
        source = f.read()
    with open(os.path.join(home, "candidate.py"), "wb") as f:
        f.write(source)
    return home


def rule_violations(job, confined=None):
    """The static rules where the candidate runs (defence in depth);
    `confined`: whether its writes will be kept in its folder (None: as this
    host can)."""
    import torch_rules

    with open(os.path.join(SRC, "candidate.py"), "rb") as f:
        source = f.read(torch_rules.MAX_SOURCE_BYTES + 1).decode("utf-8", "replace")
    found = torch_rules.check(source, job.get("forbidden", []), files_confined=files_confined() if confined is None else confined)
    if not found:
        return ""
    text = "the candidate uses constructs a kernel may not use:"
    for v in found:
        text += f"\n  line {v['line']} [{v['rule']}]: {v['excerpt']}  ({v['why']})"
    return text


def main():
    # Not dumpable: no runner can read or write the judge's memory through /proc or ptrace.
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except Exception:
        pass
    subreaper = become_subreaper()
    sys.path.insert(0, SRC)
    with open(os.path.join(SRC, "torch_job.json")) as f:
        job = json.load(f)
    result = {"schema": 1, "status": "infra_error", "message": "", "speedup": None, "implausible_speedup": False, "build_log": "",
              "checks": [], "timing": [], "phase_seconds": {}, "env": {}}
    t0 = time.perf_counter()
    judge = None
    prestarted = {}  # runners started early and not yet taken by the judge
    secret_given = job.get("input_secret") is not None
    secret = int(job["input_secret"]) if secret_given else int.from_bytes(os.urandom(8), "little")
    try:
        phase("loading the judge")
        if job.get("static_rules", True):
            why = rule_violations(job)
            if why:
                raise Finished("sandbox_violation", why)
        try:
            importlib.import_module("torch")  # here, with a message, rather than in a runner
        except Exception as exc:
            raise Finished("infra_error", f"PyTorch does not import on this host: {exc} (install torch, or point KW_PYTHON at a Python that has it)")
        # The runners start side by side (Python and torch: seconds each),
        # touching no device until told to: nothing of this evaluation runs on
        # the device before it holds the timing lock, so no other evaluation's
        # timing shares the device with its start-up (CUDA contexts, module
        # imports, the idle probe).
        roles = ["reference", "candidate"]
        if job.get("compile_baseline", True) and not job["check_only"]:
            roles.append("compiled")
        for role in roles:
            prestarted[role] = Runner(None, RUNNER_NAMES[role], role)
        result["phase_seconds"]["setup"] = time.perf_counter() - t0
        if not job["check_only"]:
            pipe = mps_pipe()
            if pipe and os.environ.get("KW_JUDGE_ALLOW_MPS") != "1":
                raise Finished("infra_error", f"an NVIDIA MPS daemon's control pipe is on this host ({pipe}): under MPS, kernels of "
                               "different processes run at once, so the judge cannot see work a candidate leaves running after "
                               "it answers. Stop MPS (echo quit | nvidia-cuda-mps-control), remove the pipe if it is left from a "
                               "stopped daemon, or set KW_JUDGE_ALLOW_MPS=1 to time anyway (the timing is then not to be trusted)")
            phase("waiting for the timing lock")
            result["phase_seconds"]["timing_lock_wait"] = take_timing_lock()
        t1 = time.perf_counter()
        judge = Judge(job, result, prestarted)  # measures the idle device first
        judge.secret = secret
        for r in prestarted.values():
            r.judge = judge
            r.begin()
        result["phase_seconds"]["device_setup"] = time.perf_counter() - t1
        t1 = time.perf_counter()
        judge.check(result["checks"])
        result["phase_seconds"]["check"] = time.perf_counter() - t1
        if not job["check_only"]:
            t2 = time.perf_counter()
            for si, shape in enumerate(job["time_shapes"]):
                result["timing"].append(judge.time_shape(si, shape))
            result["phase_seconds"]["time"] = time.perf_counter() - t2
            speedups = [t["speedup"] for t in result["timing"] if t["speedup"] > 0]
            result["speedup"] = math.exp(sum(math.log(s) for s in speedups) / len(speedups)) if speedups else None
            result["implausible_speedup"] = bool(result["speedup"] and result["speedup"] > job["implausible_speedup"])
            result["handoff_seconds"] = max((t["handoff_seconds"] for t in result["timing"]), default=0.0)
        result["status"] = "ok"
        result["message"] = "correct on every check shape" + (
            f"; {result['speedup']:.3g}x the eager reference" if not job["check_only"] and result["speedup"] else "")
    except Finished as done:
        result["status"], result["message"] = done.status, done.message
        result["build_log"] = tail(done.log)
        result["speedup"] = None
        result["timing"] = []
    except Exception as exc:
        # The judge's own failure: never the candidate's (its code runs elsewhere).
        result["status"] = "infra_error"
        result["message"] = "the judge failed: " + "".join(traceback.format_exception_only(type(exc), exc)).strip()
        result["build_log"] = tail(traceback.format_exc())
        result["speedup"] = None
        result["timing"] = []
    for r in prestarted.values():
        r.kill()
    if judge is not None:
        judge.stop_runners()
        for k, v in judge.seconds.items():
            result["phase_seconds"][k] = v
        result["env"] = judge.env
        if result["status"] == "ok" and not job["check_only"] and job.get("ncu"):
            phase("profiling with ncu")
            t3 = time.perf_counter()
            run_ncu(job, judge.profile_files, judge.profile_notes)
            result["phase_seconds"]["ncu"] = time.perf_counter() - t3
        if result["status"] == "ok":
            try:
                write_profile(judge.profile_files, judge.profile_notes)
            except OSError as e:
                result["message"] += f" (the profile was not written: {e})"
    # Everything the runners started, at any depth, is gone before the result
    # exists: nothing of a candidate's runs after the verdict or rewrites it.
    left = kill_descendants()
    seccomp = result["env"].pop("seccomp", None) or next((getattr(r, "seccomp", None) for r in prestarted.values() if r.candidate), None)
    files = result["env"].pop("files", None) or next((getattr(r, "files", None) for r in prestarted.values() if r.candidate), None)
    result["env"]["isolation"] = {"processes": True, "seccomp": seccomp or "off", "files": files or "not confined",
                                  "input_seed": "given" if secret_given else "secret",
                                  "subreaper": subreaper, "left_running": left,
                                  "strays_killed": result["env"].pop("strays_killed", 0)}
    # Told only now that every runner is gone: it reproduces the inputs.
    result["input_secret"] = str(secret)
    phase("done")
    busy = result["status"] == "infra_error" and any(w in result["message"] for w in DEVICE_BUSY)
    if busy:
        result["message"] += task_room()
    write_result(result)
    if busy and os.environ.get("KW_JUDGE_RETRY") != "1":
        sys.exit(75)  # run.sh starts the judge once more


if __name__ == "__main__":
    main()
