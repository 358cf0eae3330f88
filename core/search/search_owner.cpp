#include "search/search_owner.h"

#include <cerrno>
#include <csignal>
#include <unistd.h>

namespace kw::search {

bool ownerAlive(const store::SearchRecord& s) {
    if (!s.ownerPid || *s.ownerPid == getpid() || *s.ownerPid <= 0) return false;
    // EPERM: the process exists but belongs to another user.
    return kill(static_cast<pid_t>(*s.ownerPid), 0) == 0 || errno == EPERM;
}

bool interrupted(const store::SearchRecord& s) {
    return s.status == "running" && !ownerAlive(s) && s.ownerPid != static_cast<std::int64_t>(getpid());
}

} // namespace kw::search
