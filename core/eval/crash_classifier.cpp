#include "eval/crash_classifier.h"

#include "util/files.h"

#include <csignal>

namespace kw::eval {
namespace {

std::string markerValue(const std::string& text, const std::string& key) {
    const auto pos = text.find(key);
    if (pos == std::string::npos) return {};
    const auto start = pos + key.size();
    return text.substr(start, text.find_first_of(" \n", start) - start);
}

std::string signalName(int sig) {
    switch (sig) {
    case SIGSEGV:
        return "segmentation fault";
    case SIGBUS:
        return "bus error";
    case SIGFPE:
        return "arithmetic exception";
    case SIGILL:
        return "illegal instruction";
    case SIGABRT:
        return "abort";
    case SIGKILL:
        return "killed";
    default:
        return "signal " + std::to_string(sig);
    }
}

} // namespace

EvaluationResult classifyCrash(const CrashEvidence& e) {
    const std::string& err = e.stderrText;
    const std::string during = e.phase.empty() ? "" : " during: " + e.phase;
    int sig = 0;
    if (const auto s = markerValue(err, "KW-FATAL signal="); !s.empty())
        sig = std::atoi(s.c_str());
    else if (e.exitCode > 128)
        sig = e.exitCode - 128;
    // "building ...": the judge is drawing inputs, with the problem's own fill
    // functions (a fill that crashes is the problem's fault, not the candidate's).
    const bool inFill = e.phase.rfind("building", 0) == 0;
    const bool inReference = e.phase.rfind("reference", 0) == 0 || e.phase.rfind("loading", 0) == 0 || inFill;
    const bool inCandidate = err.find("in_candidate=1") != std::string::npos || (!inReference && e.phase != "done");

    EvaluationResult r;
    if (const auto arg = markerValue(err, "KW-INPUT-WRITE arg="); !arg.empty()) {
        r = failedResult(EvalStatus::WrongAnswer,
                         "the candidate wrote into its input " + arg + " (inputs are read-only during calls)" + during);
    } else if (err.find("KW-OOM") != std::string::npos) {
        r = failedResult(EvalStatus::Oom,
                         "the candidate could not allocate memory (" + markerValue(err, "KW-OOM bytes=") + " bytes)" + during);
    } else if (err.find("KW-KILLED-EARLY") != std::string::npos) {
        // The torch judge died of a signal long before its limit. Once the
        // candidate's runner exists, the candidate is the one untrusted party.
        const std::string how = "the judge was killed (" + signalName(sig ? sig : SIGKILL) + ") before its time limit";
        if (err.find("KW-CANDIDATE-RUNNER") != std::string::npos)
            r = failedResult(EvalStatus::RuntimeError,
                             how + ", with the candidate's runner alive: a candidate may not signal other processes" + during);
        else
            r = failedResult(EvalStatus::InfraError,
                             how + ", before any candidate code ran" + during +
                                 " (the host's doing: out of memory, or an operator; no candidate was charged)");
    } else if (err.find("KW-TIMEOUT") != std::string::npos || e.exitCode == 124 || e.exitCode == 137 || sig == SIGXCPU) {
        // The job's limit ran out while no candidate code was being waited for:
        // the problem's kernels, the judge's own work or other jobs are to blame.
        const bool notTheCandidates = inReference || e.phase.rfind("waiting for the timing lock", 0) == 0 ||
                                      e.phase.rfind("building", 0) == 0 || e.phase.rfind("startup", 0) == 0;
        if (notTheCandidates)
            r = failedResult(EvalStatus::InfraError, "the job's time limit ran out, but not in the candidate's code" + during +
                                                         " (the problem's fault or a busy host; no candidate was charged)");
        else
            r = failedResult(EvalStatus::Timeout, "time limit exceeded" + during);
    } else if (sig == SIGXFSZ) {
        r = failedResult(EvalStatus::RuntimeError, "the candidate exceeded the file size limit" + during);
    } else if (inReference && !inCandidate) {
        r = failedResult(EvalStatus::InfraError,
                         std::string(inFill ? "the problem's fill failed (" : "the problem's reference failed (") +
                             (sig ? signalName(sig) : "exit " + std::to_string(e.exitCode)) + ")" + during);
    } else {
        r = failedResult(EvalStatus::RuntimeError, "the candidate crashed (" +
                                                       (sig ? signalName(sig) : "exit " + std::to_string(e.exitCode)) + ")" +
                                                       during);
    }
    r.buildLog = truncateMiddle(err, 1000, 3000);
    return r;
}

std::optional<CrashEvidence> readCrashEvidence(const std::filesystem::path& jobDir) {
    auto rc = readTextFile(jobDir / "build" / "harness.rc");
    // The judge's own markers come last; a candidate's flood of output is cut from the middle.
    auto err = readFileEnds(jobDir / "build" / "run.err", 64 << 10, 256 << 10);
    if (!rc && !err) return std::nullopt;
    CrashEvidence e;
    if (rc) e.exitCode = std::atoi(rc->c_str());
    if (err) e.stderrText = *err;
    if (auto phase = readTextFile(jobDir / "build" / "phase")) e.phase = phase->substr(0, 300);
    return e;
}

} // namespace kw::eval
