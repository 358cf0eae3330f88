# The torch runner's seccomp filter: what a runner process (and everything it
# starts) may not do to the processes around it. The judge freezes a runner
# with SIGSTOP and ends it with SIGKILL of its process tree; a process that
# could leave the runner's session (setsid), signal the judge or another
# runner, change where it or others are scheduled, or trace another process
# would escape both. Installed in the runner after torch and the
# device are up and before the candidate's module is imported; every thread
# already running gets it too (TSYNC), and every process started later
# inherits it. Plain Python (ctypes, no torch): tests install it in a child.
#
# What it refuses, each with EPERM (a Python exception in the candidate's
# code, never a kill: a build step that tries any of it fails visibly):
#   setsid                                leaving the runner's session
#   kill, rt_sigqueueinfo, tgkill,        signals to any process but this one
#   rt_tgsigqueueinfo, tkill,             (signal 0, which only asks whether a
#   pidfd_send_signal                     process exists, is allowed)
#   ptrace, process_vm_readv/writev       reading or writing another process
#   sched_setaffinity, sched_setscheduler, moving or demoting this or another
#   sched_setparam, sched_setattr,        process (the judge pins runners to
#   setpriority, ioprio_set               one CPU while they are timed)
#   unshare, setns, clone with a          new namespaces (a PID namespace of
#   namespace flag                        its own hides a process's children)
#   bpf                                   kernel programs
# clone3 answers ENOSYS (its flags are in memory a filter cannot read): the C
# library then starts threads and processes with clone, which is checked.
# A forked child keeps this process's pid in the filter, so its own kill of
# itself is refused too: a child ends by exiting, as Python's do.
# setpgid stays allowed: ninja (torch's extension builds) puts every compiler
# it starts in a process group of its own. The judge therefore freezes and
# kills a runner's whole tree, not only its group (torch_judge_host.tree_of).
import ctypes
import os
import platform
import struct

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

# x86-64 system call numbers (arch/x86/entry/syscalls/syscall_64.tbl).
NR = {
    "kill": 62, "setsid": 112, "rt_sigqueueinfo": 129, "ptrace": 101, "setpriority": 141,
    "sched_setparam": 142, "sched_setscheduler": 144, "tkill": 200, "sched_setaffinity": 203, "tgkill": 234,
    "ioprio_set": 251, "unshare": 272, "rt_tgsigqueueinfo": 297, "setns": 308, "process_vm_readv": 310,
    "process_vm_writev": 311, "sched_setattr": 314, "seccomp": 317, "bpf": 321, "pidfd_send_signal": 424,
    "clone3": 435, "clone": 56,
}
REFUSED = ("setsid", "ptrace", "process_vm_readv", "process_vm_writev", "sched_setaffinity", "sched_setscheduler",
           "sched_setparam", "sched_setattr", "setpriority", "ioprio_set", "unshare", "setns", "bpf", "pidfd_send_signal")
# Signal senders whose first argument is the target's process id.
SIGNALLERS = ("kill", "rt_sigqueueinfo", "tgkill", "rt_tgsigqueueinfo")
# clone's namespace flags: CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET.
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

# Classic BPF (linux/filter.h, linux/seccomp.h).
LD_W_ABS, JEQ_K, JSET_K, JGE_K, RET_K = 0x20, 0x15, 0x45, 0x35, 0x06
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
EPERM, ENOSYS = 1, 38
OFF_NR, OFF_ARCH = 0, 4


def off_arg(i, high=False):
    return 16 + 8 * i + (4 if high else 0)


def _op(code, k, jt=0, jf=0):
    return (code, jt, jf, k & 0xFFFFFFFF)


