// The seccomp filter a kernel runner installs before it loads its kernel, so
// that library constructors are confined too. It is a deny list over what a
// kernel never needs and what evaluation exploits use: new processes, program
// execution, sockets, tracing and reading other processes, writing files
// (result.json, the job's scripts), signals to other processes, CPU affinity
// and scheduling changes, namespaces and mounts, and madvise calls that
// evict or punch holes in memory the runners share. Threads are allowed only
// where the problem builds with OpenMP (and always for the problem's own code).
//
// Forbidden process-level actions kill the runner with SIGSYS, which the judge
// reports as a sandbox violation; affinity and scheduling calls fail with
// EPERM instead (runtimes try them and carry on). x86-64 only; elsewhere the
// judge records that no filter was installed.
#pragma once
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cstdint>
#include <vector>

namespace ksseccomp {

#if defined(__x86_64__)
constexpr bool kSupported = true;

inline void jumpIfEqual(std::vector<sock_filter>& f, uint32_t value, uint32_t action) {
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, action));
}
inline void loadNr(std::vector<sock_filter>& f) {
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
}
inline void loadArgLow(std::vector<sock_filter>& f, int arg) {
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * arg)));
}

// For a syscall whose argument `arg` names a process: allowed when it names
// `self` (or 0 where `zeroIsSelf`), EPERM otherwise.
inline void onlySelf(std::vector<sock_filter>& f, uint32_t nr, int arg, uint32_t self, bool zeroIsSelf) {
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, static_cast<uint8_t>(zeroIsSelf ? 5 : 4)));
    loadArgLow(f, arg);
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, static_cast<uint8_t>(zeroIsSelf ? 2 : 1), 0));
    if (zeroIsSelf) f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

// What a kernel never needs and exploits use: these kill the runner (SIGSYS).
inline const std::vector<uint32_t>& killedSyscalls() {
    static const std::vector<uint32_t> killed = {
        // processes and programs
        SYS_fork,
        SYS_vfork,
        SYS_execve,
        SYS_execveat,
        // the network, and sockets of any kind (the judge's is already open)
        SYS_socket,
        SYS_socketpair,
        SYS_connect,
        SYS_bind,
        SYS_listen,
        SYS_accept,
        SYS_accept4,
        // other processes' memory, descriptors and signals
        SYS_ptrace,
        SYS_process_vm_readv,
        SYS_process_vm_writev,
        SYS_pidfd_open,
        SYS_pidfd_getfd,
        SYS_pidfd_send_signal,
        SYS_kcmp,
        SYS_process_madvise,
        // files: nothing is created, changed or removed (opening for writing is checked below)
        SYS_creat,
        SYS_truncate,
        SYS_ftruncate,
        SYS_fallocate,
        SYS_rename,
        SYS_renameat,
        SYS_renameat2,
        SYS_unlink,
        SYS_unlinkat,
        SYS_link,
        SYS_linkat,
        SYS_symlink,
        SYS_symlinkat,
        SYS_mkdir,
        SYS_mkdirat,
        SYS_rmdir,
        SYS_chmod,
        SYS_fchmod,
        SYS_fchmodat,
        SYS_chown,
        SYS_fchown,
        SYS_lchown,
        SYS_fchownat,
        SYS_mknod,
        SYS_mknodat,
        SYS_utime,
        SYS_utimes,
        SYS_utimensat,
        SYS_futimesat,
        SYS_name_to_handle_at,
        SYS_open_by_handle_at,
        // kernel facilities a kernel never needs
        SYS_perf_event_open,
        SYS_bpf,
        SYS_userfaultfd,
        SYS_io_uring_setup,
        SYS_io_uring_enter,
        SYS_io_uring_register,
        SYS_mount,
        SYS_umount2,
        SYS_pivot_root,
        SYS_chroot,
        SYS_setns,
        SYS_unshare,
        SYS_keyctl,
        SYS_add_key,
        SYS_request_key,
        SYS_kexec_load,
        SYS_kexec_file_load,
        SYS_init_module,
        SYS_finit_module,
        SYS_delete_module,
        SYS_reboot,
        SYS_swapon,
        SYS_swapoff,
        SYS_acct,
        SYS_settimeofday,
        SYS_clock_settime,
        SYS_adjtimex,
        SYS_clock_adjtime,
        SYS_fanotify_init,
        428 /* open_tree */,
        429 /* move_mount */,
        430 /* fsopen */,
        431 /* fsconfig */,
        432 /* fsmount */,
        433 /* fspick */,
        442 /* mount_setattr */,
    };
    return killed;
}

