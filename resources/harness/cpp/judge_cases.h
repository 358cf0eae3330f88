#pragma once
// Cases shared with runners, checked against the reference's answers.
// Part of the C++ judge: included once, in order, by judge_main.cpp (one
// translation unit), after the headers and the problem's generated part.

namespace {

// ------------------------------------------------------------------ cases ---
// A case as runners see it: inputs sealed against writing and reopened
// read-only, outputs shared; `id` names it in messages.
struct SharedCase;
#ifdef KW_CUDA
std::map<uint32_t, SharedCase*> gLiveCases; // by id: a call moves its cases' buffers to and from the device
bool gL2FlushPending = false;               // flushCaches asks; the next call's preparation does it
#endif

// A runner's own copy of an output (host builds): a memfd no other runner
// maps, so nothing one runner does to its pages (advice, seals, holes, a
// mapping kept past its call) can reach another's outputs or time.
struct OutputView {
    int fd = -1;
    void* map = nullptr;
};

struct SharedCase {
    uint32_t id = 0;
    Case c;
    std::vector<int> sendFds;                               // one per buffer, in argument order
    std::map<std::string, std::vector<OutputView>> outputs; // by runner name: one view per buffer (inputs: none)
    SharedCase() = default;
    SharedCase(const SharedCase&) = delete;
    SharedCase& operator=(const SharedCase&) = delete;
    ~SharedCase() {
        for (int fd : sendFds)
            if (fd >= 0) close(fd);
        for (auto& [runner, views] : outputs)
            for (size_t i = 0; i < views.size(); ++i) {
                if (views[i].map) munmap(views[i].map, c.buffers[i].mapBytes);
                if (views[i].fd >= 0) close(views[i].fd);
            }
#ifdef KW_CUDA
        gLiveCases.erase(id);
#endif
    }
};

#ifndef KW_CUDA
// The runner's own outputs of a case, made the first time it takes the
// case: "" or why the host cannot hold them.
std::string makeOutputViews(SharedCase& sc, const std::string& runner) {
    if (sc.outputs.count(runner)) return "";
    std::vector<OutputView> views(sc.c.buffers.size());
    std::string why;
    for (size_t i = 0; i < sc.c.buffers.size() && why.empty(); ++i) {
        const Buffer& b = sc.c.buffers[i];
        if (!b.output || b.mapBytes == 0) continue;
        OutputView& v = views[i];
        why = mappedMemfd(b.name.c_str(), b.mapBytes, &v.fd, &v.map);
        if (why.empty())
            fcntl(v.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
        else
            why = "cannot allocate " + bytesText(static_cast<double>(b.mapBytes)) + " for the " + runner + "'s copy of " +
                  b.name + " (" + why + ")";
    }
    sc.outputs.emplace(runner, std::move(views)); // freed with the case, made or not
    return why;
}
#endif

#ifndef KW_CUDA
// Whether any runner maps an output another runner writes, read by the judge
// from each runner's /proc/PID/maps (nothing a runner can rewrite): "" when
// each maps only its own copy, else who maps whose.
std::string outputsShared(const SharedCase& sc, const std::vector<Runner*>& runners) {
    // An output memfd's device and inode -> the runner it belongs to (the
    // device too: a file elsewhere may share an inode number).
    using FileId = std::tuple<unsigned, unsigned, unsigned long long>;
    std::map<FileId, std::string> owner;
    const auto idOf = [](int fd, FileId* id) {
        struct stat st {};
        if (fd < 0 || fstat(fd, &st) != 0) return false;
        *id = {major(st.st_dev), minor(st.st_dev), static_cast<unsigned long long>(st.st_ino)};
        return true;
    };
    FileId id;
    for (const auto& [runner, views] : sc.outputs)
        for (const OutputView& v : views)
            if (idOf(v.fd, &id)) owner[id] = runner;
    for (const Buffer& b : sc.c.buffers)
        if (b.output && idOf(b.fd, &id)) owner[id] = "judge";
    for (const Runner* r : runners) {
        if (!r || r->dead || r->pid <= 0) continue;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/%d/maps", static_cast<int>(r->pid));
        FILE* f = std::fopen(path, "r");
        if (!f) return "the " + r->name + "'s memory map cannot be read (" + std::strerror(errno) + ")";
        std::string found;
        char line[4096];
        while (found.empty() && std::fgets(line, sizeof line, f)) {
            unsigned devMajor = 0, devMinor = 0;
            unsigned long long inode = 0;
            if (std::sscanf(line, "%*llx-%*llx %*7s %*llx %x:%x %llu", &devMajor, &devMinor, &inode) != 3 || inode == 0) continue;
            const auto it = owner.find(FileId{devMajor, devMinor, inode});
            if (it != owner.end() && it->second != r->name) found = "the " + r->name + " maps the " + it->second + "'s outputs";
        }
        std::fclose(f);
        if (!found.empty()) return found;
    }
    return "";
}
#endif

// Points the case's outputs at `r`'s own copy (host builds; on a device the
// runners share the device allocation and the judge moves the data): what
// the judge poisons, flushes and reads next is what that runner writes.
void useOutputsOf(SharedCase& sc, const Runner& r) {
#ifdef KW_CUDA
    (void)sc;
    (void)r;
#else
    const auto it = sc.outputs.find(r.name);
    if (it == sc.outputs.end()) return; // the runner never took the case: the judge's own copy
    for (size_t i = 0; i < sc.c.buffers.size(); ++i)
        if (it->second[i].map) sc.c.buffers[i].data = static_cast<unsigned char*>(it->second[i].map) + sc.c.buffers[i].offset;
#endif
}

#ifdef KW_CUDA
// An input's new contents go up, and into the copy no runner holds.
std::string uploadInputs(Case& c) {
    for (auto& b : c.buffers) {
        if (b.output) continue;
        if (auto err = ksDevUpload(b.dev, b.data, b.dataBytes); !err.empty()) return err;
        if (auto err = ksDevCopy(b.pristine, b.dev, b.dataBytes); !err.empty()) return err;
    }
    return {};
}

// Device mirrors for a built case; "" or why the device cannot hold it.
std::string mirrorCase(SharedCase& sc) {
    for (auto& b : sc.c.buffers) {
        if (auto err = ksDevAllocShared(b.dataBytes, &b.dev, &b.devFd, &b.devMapBytes); !err.empty())
            return "the device cannot hold argument " + b.name + " (" + bytesText(static_cast<double>(b.dataBytes)) + "): " + err;
        if (!b.output)
            if (auto err = ksDevAlloc(b.dataBytes, &b.pristine); !err.empty())
                return "the device cannot hold a second copy of argument " + b.name + ": " + err;
    }
    // Runners get the device allocations, not the host memfds.
    for (size_t i = 0; i < sc.c.buffers.size() && i < sc.sendFds.size(); ++i) {
        if (sc.sendFds[i] >= 0) close(sc.sendFds[i]);
        sc.sendFds[i] = fcntl(sc.c.buffers[i].devFd, F_DUPFD_CLOEXEC, 0);
    }
    gLiveCases[sc.id] = &sc;
    return uploadInputs(sc.c);
}

// Before a call: the cases' poisoned outputs go up, the L2 is flushed when
// asked, and the judge's device work is done before the clock starts.
std::string deviceBefore(const std::vector<uint32_t>& cases) {
    for (uint32_t id : cases) {
        const auto it = gLiveCases.find(id);
        if (it == gLiveCases.end()) return "internal: a call on a case the judge does not hold";
        for (auto& b : it->second->c.buffers)
            if (b.output)
                if (auto err = ksDevUpload(b.dev, b.data, b.dataBytes); !err.empty()) return err;
    }
    if (gL2FlushPending)
        if (auto err = ksDevFlushL2(); !err.empty()) return err;
    gL2FlushPending = false;
    if (auto err = ksDevSync(); !err.empty()) return err;
    return ksDevProbe();
}

// After a call, the runner frozen: outputs come back to the host, every input
// is compared with its copy (and restored), every red zone is checked. "" or
// the judge's own device failure; *violation says what the kernel did wrong.
std::string deviceAfter(const std::vector<uint32_t>& cases, std::string* violation) {
    for (uint32_t id : cases) {
        const auto it = gLiveCases.find(id);
        if (it == gLiveCases.end()) return "internal: a call on a case the judge does not hold";
        for (auto& b : it->second->c.buffers) {
            if (b.output) {
                if (auto err = ksDevDownload(b.data, b.dev, b.dataBytes); !err.empty()) return err;
            } else {
                bool same = false;
                if (auto err = ksDevEqual(b.dev, b.pristine, b.dataBytes, &same); !err.empty()) return err;
                if (!same) {
                    if (violation->empty()) *violation = "wrote into its input " + b.name + " (inputs are read-only)";
                    if (auto err = ksDevCopy(b.dev, b.pristine, b.dataBytes); !err.empty()) return err;
                }
            }
            bool intact = true;
            const std::string where = ksDevRedZone(b.dev, b.dataBytes, &intact);
            if (!intact && violation->empty())
                *violation = "wrote past the end of " + b.name + " (" + where + ")";
            else if (intact && !where.empty())
                return where;
        }
    }
    return {};
}
#endif

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

uint32_t gNextCaseId = 1;

// Seals a built case's inputs and prepares the descriptors runners get.
std::string sealCase(SharedCase& sc) {
    for (auto& b : sc.c.buffers) {
        if (b.output) {
            fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
            sc.sendFds.push_back(fcntl(b.fd, F_DUPFD_CLOEXEC, 0));
            continue;
        }
        // Sealed: no new writable mapping of it can ever be made, by anyone;
        // the judge's own mapping stays. Reopened read-only as well, for
        // kernels that predate the seal.
        const bool sealed = fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE) == 0;
        char path[64];
        std::snprintf(path, sizeof path, "/proc/self/fd/%d", b.fd);
        const int ro = open(path, O_RDONLY | O_CLOEXEC);
        if (ro < 0 && !sealed) return "cannot share input " + b.name + " read-only (no memfd seals and no /proc)";
        fcntl(b.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
        sc.sendFds.push_back(ro >= 0 ? ro : fcntl(b.fd, F_DUPFD_CLOEXEC, 0));
    }
    return "";
}

// Seals a built case and, for CUDA kernels, mirrors it on the device.
std::string finishCase(SharedCase& sc) {
    if (std::string err = sealCase(sc); !err.empty()) return err;
#ifdef KW_CUDA
    return mirrorCase(sc);
#else
    return "";
#endif
}

// Builds, fills and seals a case; "" or why the host cannot hold it.
std::string makeCase(const int64_t* sizes, uint64_t seed, SharedCase& sc) {
    sc.id = gNextCaseId++;
    kw_build_case(sizes, seed, sc.c);
    if (!sc.c.allocError.empty()) return sc.c.allocError;
    return finishCase(sc);
}

// A case for the check on wide inputs: built like a check case, then its
// float inputs moved beyond the fill (kw_widen_case). `widened` is false
// when the problem has no such input (the case is then not needed).
std::string makeWideCase(const int64_t* sizes, uint64_t seed, SharedCase& sc, bool& widened) {
    sc.id = gNextCaseId++;
    kw_build_case(sizes, seed, sc.c);
    if (!sc.c.allocError.empty()) return sc.c.allocError;
    widened = kw_widen_case(sc.c, mixSeed(seed, 0x57494445ull));
    return finishCase(sc);
}

// Whether the reference's two answers on one case disagree beyond the
// tolerance (its first call's outputs poisoned one way, its second's the
// other): "" when they agree, else what differs. A reference that leaves
// elements unwritten, reads its own output buffer or keeps state between
// calls fails here, before its answer is used to judge anyone.
std::string referenceDisagrees(Case& c, const std::vector<std::vector<unsigned char>>& first,
                               const std::vector<std::vector<unsigned char>>& second) {
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        const Buffer& b = c.buffers[i];
        if (!b.output || first[i] == second[i]) continue;
        Buffer once = b, again = b;
        once.data = const_cast<unsigned char*>(first[i].data());
        again.data = const_cast<unsigned char*>(second[i].data());
        for (size_t e = 0; e < b.count; ++e)
            if (isPoison(once, e, 0) && isPoison(again, e, 1))
                return b.name + ": element " + std::to_string(e) + " is never written";
        const Comparison cmp = compareOutput(again, first[i], nullptr, static_cast<const Buffer*>(nullptr),
                                             KW_TOLERANCE[static_cast<int>(b.dt)][0], KW_TOLERANCE[static_cast<int>(b.dt)][1]);
        if (cmp.kind != "ok")
            return b.name + ": " + std::to_string(cmp.mismatches + cmp.unwritten) + " of " + std::to_string(b.count) +
                   " elements differ (first at index " + std::to_string(cmp.firstIndex) + ")";
    }
    return "";
}

// Whether an output of the reference holds an infinity or a NaN.
bool anyNonFinite(const Case& c, const std::vector<std::vector<unsigned char>>& outputs) {
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        const Buffer& b = c.buffers[i];
        if (!b.output || outputs[i].size() < b.count * dtSize(b.dt)) continue;
        for (size_t e = 0; e < b.count; ++e) {
            double v = 0;
            if (b.dt == DT::F32) {
                float f;
                std::memcpy(&f, outputs[i].data() + e * 4, 4);
                v = f;
            } else if (b.dt == DT::F64) {
                std::memcpy(&v, outputs[i].data() + e * 8, 8);
            } else {
                break;
            }
            if (!std::isfinite(v)) return true;
        }
    }
    return false;
}