def program(pid):
    """The filter as (code, jt, jf, k) instructions, for a process whose id is `pid`."""
    p = [_op(LD_W_ABS, OFF_ARCH), _op(JEQ_K, AUDIT_ARCH_X86_64, 1, 0), _op(RET_K, RET_ERRNO | ENOSYS),  # int 0x80 numbers differ
         _op(LD_W_ABS, OFF_NR),
         _op(JGE_K, X32_SYSCALL_BIT, 0, 1), _op(RET_K, RET_ERRNO | ENOSYS)]
    for name in REFUSED:
        p += [_op(JEQ_K, NR[name], 0, 1), _op(RET_K, RET_ERRNO | EPERM)]
    p += [_op(JEQ_K, NR["clone3"], 0, 1), _op(RET_K, RET_ERRNO | ENOSYS)]
    # clone: refused with a namespace flag (its flags are the first argument).
    p += [_op(JEQ_K, NR["clone"], 0, 4), _op(LD_W_ABS, off_arg(0)), _op(JSET_K, CLONE_NAMESPACES, 0, 1),
          _op(RET_K, RET_ERRNO | EPERM), _op(RET_K, RET_ALLOW)]
    # A signal: allowed when it is 0 (it only asks whether the target exists)
    # or goes to this process. The kernel reads both arguments as 32-bit
    # ints, so the low words decide.
    for name in SIGNALLERS:
        sig = 2 if name in ("tgkill", "rt_tgsigqueueinfo") else 1
        p += [_op(JEQ_K, NR[name], 0, 6),
              _op(LD_W_ABS, off_arg(sig)), _op(JEQ_K, 0, 3, 0),
              _op(LD_W_ABS, off_arg(0)), _op(JEQ_K, pid, 1, 0),
              _op(RET_K, RET_ERRNO | EPERM),
              _op(RET_K, RET_ALLOW),
              _op(LD_W_ABS, OFF_NR)]  # the next test's number (skipped to when this was not the call)
    # tkill names a thread, not a process: signal 0 only.
    p += [_op(JEQ_K, NR["tkill"], 0, 4), _op(LD_W_ABS, off_arg(1)), _op(JEQ_K, 0, 0, 1), _op(RET_K, RET_ALLOW),
          _op(RET_K, RET_ERRNO | EPERM)]
    p += [_op(RET_K, RET_ALLOW)]
    return p


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def install():
    """Installs the filter on every thread of this process: "" when it holds,
    else why not (the runner then runs without it and the judge says so)."""
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return f"no filter for {platform.system()} on {platform.machine()} (x86-64 Linux only)"
    instructions = program(os.getpid())
    blob = b"".join(struct.pack("<HBBI", *i) for i in instructions)
    buf = ctypes.create_string_buffer(blob, len(blob))
    prog = _SockFprog(len(instructions), ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
        return f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}"
    # SECCOMP_SET_MODE_FILTER with SECCOMP_FILTER_FLAG_TSYNC: the threads torch
    # and the CUDA driver already started get it too.
    rc = libc.syscall(ctypes.c_long(NR["seccomp"]), ctypes.c_ulong(1), ctypes.c_ulong(1), ctypes.byref(prog))
    if rc != 0:
        why = os.strerror(ctypes.get_errno()) if rc < 0 else f"thread {rc} could not take it"
        return f"seccomp(SECCOMP_SET_MODE_FILTER) failed: {why}"
    return ""


def seccomp_of(pid):
    """(mode, filters) of the process `pid`, read from /proc (what the
    process itself cannot rewrite): mode 2 is "under filters"; filters is
    their number, None where the kernel does not say (before Linux 5.9).
    (None, None) when the process cannot be read."""
    mode = filters = None
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Seccomp:"):
                    mode = int(line.split()[1])
                elif line.startswith("Seccomp_filters:"):
                    filters = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None, None
    return mode, filters


def filters_of(pid):
    """How many seccomp filters the process `pid` runs under; None when unknown."""
    return seccomp_of(pid)[1]


def confirmed(runner_pid, judge_pid):
    """Whether /proc shows the runner under a filter of its own: more
    filters than the judge, or, where the kernel does not count them,
    filtering at all (it says so after installing one)."""
    mode, filters = seccomp_of(runner_pid)
    _, mine = seccomp_of(judge_pid)
    if mode != 2:
        return False
    return filters is None or mine is None or filters > mine
