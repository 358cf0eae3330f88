# The torch judge's dealings with its host, apart from the device: the CPUs
# its runners are timed on, the job's task limit, an MPS daemon that would
# let kernels of different processes overlap, and the timing lock that makes
# jobs on one host take turns. Plain Python (no torch): tests import it.
import os
import stat
import time


def timing_cpus():
    """(the runners' CPU, the judge's CPUs) for the timed rounds, or (None, why).

    A model whose calls are many small kernels is timed at its launch rate:
    the Python of its runner. On a 64-core host, a runner's Python ran 30-60 %
    slower than another runner's running the same code (a reference against
    itself: ResNet101 1.30x, SwinV2 0.75x), so every runner of a job is timed
    on one CPU (they take turns: the others are frozen) and the judge's
    thread, which polls the device meanwhile, anywhere but on that core. Jobs
    timing on different GPUs of a host at once take different cores (by the
    GPU's index)."""
    if os.environ.get("KW_JUDGE_PIN", "1") == "0":
        return None, "off (KW_JUDGE_PIN=0)"
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError) as e:
        return None, f"unavailable ({e})"
    if len(allowed) < 2:
        return None, "one CPU only"

    def siblings(c):
        try:
            with open(f"/sys/devices/system/cpu/cpu{c}/topology/thread_siblings_list") as f:
                text = f.read().strip()
        except OSError:
            return {c}
        out = set()
        for part in text.split(","):
            a, _, b = part.partition("-")
            if a.isdigit():
                out.update(range(int(a), int(b) + 1) if b.isdigit() else [int(a)])
        return out or {c}

    cores, seen = [], set()  # one CPU of each physical core, SMT siblings left out
    for c in allowed:
        if c not in seen:
            seen |= siblings(c)
            cores.append(c)
    first = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0].strip()
    g = int(first) if first.isdigit() else 0
    pool = cores if len(cores) >= 2 else allowed
    k = len(pool)
    # From the last CPU down: the first ones take the host's interrupts.
    runners = pool[(k - 1 - g) % k]
    judge = set(allowed) - siblings(runners) - {runners}
    return (runners, judge or set(allowed) - {runners}), ""


def task_room():
    """The job's task limit and what its user runs now, as a sentence for a
    message: CUDA fails with "OS call failed" when it cannot start a thread."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_NPROC)[0]
        if soft == resource.RLIM_INFINITY or os.getuid() == 0:
            return ""
        running = 0
        for pid in os.listdir("/proc"):
            try:
                if pid.isdigit() and os.stat(f"/proc/{pid}").st_uid == os.getuid():
                    running += len(os.listdir(f"/proc/{pid}/task"))
            except OSError:
                pass
        return (f" (the job may run {soft} tasks, threads included, and its user runs {running} now; "
                "CUDA fails this way when it cannot start a thread; more workers give each job "
                "fewer CPUs, and its processes fewer threads)")
    except (OSError, ValueError):
        return ""


def pin(pid, cpus):
    """Every thread of process `pid` (0: this thread) on `cpus`; what failed, or ''."""
    failed = []
    try:
        tids = os.listdir(f"/proc/{pid}/task") if pid else ["0"]
    except OSError as e:  # gone: its death is reported where it is noticed
        return f"process {pid}: {e.strerror}"
    for tid in tids:
        try:
            os.sched_setaffinity(int(tid), cpus)
        except OSError as e:
            failed.append(f"thread {tid}: {e.strerror}")
    return ", ".join(failed)


def mps_pipe():
    """The control pipe of an NVIDIA MPS daemon this process would join, or ''.
    Under MPS, kernels of different processes run at the same time: a probe
    of the judge's comes back quickly while a runner's work still runs, so
    the clock could not see work left behind after an answer."""
    dirs = [os.environ.get("CUDA_MPS_PIPE_DIRECTORY", ""), "/tmp/nvidia-mps"]
    for d in dirs:
        if not d:
            continue
        control = os.path.join(d, "control")
        try:
            if stat.S_ISFIFO(os.stat(control).st_mode):
                return control
        except OSError:
            pass
    return ""


def take_timing_lock():
    """Jobs that time kernels take turns on the host (the executor hands over
    a lock in KW_TIMING_LOCK_FD); it is never passed on to a runner."""
    fd = os.environ.get("KW_TIMING_LOCK_FD")
    if not fd:
        return 0.0
    import fcntl

    t0 = time.perf_counter()
    try:
        fcntl.flock(int(fd), fcntl.LOCK_EX)
    except (OSError, ValueError):
        return 0.0
    return time.perf_counter() - t0


# ---- processes the runners leave behind ------------------------------------
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Orphans of the runners' processes (a child that called setsid and so
    left its runner's process group, which is all a kill of the runner
    reaches) become the judge's, for kill_descendants. False where the
    kernel refuses."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except Exception:
        return False


def children_of(pid):
    """The processes whose parent is `pid`, and whether each is a zombie, from /proc."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat_line = f.read().decode("ascii", "replace")
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        fields = stat_line[stat_line.rfind(")") + 2:].split()
        if len(fields) >= 2 and fields[1] == str(pid):
            out.append((int(name), fields[0] == "Z"))
    return out


def tree_of(pid):
    """Every process below `pid`, at any depth, from the children lists of
    each of its threads (/proc/PID/task/TID/children): a few small reads for
    a runner that started nothing, not a scan of /proc."""
    out, todo, seen = [], [pid], {pid}
    while todo:
        p = todo.pop()
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    kids = [int(x) for x in f.read().split()]
            except (OSError, ValueError):
                continue
            for k in kids:
                if k not in seen:
                    seen.add(k)
                    out.append(k)
                    todo.append(k)
    return out


def children_now(pid):
    """The processes whose parent is `pid` (any of its threads), from /proc."""
    out = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
        except (OSError, ValueError):
            continue
    return out


def group_of(pid):
    """The process group of `pid`, or None when it is gone."""
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def signal_all(pids, sig):
    """Sends `sig` to each of `pids`; the ones it reached."""
    reached = []
    for p in pids:
        try:
            os.kill(p, sig)
            reached.append(p)
        except OSError:
            pass
    return reached


def kill_descendants(passes=64):
    """Kills and reaps every process the judge's runners started, at any
    depth (orphans come back to the judge as their subreaper, so killing the
    children in passes reaches the grandchildren). Returns how many were
    running (zombies of runners already stopped are only reaped)."""
    import signal

    me, running = os.getpid(), 0
    for _ in range(passes):
        children = children_of(me)
        if not children:
            break
        for pid, zombie in children:
            running += 0 if zombie else 1
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid, _ in children:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return running