// Another input set like `from`: its sizes and jagged structure copied, then
// every input drawn again (kw_refresh_case), so no two sets share values.
std::string cloneCase(const SharedCase& from, uint64_t seed, SharedCase& sc) {
    sc.id = gNextCaseId++;
    sc.c.sizes = from.c.sizes;
    for (const auto& b : from.c.buffers) {
        Buffer& nb = sc.c.add(b.name.c_str(), b.dt, static_cast<int64_t>(b.count), b.output);
        if (!sc.c.allocError.empty()) return sc.c.allocError;
        if (!b.output && b.dataBytes) std::memcpy(nb.data, b.data, b.dataBytes);
    }
    kw_refresh_case(sc.c, seed);
    return finishCase(sc);
}

// New contents for a case's inputs (on the device too); "" or why not.
std::string refreshCase(SharedCase& sc, uint64_t seed) {
    kw_refresh_case(sc.c, seed);
#ifdef KW_CUDA
    return uploadInputs(sc.c);
#else
    return "";
#endif
}

bool shareCase(Runner& r, SharedCase& sc, Json& res, const std::string& where) {
    std::vector<int> fds = sc.sendFds;
#ifndef KW_CUDA
    if (std::string err = makeOutputViews(sc, r.name); !err.empty())
        return res.fail("infra_error", "the judge " + err + " " + where);
    const auto& views = sc.outputs.at(r.name);
    for (size_t i = 0; i < fds.size() && i < views.size(); ++i)
        if (views[i].fd >= 0) fds[i] = views[i].fd;
#endif
    MapMsg m{};
    m.type = Map;
    m.caseId = sc.id;
    m.buffers = static_cast<uint32_t>(sc.c.buffers.size());
    m.sizeCount = static_cast<uint32_t>(std::min<size_t>(sc.c.sizes.size(), kMaxSizes));
    for (uint32_t i = 0; i < m.sizeCount; ++i) m.sizes[i] = sc.c.sizes[i];
    for (uint32_t i = 0; i < m.buffers; ++i) {
        const Buffer& b = sc.c.buffers[i];
#ifdef KW_CUDA
        m.buffer[i] = BufferDesc{b.devMapBytes, 0, b.dataBytes, b.output ? 1u : 0u, {}};
#else
        m.buffer[i] = BufferDesc{b.mapBytes, b.offset, b.dataBytes, b.output ? 1u : 0u, {}};
#endif
        std::snprintf(m.buffer[i].name, sizeof m.buffer[i].name, "%s", b.name.c_str());
    }
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxBuffers)] = {};
    iovec iov{&m, sizeof m};
    msghdr h{};
    h.msg_iov = &iov;
    h.msg_iovlen = 1;
    if (m.buffers > 0) {
        h.msg_control = control;
        h.msg_controllen = CMSG_SPACE(sizeof(int) * m.buffers);
        cmsghdr* c = CMSG_FIRSTHDR(&h);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * m.buffers);
        std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * m.buffers);
    }
    const CandidateWait waiting(r.candidate);
    thaw(r);
    ShortMsg reply{};
    bool timedOut = false;
    if (sendmsg(r.sock, &h, MSG_NOSIGNAL) < 0 || !receive(r, Mapped, 0, 60, reply, &timedOut)) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", "while taking its buffers " + where, timedOut, 60);
    }
    if (reply.status != 0) {
        reply.text[sizeof reply.text - 1] = 0;
        if (r.candidate)
            return res.fail("runtime_error", "the candidate's runner could not map its buffers " + where + ": " + reply.text);
        return res.fail("infra_error", "the " + r.name + "'s runner could not map its buffers " + where + ": " + reply.text);
    }
    r.mapped[sc.id] = true;
    return freeze(r, res) || failRunner(res, r, "", where, false, 0);
}