// Returns "" or why the filter could not be installed.
inline const char* install(bool allowThreads, uint32_t selfPid) {
    const uint32_t kill = SECCOMP_RET_KILL_PROCESS, eperm = SECCOMP_RET_ERRNO | EPERM;
    std::vector<sock_filter> f;
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, kill));
    loadNr(f);
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1)); // the x32 ABI
    f.push_back(BPF_STMT(BPF_RET | BPF_K, kill));

    for (uint32_t nr : killedSyscalls()) jumpIfEqual(f, nr, kill);
    // sched_setattr sets what sched_setscheduler and setpriority do, for any
    // process of the job (SCHED_IDLE on the reference's runner or the judge).
    static const uint32_t refused[] = {SYS_sched_setaffinity, SYS_sched_setscheduler, SYS_sched_setparam, SYS_sched_setattr,
                                       SYS_setpriority,       SYS_ioprio_set,         SYS_migrate_pages,  SYS_move_pages};
    for (uint32_t nr : refused) jumpIfEqual(f, nr, eperm);
    // openat2 hides its flags in a struct: let the C library fall back to openat.
    jumpIfEqual(f, 437 /* openat2 */, SECCOMP_RET_ERRNO | ENOSYS);
    // clone3 likewise hides its flags: glibc then uses clone, whose flags we see.
    jumpIfEqual(f, SYS_clone3, SECCOMP_RET_ERRNO | ENOSYS);

    onlySelf(f, SYS_kill, 0, selfPid, true);
    onlySelf(f, SYS_tgkill, 0, selfPid, false);
    onlySelf(f, SYS_rt_sigqueueinfo, 0, selfPid, false);
    onlySelf(f, SYS_rt_tgsigqueueinfo, 0, selfPid, false);
    onlySelf(f, SYS_prlimit64, 0, selfPid, true);

    // madvise on memory other runners share (every runner maps the same
    // output memfds): MADV_REMOVE punches holes the next runner faults on,
    // MADV_COLD and MADV_PAGEOUT push its pages out. A kernel's own memory
    // needs none of them.
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 0, 6));
    loadArgLow(f, 2);
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 9 /* MADV_REMOVE */, 3, 0));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 20 /* MADV_COLD */, 2, 0));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 21 /* MADV_PAGEOUT */, 1, 0));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, eperm));

    // fcntl(F_ADD_SEALS): a case's memfds are shared by every runner; one
    // sealed against future writes (F_SEAL_FUTURE_WRITE), from a thread that
    // catches its descriptor before the runner closes it, would make the next
    // runner that maps it fail, a fault charged to the problem. A kernel
    // seals nothing.
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 0, 4));
    loadArgLow(f, 1);
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1033 /* F_ADD_SEALS */, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, eperm));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));

    // open(path, flags) and openat(dir, path, flags): reading only.
    const uint32_t writing = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    for (auto [nr, arg] : {std::pair<uint32_t, int>{SYS_open, 1}, {SYS_openat, 2}}) {
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 4));
        loadArgLow(f, arg);
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, writing, 0, 1));
        f.push_back(BPF_STMT(BPF_RET | BPF_K, kill));
        f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    // clone: threads (CLONE_THREAD) where allowed; never a new process.
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4));
    loadArgLow(f, 0);
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, allowThreads ? SECCOMP_RET_ALLOW : eperm));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, kill));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));

    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return "prctl(PR_SET_NO_NEW_PRIVS) failed";
    sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return "prctl(PR_SET_SECCOMP) failed";
    return "";
}
// A second filter, for a problem that takes the candidate's own code only,
// installed once its library is loaded (the judge then checks from outside
// what the loading mapped): no executable memory from here on, so no library
// can be loaded by any route (dlopen under another name, the baseline's or
// the reference's object, a copy in a memfd) and no code written at run time
// can run. Such calls fail with EPERM.
inline const char* forbidNewCode() {
    std::vector<sock_filter> f;
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    for (uint32_t nr : {uint32_t(SYS_mmap), uint32_t(SYS_mprotect), uint32_t(SYS_pkey_mprotect)}) {
        loadNr(f);
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 3));
        loadArgLow(f, 2);
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x4 /* PROT_EXEC */, 0, 1));
        f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM));
    }
    // System V shared memory can be attached executable (SHM_EXEC); a kernel has no use for it.
    loadNr(f);
    jumpIfEqual(f, SYS_shmat, SECCOMP_RET_ERRNO | EPERM);
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) return "prctl(PR_SET_SECCOMP) failed for the own-code filter";
    return "";
}
#else
constexpr bool kSupported = false;
inline const char* install(bool, uint32_t) {
    return "seccomp filters are written for x86-64 only";
}
inline const char* forbidNewCode() {
    return "seccomp filters are written for x86-64 only";
}
#endif

} // namespace ksseccomp
