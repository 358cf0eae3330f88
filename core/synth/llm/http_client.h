#pragma once
// One HTTP POST over libcurl with the limits an LLM call needs: a connect
// timeout, a total timeout, a first-byte and an idle timeout for streams, and cancellation by
// a stop token. Transport failures are values, never exceptions.
#include <functional>
#include <map>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

namespace kw::synth::llm {

struct HttpRequest {
    std::string url;
    std::vector<std::string> headers; // "Name: value"; may carry a key: never log them
    std::string body;
    double connectTimeoutS = 10;
    double totalTimeoutS = 600;
    double firstByteTimeoutS = 600; // no body byte yet for this long: give up (0: no limit)
    double idleTimeoutS = 60;       // no byte for this long after the first: give up (0: no limit)
};

enum class TransportStatus { Ok, Connect, Timeout, FirstByte, Idle, Cancelled, Other };

struct HttpResponse {
    TransportStatus transport = TransportStatus::Ok;
    std::string transportError;                 // curl's words, when transport != Ok
    long status = 0;                            // HTTP status, 0 when none arrived
    std::map<std::string, std::string> headers; // names lowercased; the last value wins
    std::string body;                           // the whole body (streamed bodies too)
};

// onData receives each piece of the body as it arrives (may be empty).
HttpResponse httpPost(const HttpRequest& request, const std::function<void(std::string_view)>& onData, std::stop_token stop);

// Seconds from a Retry-After value (delta-seconds or an HTTP date); < 0 when unreadable.
double parseRetryAfter(const std::string& value);

} // namespace kw::synth::llm