void forgetCase(Runner& r, const SharedCase& sc) {
    if (r.dead || r.sock < 0 || !r.mapped.count(sc.id)) return;
    ShortMsg m{};
    m.type = Unmap;
    m.seq = sc.id;
    (void)!send(r.sock, &m, sizeof m, MSG_NOSIGNAL | MSG_DONTWAIT); // read when it next runs
    r.mapped.erase(sc.id);
}

// One hand-off: the runner calls its kernel on `cases` in order. The clock
// is the judge's, from the request to the answer; the runner is frozen again
// before anything else happens.
bool callKernel(Runner& r, const std::vector<uint32_t>& cases, double limitS, double* seconds, Json& res,
                const std::string& where) {
    CallMsg m{};
    m.type = cases.empty() ? static_cast<uint32_t>(Nop) : static_cast<uint32_t>(Call);
    m.seq = ++r.seq;
    m.count = static_cast<uint32_t>(std::min<size_t>(cases.size(), kMaxBatch));
    for (uint32_t i = 0; i < m.count; ++i) m.caseId[i] = cases[i];
    const size_t bytes = cases.empty() ? sizeof(ShortMsg) : sizeof m;
#ifdef KW_CUDA
    if (std::string err = deviceBefore(cases); !err.empty())
        return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
#endif
    thaw(r);
    ShortMsg done{};
    bool timedOut = false;
    const double t0 = now();
    const bool sent = send(r.sock, &m, bytes, MSG_NOSIGNAL) == static_cast<ssize_t>(bytes);
    const bool answered = sent && receive(r, Done, m.seq, limitS, done, &timedOut);
    double t1 = now();
    if (!answered) {
        if (timedOut) killRunner(r);
        return failRunner(res, r, "", where, timedOut, limitS);
    }
    if (!freeze(r, res)) return failRunner(res, r, "", where, false, limitS);
#ifdef KW_CUDA
    // The runner's answer is the kernel's word that its device work is done;
    // the clock stops only when the judge sees the device idle (ksDevDrain):
    // work left running past the answer is the kernel's time, not the next's.
    double waited = 0, probe = 0;
    if (std::string err = ksDevDrain(std::max(0.0, limitS - (t1 - t0)), &waited, &probe); !err.empty())
        return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
    t1 += std::max(0.0, waited - probe); // the freeze itself is not the kernel's
    if (t1 - t0 > limitS) {
        killRunner(r);
        return failRunner(res, r, "", where + " (its device work ran on after it answered)", true, limitS);
    }
#endif
    if (seconds) *seconds = t1 - t0;
    res.kernelSeconds += t1 - t0;
    if (done.status == CallOutOfMemory) return failRunner(res, r, "oom", where, false, limitS);
    if (done.status == CallException) return failRunner(res, r, "threw a C++ exception", where, false, limitS);
    done.text[sizeof done.text - 1] = 0;
    if (done.status == CallDeviceError)
        return failRunner(res, r, std::string("failed on the device: ") + done.text, where, false, limitS);
    if (done.status != CallOk) return failRunner(res, r, "lost a case the judge had given it", where, false, limitS);
#ifdef KW_CUDA
    if (!cases.empty()) {
        const double v0 = now();
        std::string violation;
        if (std::string err = deviceAfter(cases, &violation); !err.empty())
            return res.fail("infra_error", "the judge's device work failed " + where + ": " + err);
        res.verifySeconds += now() - v0;
        if (!violation.empty()) {
            if (r.candidate) return res.fail("wrong_answer", "the candidate " + violation + " " + where);
            return res.fail("infra_error", "the problem's " + r.name + " " + violation + " " + where +
                                               " (the problem's fault; no candidate was charged)");
        }
    }
#endif
    return true;
}

