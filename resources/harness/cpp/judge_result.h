#pragma once
// result.json: the verdict, checks and timings the judge writes last.
// Part of the C++ judge: included once, in order, by judge_main.cpp (one
// translation unit), after the headers and the problem's generated part.

namespace {

// ------------------------------------------------------------ the result ---
struct Json {
    std::string status = "ok";
    std::string message;
    std::vector<std::string> checks;
    std::vector<std::string> timings;
    double speedup = 0;
    bool implausible = false;
    double checkSeconds = 0, timeSeconds = 0, kernelSeconds = 0, setupSeconds = 0;
    double flushSeconds = 0, poisonSeconds = 0, verifySeconds = 0, freezeSeconds = 0;
    double lockWaitSeconds = 0, refreshSeconds = 0;
    double roundsSeconds = 0; // the timed rounds alone, every shape (the rest of "time" is warm-up and set-up)
    double handoffSeconds = 0;
    int straysKilled = 0; // processes the runners left behind, killed before this result was written
    int wideChecked = 0,
        wideOutsideDomain = 0; // check shapes on wide inputs: compared, and skipped (the reference left the finite numbers)
    std::string seccomp = "on";
    std::string profilerFiles; // the unfiltered profiling runner's writes: "own folder", or why not ("": none ran)
    std::string outputs;       // "own copy per runner" as verified from the runners' maps, or what was found ("": not checked)
    uint64_t secret = 0;
    bool secretGiven = false;
    bool fail(const std::string& status, const std::string& message) {
        if (this->status == "ok") {
            this->status = status;
            this->message = message;
        }
        return false;
    }
    bool ok() const { return status == "ok"; }
};

// A file the judge writes in the job dir, opened so that nothing found at
// the path can hold the judge: a process of the candidate's that ran with no
// filter (under a profiler) may have left a FIFO there (opening one to write
// blocks until the job is killed) or a link. Anything not a regular file is
// removed and the file made afresh, exclusively, never followed. nullptr
// when that fails.
FILE* freshFile(const char* path, bool append = false) {
    for (int attempt = 0; attempt < 3; ++attempt) {
        const int flags =
            O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (append ? O_APPEND : O_TRUNC) | (attempt ? O_EXCL : 0);
        const int fd = open(path, flags, 0644);
        struct stat st {};
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            if (FILE* f = fdopen(fd, append ? "a" : "w")) return f;
        }
        if (fd >= 0) close(fd);
        unlink(path);
    }
    return nullptr;
}

std::string envJson(const Json& r) {
    return std::string("{\"host\":") + q(hostName()) + ",\"cpu\":" + q(cpuModel()) +
           ",\"cores\":" + std::to_string(sysconf(_SC_NPROCESSORS_ONLN)) + ",\"compiler\":" + q(__VERSION__) +
           ",\"flags\":" + q(KW_COMPILE_FLAGS) +
#ifdef KW_CUDA
           ",\"gpu\":" + q(ksDevName()) +
#endif
           ",\"isolation\":{\"processes\":true,\"seccomp\":" + q(r.seccomp) +
           ",\"input_seed\":" + q(r.secretGiven ? "given" : "secret") +
           ",\"code_policy\":" + q(KW_OWN_CODE ? "own_code" : "library") +
#ifdef KW_CUDA
           ",\"own_code_enforced\":false" + // a CUDA runner maps the driver's code: judge_runners.h's ownCodeEnforced
#else
           ",\"own_code_enforced\":" + std::string(KW_OWN_CODE ? "true" : "false") +
#endif
           ",\"strays_killed\":" + std::to_string(r.straysKilled) +
           (r.outputs.empty() ? std::string() : ",\"outputs\":" + q(r.outputs)) +
           (r.profilerFiles.empty() ? std::string() : ",\"profiler_files\":" + q(r.profilerFiles)) + "}}";
}

void writeResult(const Json& r, const std::string& buildLog) {
    std::string out = "{\n\"schema\":1,\n\"status\":" + q(r.status) + ",\n\"message\":" + q(r.message) + ",\n";
    out += "\"problem\":" + q(KW_PROBLEM) + ",\n\"speedup\":" + (r.speedup > 0 ? num(r.speedup) : std::string("null")) + ",\n";
    out += "\"implausible_speedup\":" + std::string(r.implausible ? "true" : "false") + ",\n";
    out += "\"build_log\":" + q(buildLog) + ",\n\"checks\":[";
    for (size_t i = 0; i < r.checks.size(); ++i) out += (i ? ",\n" : "\n") + r.checks[i];
    out += "],\n\"timing\":[";
    for (size_t i = 0; i < r.timings.size(); ++i) out += (i ? ",\n" : "\n") + r.timings[i];
    out += "],\n\"phase_seconds\":{\"setup\":" + num(r.setupSeconds) + ",\"check\":" + num(r.checkSeconds) +
           ",\"time\":" + num(r.timeSeconds) + ",\"kernel\":" + num(r.kernelSeconds) + ",\"flush\":" + num(r.flushSeconds) +
           ",\"poison\":" + num(r.poisonSeconds) + ",\"verify\":" + num(r.verifySeconds) + ",\"freeze\":" + num(r.freezeSeconds) +
           ",\"refresh\":" + num(r.refreshSeconds) + ",\"time_rounds\":" + num(r.roundsSeconds) +
           ",\"timing_lock_wait\":" + num(r.lockWaitSeconds) + "},\n";
    out += "\"handoff_seconds\":" + num(r.handoffSeconds) + ",\n";
    out += "\"wide_inputs\":{\"checked\":" + std::to_string(r.wideChecked) +
           ",\"outside_domain\":" + std::to_string(r.wideOutsideDomain) + "},\n";
    // Told only now that every candidate process is gone: it reproduces the inputs.
    out += "\"input_secret\":\"" + std::to_string(r.secret) + "\",\n";
    out += "\"env\":" + envJson(r) + "\n}\n";
    FILE* f = freshFile("result.json.tmp");
    if (!f) {
        std::perror("result.json");
        std::exit(3);
    }
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    std::rename("result.json.tmp", "result.json");
}

std::string gPhase; // the last one set

void setPhase(const char* phase) {
    gPhase = phase;
    if (FILE* f = freshFile("build/phase")) {
        std::fputs(phase, f);
        std::fclose(f);
    }
}

// While the judge waits on the candidate's runner outside a call (as it maps
// a case's buffers), the phase names the candidate, then goes back: a
// candidate whose signal handlers stall such waits until the job's limit
// runs out is charged with that timeout, whatever phase the judge was in.
struct CandidateWait {
    std::string before;
    bool active;
    explicit CandidateWait(bool candidate) : before(gPhase), active(candidate) {
        if (active) setPhase("candidate taking its buffers");
    }
    ~CandidateWait() {
        if (active) setPhase(before.c_str());
    }
    CandidateWait(const CandidateWait&) = delete;
    CandidateWait& operator=(const CandidateWait&) = delete;
};

} // namespace
