#pragma once
#include "eval/evaluation_result.h"
#include "util/result.h"

namespace kw::cli {

// Exit codes: scripts branch on the failure class without parsing output.
enum ExitCode {
    kExitOk = 0,
    kExitError = 1, // I/O, database, sandbox unavailable
    kExitUsage = 2, // bad command line
    kExitWrongAnswer = 3,
    kExitCompileError = 4,
    kExitRuntimeError = 5,
    kExitTimeout = 6,
    kExitOom = 7,
    kExitSandboxViolation = 8,
    kExitInfraError = 9,
    kExitInvalidProblem = 10,
};

inline int exitCodeFor(eval::EvalStatus status) {
    switch (status) {
    case eval::EvalStatus::Ok:
        return kExitOk;
    case eval::EvalStatus::WrongAnswer:
        return kExitWrongAnswer;
    case eval::EvalStatus::CompileError:
        return kExitCompileError;
    case eval::EvalStatus::RuntimeError:
        return kExitRuntimeError;
    case eval::EvalStatus::Timeout:
        return kExitTimeout;
    case eval::EvalStatus::Oom:
        return kExitOom;
    case eval::EvalStatus::SandboxViolation:
        return kExitSandboxViolation;
    case eval::EvalStatus::InfraError:
        return kExitInfraError;
    case eval::EvalStatus::SynthError:
        return kExitInfraError; // never from an evaluation
    }
    return kExitError;
}

// An error's exit code, the one rule of every command: what the user gave
// (an argument, a model, a key, an executor setting, a search or node that
// does not exist, a value a rule refuses) is a usage error; the rest (I/O,
// the database, the sandbox, a malformed file) is the run's failure.
inline int exitCodeFor(const Error& error) {
    switch (error.code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::NotFound:
    case ErrorCode::Validation:
        return kExitUsage;
    case ErrorCode::ParseError:
    case ErrorCode::Io:
    case ErrorCode::Database:
    case ErrorCode::Sandbox:
    case ErrorCode::Internal:
        return kExitError;
    }
    return kExitError;
}

} // namespace kw::cli