double callLimit(double referenceSeconds) {
    // A candidate hundreds of times slower than the naive reference is not
    // worth waiting for; the problem's limit caps it.
    return std::min(KW_CALL_TIMEOUT_S, std::max(2.0, 200.0 * referenceSeconds));
}

std::vector<std::vector<unsigned char>> outputsOf(const Case& c) {
    std::vector<std::vector<unsigned char>> out(c.buffers.size());
    for (size_t i = 0; i < c.buffers.size(); ++i)
        if (c.buffers[i].output) out[i].assign(c.buffers[i].data, c.buffers[i].data + c.buffers[i].dataBytes);
    return out;
}

// Poisons `r`'s outputs of a case before it is called on it; the judge then
// flushes and reads that runner's copy.
void poisonOutputs(SharedCase& sc, const Runner& r, int which) {
    useOutputsOf(sc, r);
    for (auto& b : sc.c.buffers)
        if (b.output) poison(b, which);
}

// Evicts a case's buffers from every cache level: each timed call starts cold.
#if !defined(KW_CUDA) && (defined(__x86_64__) || defined(__i386__))
// CLFLUSHOPT where the CPU has it (CPUID leaf 7, EBX bit 23): unlike CLFLUSH
// it is ordered only by the fence after the loop, so lines are written back
// in parallel. On a Xeon host it evicted 12 MB of dirty lines in 0.5 ms where
// CLFLUSH took 10-15 ms: the flushes were 80 % of saxpy's timed rounds and
// left a 0.3 s budget 20-25 rounds. Reading the lines back after either took
// the same time (both leave them in memory only).
bool cpuHasClflushopt() {
    static const bool has = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23)) != 0;
    }();
    return has;
}

