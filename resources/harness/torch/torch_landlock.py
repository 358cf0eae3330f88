# Where the candidate's runner may write: its own folder and the devices,
# nothing else (Landlock, Linux 5.13+; reads are untouched). The judge's
# files (src/: the reference, the runners' code; result.json; build/: the
# phase, times and the other runners' caches) share the candidate's user, so
# only the kernel can keep the candidate from rewriting them; with this, a
# kernel that writes its .cu next to its own module, a build folder or a
# temporary file (TMPDIR is its folder) does what models write, and nothing
# it writes reaches the judge. Installed in the runner after the seccomp
# filter (which set no_new_privs), before the candidate's module is
# imported; every process it starts inherits it. Plain Python (ctypes).
import ctypes
import os

SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446  # the same on every architecture
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1

# The rights that change the file system, by the ABI that introduced them.
# Executing, reading files and listing folders stay allowed everywhere;
# device ioctls (ABI 5) are never handled: CUDA drives the GPU through them.
WRITE_FILE = 1 << 1
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE = 1 << 13, 1 << 14  # ABI 2, ABI 3
WRITES_V1 = WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM


def abi():
    """The kernel's Landlock ABI version (0: none here)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        v = libc.syscall(ctypes.c_long(SYS_CREATE_RULESET), None, ctypes.c_size_t(0), ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (OSError, AttributeError):
        return 0
    return max(0, v)


def writes_handled(version):
    rights = WRITES_V1
    if version >= 2:
        rights |= REFER
    if version >= 3:
        rights |= TRUNCATE
    return rights


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def restrict_writes(writable):
    """Lets this process (and what it starts) change the file system only
    beneath the folders in `writable` (those that exist). "" when it holds,
    else why not. Needs no_new_privs (torch_seccomp.install sets it)."""
    version = abi()
    if version <= 0:
        return "Landlock is not available in this kernel (Linux 5.13 or later, with landlock among its security modules)"
    libc = ctypes.CDLL(None, use_errno=True)
    rights = writes_handled(version)
    attr = _RulesetAttr(rights)
    fd = libc.syscall(ctypes.c_long(SYS_CREATE_RULESET), ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)), ctypes.c_uint32(0))
    if fd < 0:
        return f"landlock_create_ruleset failed: {os.strerror(ctypes.get_errno())}"
    try:
        for path in writable:
            try:
                dir_fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # a folder this host lacks (/dev/shm) is nobody's to write
            try:
                rule = _PathBeneathAttr(rights, dir_fd)
                if libc.syscall(ctypes.c_long(SYS_ADD_RULE), ctypes.c_int(fd), ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule),
                                ctypes.c_uint32(0)) != 0:
                    return f"landlock_add_rule for {path} failed: {os.strerror(ctypes.get_errno())}"
            finally:
                os.close(dir_fd)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS, if the seccomp filter did not set it
            return f"prctl(PR_SET_NO_NEW_PRIVS) failed: {os.strerror(ctypes.get_errno())}"
        if libc.syscall(ctypes.c_long(SYS_RESTRICT_SELF), ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
            return f"landlock_restrict_self failed: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(fd)
    return ""
