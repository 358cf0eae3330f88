#pragma once
// Landlock for a runner that cannot host a seccomp filter (valgrind's, for
// cachegrind): it and everything it starts may write only under the given
// folders. Without it, such a runner (or a process it leaves behind) could
// rewrite the job's files: the problem's libraries that the other runners
// map (their code pages follow the file), the judge's phase file, a FIFO
// where the judge writes. Linux 5.13 or later; older kernels say so.
// Part of the C++ judge: included by judge_main.cpp after the system headers.

#include <linux/landlock.h>

namespace runner_landlock {

// "" when confined, else why not (the caller reports it, and goes on).
inline std::string restrictWrites(const std::vector<std::string>& writable) {
    const long abi = syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return std::string("Landlock is not available (") + std::strerror(errno) + "; Linux 5.13 or later has it)";
    __u64 writes = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
                   LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                   LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                   LANDLOCK_ACCESS_FS_MAKE_SYM;
    if (abi >= 2) writes |= 1ULL << 13; // LANDLOCK_ACCESS_FS_REFER: renames and links into other folders
    if (abi >= 3) writes |= 1ULL << 14; // LANDLOCK_ACCESS_FS_TRUNCATE
    landlock_ruleset_attr attr{};
    attr.handled_access_fs = writes;
    const int ruleset = static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) return std::string("landlock_create_ruleset: ") + std::strerror(errno);
    for (const auto& dir : writable) {
        const int fd = open(dir.c_str(), O_PATH | O_CLOEXEC);
        if (fd < 0) {
            close(ruleset);
            return "cannot open " + dir + ": " + std::strerror(errno);
        }
        landlock_path_beneath_attr beneath{};
        beneath.allowed_access = writes;
        beneath.parent_fd = fd;
        const long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
        const int err = errno;
        close(fd);
        if (added != 0) {
            close(ruleset);
            return "landlock_add_rule(" + dir + "): " + std::strerror(err);
        }
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
        const int err = errno;
        close(ruleset);
        return std::string("landlock_restrict_self: ") + std::strerror(err);
    }
    close(ruleset);
    return "";
}

} // namespace runner_landlock