__attribute__((target("clflushopt"))) void flushLinesOpt(unsigned char* p, size_t bytes) {
    for (size_t off = 0; off < bytes; off += 64) __builtin_ia32_clflushopt(p + off);
}
#endif

// How flushCaches evicts a call's buffers (the result's timing "cache").
const char* cacheEviction() {
#if defined(KW_CUDA)
    return "l2flush";
#elif defined(__x86_64__) || defined(__i386__)
    return cpuHasClflushopt() ? "clflushopt" : "clflush";
#else
    return "sweep";
#endif
}

void flushCaches(Case& c) {
#if defined(KW_CUDA)
    (void)c;
    gL2FlushPending = true; // the device's L2, once, right before the call
#elif defined(__x86_64__) || defined(__i386__)
    const bool opt = cpuHasClflushopt();
    for (auto& b : c.buffers) {
        if (opt)
            flushLinesOpt(b.data, b.dataBytes);
        else
            for (size_t off = 0; off < b.dataBytes; off += 64) __builtin_ia32_clflush(b.data + off);
    }
    __builtin_ia32_mfence();
#else
    static std::vector<unsigned char> sweep(64u << 20);
    for (size_t i = 0; i < sweep.size(); i += 64) sweep[i]++;
    (void)c;
#endif
}

