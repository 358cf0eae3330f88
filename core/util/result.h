#pragma once
// Errors as values at API boundaries: a code a caller can branch on and a
// message a user can act on (which file, which field, what was expected).
#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace kw {

enum class ErrorCode {
    InvalidArgument, // the caller passed something malformed
    NotFound,        // a file, problem, record that does not exist
    ParseError,      // a file exists but its content is malformed
    Validation,      // well-formed but violates a rule of the format
    Io,              // the operating system refused (permissions, disk)
    Database,        // SQLite reported an error
    Sandbox,         // the sandbox cannot be provided as configured
    Internal,        // a bug of ours; the message says where
};

struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
};

inline Error makeError(ErrorCode code, std::string message) {
    return Error{code, std::move(message)};
}

// A minimal std::expected stand-in (C++20): holds either a value or an Error.
template <typename T> class [[nodiscard]] Result {
  public:
    Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : data_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return data_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(data_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(data_);
    }
    T&& value() && {
        assert(ok());
        return std::get<0>(std::move(data_));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const {
        assert(!ok());
        return std::get<1>(data_);
    }

  private:
    std::variant<T, Error> data_;
};

// Result<void>: success or an Error.
class [[nodiscard]] Status {
  public:
    Status() = default;
    Status(Error error) : error_(std::move(error)), failed_(true) {}
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const Error& error() const {
        assert(failed_);
        return error_;
    }

  private:
    Error error_;
    bool failed_ = false;
};

} // namespace kw