// Compares every output of `c` (now holding the first of two calls' results)
// with `expected`; `second` holds the other call's, or null. `draw` names an
// input set no seed describes, for the failure's message.
bool compareCase(Json& res, Case& c, const std::vector<std::vector<unsigned char>>& expected,
                 const std::vector<std::vector<unsigned char>>* first, const std::vector<std::vector<unsigned char>>* second,
                 const char* shapeName, uint64_t seedLabel, const std::string& detail, std::string& firstFailure,
                 const char* draw = nullptr) {
    bool all = true;
    for (size_t i = 0; i < c.buffers.size(); ++i) {
        Buffer& b = c.buffers[i];
        if (!b.output) continue;
        Buffer a = b, s = b;
        if (first) a.data = const_cast<unsigned char*>((*first)[i].data());
        if (second) s.data = const_cast<unsigned char*>((*second)[i].data());
        const Comparison cmp = compareOutput(a, expected[i], second ? &(*second)[i] : nullptr, second ? &s : nullptr,
                                             KW_TOLERANCE[static_cast<int>(b.dt)][0], KW_TOLERANCE[static_cast<int>(b.dt)][1]);
        if (cmp.kind != "ok" || detail.empty())
            res.checks.push_back(checkJson(shapeName, kw_size_json(c), seedLabel, b.name, cmp, b.count, detail));
        if (cmp.kind != "ok") {
            all = false;
            if (firstFailure.empty()) firstFailure = describeFailure(shapeName, seedLabel, b.name, cmp, b.count, draw);
        }
    }
    return all;
}

} // namespace
