// llm_test_server: a scripted stand-in for hosted LLM APIs, used by tests.
//
//   llm_test_server --script FILE --port-file FILE [--log FILE]
//
// Listens on 127.0.0.1 (ephemeral port, written to --port-file once bound)
// and answers OpenAI chat completions (POST .../chat/completions), OpenAI's
// Responses API (POST .../responses) and Anthropic Messages (POST
// .../messages) in the services' own wire formats, plain JSON or SSE, playing
// the replies of the script in order. Faults (delays, silence before the
// first byte, stalls, truncated streams, mid-stream errors, error statuses
// and codes, invalid bodies) are scripted per reply; see the fields read in
// respond(). A script with "strict": true refuses request bodies the way the
// real services do (llm_strict_rules.cpp), before any reply is played.
// Runs until killed.
//
// Deliberately plain: POSIX sockets, one thread per connection,
// "Connection: close" on every response, so a test depends on nothing but
// this file and nlohmann/json.

#include "llm_strict_rules.h"

#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using json = nlohmann::json;
// Generated bodies keep the services' key order (id first, usage last), which
// makes logs and transcripts read like the real thing.
using ojson = nlohmann::ordered_json;

namespace {

enum class Api { OpenAI, Anthropic, Responses };

struct Server {
    json replies = json::array();
    std::optional<json> fallback; // the script's "default"
    bool strict = false;          // refuse what the real services refuse
    bool unverified = false;      // strict, for an organisation OpenAI has not verified
    std::mutex mu;                // guards next and the log stream
    size_t next = 0;
    std::ofstream log;
    std::atomic<long> ids{0};
};
Server g;

struct Request {
    std::string method, path;
    std::vector<std::pair<std::string, std::string>> headers; // names lowercased
    std::string body;
};

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// MSG_NOSIGNAL (and SIG_IGN for SIGPIPE) so a client hanging up mid-stream is
// an ordinary send error for that connection, not the death of the server.
bool send_all(int fd, const std::string& data) {
    size_t off = 0;
    while (off < data.size()) {
        const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += static_cast<size_t>(n);
    }
    return true;
}

void sleep_ms(long ms) {
    if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Buffered reader over the socket; the head and body may arrive in any split.
struct Reader {
    int fd;
    std::string buf;
    bool fill() {
        char tmp[8192];
        ssize_t n;
        do n = ::recv(fd, tmp, sizeof tmp, 0);
        while (n < 0 && errno == EINTR);
        if (n > 0) buf.append(tmp, static_cast<size_t>(n));
        return n > 0;
    }
    // Returns the text up to (not including) delim and consumes both.
    std::optional<std::string> until(const std::string& delim, size_t limit) {
        size_t pos;
        while ((pos = buf.find(delim)) == std::string::npos)
            if (buf.size() > limit || !fill()) return std::nullopt;
        std::string out = buf.substr(0, pos);
        buf.erase(0, pos + delim.size());
        return out;
    }
    std::optional<std::string> take(size_t n) {
        while (buf.size() < n)
            if (!fill()) return std::nullopt;
        std::string out = buf.substr(0, n);
        buf.erase(0, n);
        return out;
    }
};

std::optional<Request> read_request(int fd) {
    Reader r{fd, {}};
    auto head = r.until("\r\n\r\n", 1 << 20);
    if (!head) return std::nullopt;
    Request req;
    std::istringstream lines(*head);
    std::string line;
    std::getline(lines, line);
    if (!(std::istringstream(line) >> req.method >> req.path)) return std::nullopt;
    while (std::getline(lines, line))
        if (const size_t colon = line.find(':'); colon != std::string::npos)
            req.headers.emplace_back(lower(trim(line.substr(0, colon))), trim(line.substr(colon + 1)));
    auto header = [&](const std::string& name) -> std::string {
        for (const auto& [k, v] : req.headers)
            if (k == name) return v;
        return {};
    };
    if (lower(header("transfer-encoding")).find("chunked") != std::string::npos) {
        for (;;) { // chunk-size [;ext] CRLF data CRLF ... 0 CRLF [trailers] CRLF
            auto size_line = r.until("\r\n", 4096);
            if (!size_line) return std::nullopt;
            const size_t n = std::stoul(*size_line, nullptr, 16);
            if (n == 0) break;
            auto data = r.take(n + 2);
            if (!data) return std::nullopt;
            req.body += data->substr(0, n);
        }
        while (auto trailer = r.until("\r\n", 65536))
            if (trailer->empty()) break;
    } else if (const std::string cl = header("content-length"); !cl.empty()) {
        auto data = r.take(std::stoul(cl));
        if (!data) return std::nullopt;
        req.body = std::move(*data);
    }
    return req;
}

const char* reason_phrase(int status) {
    static const std::pair<int, const char*> known[] = {
        {200, "OK"},          {400, "Bad Request"},         {401, "Unauthorized"},      {403, "Forbidden"},
        {404, "Not Found"},   {408, "Request Timeout"},     {429, "Too Many Requests"}, {500, "Internal Server Error"},
        {502, "Bad Gateway"}, {503, "Service Unavailable"}, {504, "Gateway Timeout"},   {529, "Overloaded"}};
    for (const auto& [code, text] : known)
        if (code == status) return text;
    return status < 400 ? "OK" : "Error";
}

// Status line plus headers; the script's headers replace defaults of the same
// name (case-insensitively) so a test can also override content-type.
std::string response_head(int status, std::vector<std::pair<std::string, std::string>> hs, const json& extra) {
    for (const auto& [name, value] : extra.items()) {
        std::erase_if(hs, [&](const auto& h) { return lower(h.first) == lower(name); });
        hs.emplace_back(name, value.is_string() ? value.get<std::string>() : value.dump());
    }
    std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason_phrase(status) + "\r\n";
    for (const auto& [k, v] : hs) out += k + ": " + v + "\r\n";
    return out + "\r\n";
}

bool send_plain(int fd, int status, const std::string& body, const json& extra = {}) {
    const std::string length = std::to_string(body.size());
    return send_all(fd, response_head(status,
                                      {{"Content-Type", "application/json"}, {"Content-Length", length}, {"Connection", "close"}},
                                      extra) +
                            body);
}

// The error type the services put in the body for a status (both use these names).
std::string default_error_type(int status) {
    static const std::pair<int, const char*> known[] = {{400, "invalid_request_error"}, {401, "authentication_error"},
                                                        {403, "permission_error"},      {404, "not_found_error"},
                                                        {429, "rate_limit_error"},      {529, "overloaded_error"}};
    for (const auto& [code, type] : known)
        if (code == status) return type;
    return "api_error";
}

std::string error_body(Api api, const std::string& type, const std::string& message, const std::string& code = "") {
    if (api != Api::Anthropic)
        return ojson{{"error", {{"message", message}, {"type", type}, {"code", code.empty() ? ojson() : ojson(code)}}}}.dump();
    return ojson{{"type", "error"}, {"error", {{"type", type}, {"message", message}}}}.dump();
}

// Splits on UTF-8 code point boundaries: cutting inside a multi-byte sequence
// would make each delta invalid UTF-8 (and nlohmann refuses to dump it).
std::vector<std::string> split_chars(const std::string& s, size_t per) {
    std::vector<std::string> out;
    per = std::max<size_t>(per, 1);
    size_t i = 0;
    while (i < s.size()) {
        size_t j = i;
        for (size_t cps = 0; j < s.size() && cps < per; ++cps) {
            ++j;
            while (j < s.size() && (static_cast<unsigned char>(s[j]) & 0xC0) == 0x80) ++j;
        }
        out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

struct Reply {
    std::string id, model, text, reasoning, finish;
    long in_tokens, out_tokens, created;
    size_t chunk_chars;
    std::string reasoning_key = "reasoning_content"; // Ollama and OpenRouter say "reasoning"
    bool redacted_thinking = false;                  // Anthropic: a redacted_thinking block first
};

std::string openai_body(const Reply& r) {
    ojson msg{{"role", "assistant"}, {"content", r.text}};
    if (!r.reasoning.empty()) msg[r.reasoning_key] = r.reasoning;
    return ojson{
        {"id", r.id},
        {"object", "chat.completion"},
        {"created", r.created},
        {"model", r.model},
        {"choices", ojson::array({ojson{{"index", 0}, {"message", msg}, {"finish_reason", r.finish}}})},
        {"usage",
         {{"prompt_tokens", r.in_tokens}, {"completion_tokens", r.out_tokens}, {"total_tokens", r.in_tokens + r.out_tokens}}}}
        .dump();
}

std::vector<std::string> openai_events(const Reply& r, bool include_usage) {
    std::vector<std::string> ev;
    auto chunk = [&](ojson choices, std::optional<ojson> usage = std::nullopt) {
        ojson c{{"id", r.id},
                {"object", "chat.completion.chunk"},
                {"created", r.created},
                {"model", r.model},
                {"choices", std::move(choices)}};
        // With include_usage, every chunk but the last carries "usage": null.
        if (usage)
            c["usage"] = *usage;
        else if (include_usage)
            c["usage"] = nullptr;
        ev.push_back("data: " + c.dump() + "\n\n");
    };
    auto delta = [&](ojson d, ojson finish = nullptr) {
        chunk(ojson::array({ojson{{"index", 0}, {"delta", std::move(d)}, {"finish_reason", std::move(finish)}}}));
    };
    delta({{"role", "assistant"}, {"content", ""}});
    for (const auto& piece : split_chars(r.reasoning, r.chunk_chars)) delta({{r.reasoning_key, piece}});
    for (const auto& piece : split_chars(r.text, r.chunk_chars)) delta({{"content", piece}});
    delta(ojson::object(), r.finish);
    if (include_usage)
        chunk(ojson::array(), ojson{{"prompt_tokens", r.in_tokens},
                                    {"completion_tokens", r.out_tokens},
                                    {"total_tokens", r.in_tokens + r.out_tokens}});
    ev.push_back("data: [DONE]\n\n");
    return ev;
}

std::string anthropic_body(const Reply& r) {
    ojson content = ojson::array();
    if (r.redacted_thinking) content.push_back({{"type", "redacted_thinking"}, {"data", "EmwKAhgBEgy3va3pzix"}});
    if (!r.reasoning.empty()) content.push_back({{"type", "thinking"}, {"thinking", r.reasoning}, {"signature", "sig"}});
    content.push_back({{"type", "text"}, {"text", r.text}});
    return ojson{{"id", r.id},
                 {"type", "message"},
                 {"role", "assistant"},
                 {"model", r.model},
                 {"content", content},
                 {"stop_reason", r.finish},
                 {"stop_sequence", nullptr},
                 {"usage", {{"input_tokens", r.in_tokens}, {"output_tokens", r.out_tokens}}}}
        .dump();
}

std::vector<std::string> anthropic_events(const Reply& r) {
    std::vector<std::string> ev;
    auto event = [&](const std::string& type, ojson data) { ev.push_back("event: " + type + "\ndata: " + data.dump() + "\n\n"); };
    event("message_start", {{"type", "message_start"},
                            {"message",
                             {{"id", r.id},
                              {"type", "message"},
                              {"role", "assistant"},
                              {"model", r.model},
                              {"content", ojson::array()},
                              {"stop_reason", nullptr},
                              {"stop_sequence", nullptr},
                              {"usage", {{"input_tokens", r.in_tokens}, {"output_tokens", 1}}}}}});
    int index = 0;
    auto block = [&](ojson start, const char* delta_type, const char* field, const std::string& body,
                     std::optional<std::string> signature) {
        event("content_block_start", {{"type", "content_block_start"}, {"index", index}, {"content_block", start}});
        if (index == 0) event("ping", {{"type", "ping"}}); // the service pings right after the first block opens
        for (const auto& piece : split_chars(body, r.chunk_chars))
            event("content_block_delta",
                  {{"type", "content_block_delta"}, {"index", index}, {"delta", {{"type", delta_type}, {field, piece}}}});
        if (signature)
            event("content_block_delta", {{"type", "content_block_delta"},
                                          {"index", index},
                                          {"delta", {{"type", "signature_delta"}, {"signature", *signature}}}});
        event("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
        ++index;
    };
    if (r.redacted_thinking) {
        event("content_block_start", {{"type", "content_block_start"},
                                      {"index", index},
                                      {"content_block", {{"type", "redacted_thinking"}, {"data", "EmwKAhgBEgy3va3pzix"}}}});
        event("content_block_stop", {{"type", "content_block_stop"}, {"index", index}});
        ++index;
    }
    if (!r.reasoning.empty()) block({{"type", "thinking"}, {"thinking", ""}}, "thinking_delta", "thinking", r.reasoning, "sig");
    block({{"type", "text"}, {"text", ""}}, "text_delta", "text", r.text, std::nullopt);
    event("message_delta", {{"type", "message_delta"},
                            {"delta", {{"stop_reason", r.finish}, {"stop_sequence", nullptr}}},
                            {"usage", {{"output_tokens", r.out_tokens}}}});
    event("message_stop", {{"type", "message_stop"}});
    return ev;
}

ojson responses_object(const Reply& r, const std::string& status) {
    ojson output = ojson::array();
    if (!r.reasoning.empty())
        output.push_back({{"id", "rs_" + r.id},
                          {"type", "reasoning"},
                          {"summary", ojson::array({{{"type", "summary_text"}, {"text", r.reasoning}}})}});
    output.push_back({{"id", "msg_" + r.id},
                      {"type", "message"},
                      {"status", "completed"},
                      {"role", "assistant"},
                      {"content", ojson::array({{{"type", "output_text"}, {"text", r.text}, {"annotations", ojson::array()}}})}});
    ojson o{{"id", r.id},       {"object", "response"}, {"created_at", r.created},
            {"status", status}, {"model", r.model},     {"output", output}};
    o["incomplete_details"] = status == "incomplete" ? ojson{{"reason", r.finish}} : ojson();
    o["usage"] = {{"input_tokens", r.in_tokens},
                  {"output_tokens", r.out_tokens},
                  {"output_tokens_details", {{"reasoning_tokens", r.reasoning.empty() ? 0 : r.out_tokens / 2}}},
                  {"total_tokens", r.in_tokens + r.out_tokens}};
    return o;
}

// "stop" completes; any other finish ends the response incomplete with that reason.
std::string responses_status(const Reply& r) {
    return r.finish == "stop" ? "completed" : "incomplete";
}

std::vector<std::string> responses_events(const Reply& r) {
    std::vector<std::string> ev;
    int seq = 0;
    auto event = [&](const std::string& type, ojson data) {
        data["type"] = type;
        data["sequence_number"] = seq++;
        ev.push_back("event: " + type + "\ndata: " + data.dump() + "\n\n");
    };
    ojson started{
        {"id", r.id}, {"object", "response"}, {"status", "in_progress"}, {"model", r.model}, {"output", ojson::array()}};
    event("response.created", {{"response", started}});
    event("response.in_progress", {{"response", started}});
    if (!r.reasoning.empty()) {
        event("response.output_item.added",
              {{"output_index", 0}, {"item", {{"type", "reasoning"}, {"summary", ojson::array()}}}});
        for (const auto& piece : split_chars(r.reasoning, r.chunk_chars))
            event("response.reasoning_summary_text.delta", {{"output_index", 0}, {"summary_index", 0}, {"delta", piece}});
        event("response.reasoning_summary_part.done", {{"output_index", 0}, {"summary_index", 0}});
    }
    const int out = r.reasoning.empty() ? 0 : 1;
    event("response.output_item.added", {{"output_index", out}, {"item", {{"type", "message"}, {"content", ojson::array()}}}});
    for (const auto& piece : split_chars(r.text, r.chunk_chars))
        event("response.output_text.delta", {{"output_index", out}, {"content_index", 0}, {"delta", piece}});
    event("response.output_text.done", {{"output_index", out}, {"content_index", 0}, {"text", r.text}});
    const std::string status = responses_status(r);
    event(status == "completed" ? "response.completed" : "response.incomplete", {{"response", responses_object(r, status)}});
    return ev;
}

// A mid-stream error in each service's form.
std::string stream_error(Api api) {
    if (api == Api::Anthropic)
        return "event: error\ndata: " +
               ojson{{"type", "error"}, {"error", {{"type", "overloaded_error"}, {"message", "Overloaded"}}}}.dump() + "\n\n";
    if (api == Api::Responses)
        return "event: error\ndata: " +
               ojson{{"type", "error"}, {"code", "server_error"}, {"message", "The server had an error while processing"}}
                   .dump() +
               "\n\n";
    return "data: " +
           ojson{{"error", {{"message", "The server had an error while processing your request."}, {"type", "server_error"}}}}
               .dump() +
           "\n\n";
}

// One scripted entry answers one request; the caller closes the connection.
void respond(int fd, Api api, const json& entry, const json& body) {
    // Every field is read before anything is sent, so a badly typed script value
    // turns into a clean 500 (see handle()) rather than a corrupt stream.
    const int status = entry.value("status", 200);
    const json extra = entry.value("headers", json::object());
    const long chunk_delay = entry.value("chunk_delay_ms", 0L), stall = entry.value("stall_ms", 0L);
    const bool truncate = entry.value("truncate", false);
    const bool never_stream = entry.value("stream", "auto") == "never";
    const long first_byte = entry.value("first_byte_ms", 0L); // silence after the head, before any event
    const bool mid_error = entry.value("mid_stream_error", false);
    const bool keepalive = entry.value("keepalive", false);
    const std::string error_code = entry.value("error_code", "");
    // Scripts speak OpenAI's finish reasons; Anthropic has its own names.
    std::string finish = entry.value("finish", "stop");
    if (api == Api::Anthropic)
        finish = finish == "stop" ? "end_turn" : finish == "length" ? "max_tokens" : finish;
    else
        finish = finish == "end_turn" ? "stop" : finish == "max_tokens" ? "length" : finish;
    Reply r{.id = (api == Api::OpenAI      ? "chatcmpl-"
                   : api == Api::Responses ? "resp_"
                                           : "msg_") +
                  std::to_string(++g.ids),
            .model = entry.value("model", body.is_object() ? body.value("model", "test-model") : "test-model"),
            .text = entry.value("text", ""),
            .reasoning = entry.value("reasoning", ""),
            .finish = finish,
            .in_tokens = entry.value("input_tokens", 100L),
            .out_tokens = entry.value("output_tokens", 50L),
            .created = static_cast<long>(std::time(nullptr)),
            .chunk_chars = entry.value("chunk_chars", size_t{16})};
    r.reasoning_key = entry.value("reasoning_key", r.reasoning_key);
    r.redacted_thinking = entry.value("redacted_thinking", false);
    sleep_ms(entry.value("delay_ms", 0L));

    if (entry.contains("raw_body") && entry["raw_body"].is_string()) {
        send_plain(fd, status, entry["raw_body"].get<std::string>(), extra);
        return;
    }
    if (status >= 400) {
        const json& et = entry.contains("error_type") ? entry["error_type"] : json();
        const std::string type = et.is_string() ? et.get<std::string>() : default_error_type(status);
        const std::string msg = entry.value("text", "scripted error (HTTP " + std::to_string(status) + ")");
        send_plain(fd, status, error_body(api, type, msg, error_code), extra);
        return;
    }

    const bool wants_stream = body.is_object() && body.value("stream", false) == true;
    if (!wants_stream || never_stream) {
        send_plain(fd, status,
                   api == Api::OpenAI      ? openai_body(r)
                   : api == Api::Responses ? responses_object(r, responses_status(r)).dump()
                                           : anthropic_body(r),
                   extra);
        return;
    }

    const bool include_usage = body.value(json::json_pointer("/stream_options/include_usage"), false);
    const auto events = api == Api::OpenAI      ? openai_events(r, include_usage)
                        : api == Api::Responses ? responses_events(r)
                                                : anthropic_events(r);
    // Chunked, as the services do; each SSE event travels in its own chunk.
    const std::string head = response_head(status,
                                           {{"Content-Type", "text/event-stream"},
                                            {"Cache-Control", "no-cache"},
                                            {"Transfer-Encoding", "chunked"},
                                            {"Connection", "close"}},
                                           extra);
    if (!send_all(fd, head)) return;
    auto chunk = [&](const std::string& data) {
        char size_line[32];
        std::snprintf(size_line, sizeof size_line, "%zx\r\n", data.size());
        return send_all(fd, size_line + data + "\r\n");
    };
    sleep_ms(first_byte);
    const size_t half = events.size() / 2;
    for (size_t i = 0; i < events.size(); ++i) {
        if (i == half) {
            // A truncated stream ends without the terminating zero-size chunk, so the
            // client sees a connection lost mid-body, as when a proxy drops it.
            if (truncate) return;
            if (mid_error) {
                chunk(stream_error(api));
                send_all(fd, "0\r\n\r\n");
                return;
            }
            sleep_ms(stall);
        }
        if (i > 0) sleep_ms(chunk_delay);
        if (keepalive && !chunk(": keep-alive\n\n")) return; // an SSE comment, as proxies and OpenRouter send
        if (!chunk(events[i])) return;                       // client went away
    }
    send_all(fd, "0\r\n\r\n");
}

void handle(int fd) {
    // A client that opens a connection and sends nothing must not pin a thread forever.
    timeval tv{30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    try {
        if (auto req = read_request(fd)) {
            const std::string path = req->path.substr(0, req->path.find('?'));
            std::optional<Api> api;
            // Suffix match so a base URL with an extra prefix still reaches us.
            if (req->method == "POST" && path.ends_with("/chat/completions")) api = Api::OpenAI;
            if (req->method == "POST" && path.ends_with("/messages")) api = Api::Anthropic;
            if (req->method == "POST" && path.ends_with("/responses")) api = Api::Responses;

            json body = json::parse(req->body, nullptr, /*allow_exceptions=*/false);
            if (body.is_discarded()) body = req->body;

            json entry, reply_index; // reply_index: position in "replies", "default", or null
            std::optional<llm_strict::Refusal> refusal;
            if (api && g.strict)
                refusal = llm_strict::check(*api == Api::OpenAI      ? llm_strict::Route::ChatCompletions
                                            : *api == Api::Responses ? llm_strict::Route::Responses
                                                                     : llm_strict::Route::Messages,
                                            body, g.unverified);
            if (api && !refusal) {
                std::lock_guard lock(g.mu);
                if (g.next < g.replies.size()) {
                    reply_index = g.next;
                    entry = g.replies[g.next++];
                } else if (g.fallback) {
                    reply_index = "default";
                    entry = *g.fallback;
                }
            }
            if (g.log.is_open()) {
                json headers = json::object();
                for (const auto& [k, v] : req->headers) headers[k] = v;
                const json line{{"method", req->method},      {"path", req->path},
                                {"headers", headers},         {"body", body},
                                {"reply_index", reply_index}, {"refused", refusal ? json(refusal->status) : json()}};
                std::lock_guard lock(g.mu);
                g.log << line.dump(-1, ' ', false, json::error_handler_t::replace) << '\n' << std::flush;
            }

            if (!api)
                send_plain(fd, 404, error_body(Api::OpenAI, "not_found_error", "no route for " + req->method + " " + path));
            else if (refusal)
                send_plain(fd, refusal->status, refusal->body);
            else if (entry.is_null())
                send_plain(fd, 500, error_body(*api, "api_error", "script exhausted: no reply left and no default"));
            else
                respond(fd, *api, entry, body);
        }
    } catch (const std::exception& e) {
        // A malformed request or script entry fails this connection only.
        send_plain(fd, 500, error_body(Api::OpenAI, "server_error", std::string("test server: ") + e.what()));
    }
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
}

} // namespace

int main(int argc, char** argv) {
    auto usage = [] {
        std::cerr << "usage: llm_test_server --script FILE --port-file FILE [--log FILE]\n";
        return 2;
    };
    std::string script_path, port_file, log_path;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return usage();
        if (a == "--script")
            script_path = argv[++i];
        else if (a == "--port-file")
            port_file = argv[++i];
        else if (a == "--log")
            log_path = argv[++i];
        else
            return usage();
    }
    if (script_path.empty() || port_file.empty()) return usage();

    try {
        std::ifstream in(script_path);
        if (!in) throw std::runtime_error("cannot open " + script_path);
        const json script = json::parse(in);
        if (script.contains("replies")) g.replies = script.at("replies");
        if (!g.replies.is_array()) throw std::runtime_error("\"replies\" must be an array");
        if (script.contains("default") && !script["default"].is_null()) g.fallback = script["default"];
        g.strict = script.value("strict", false);
        g.unverified = script.value("unverified_org", false);
        if (!log_path.empty()) {
            g.log.open(log_path, std::ios::app);
            if (!g.log) throw std::runtime_error("cannot open log " + log_path);
        }
    } catch (const std::exception& e) {
        std::cerr << "llm_test_server: " << e.what() << "\n";
        return 2;
    }

    signal(SIGPIPE, SIG_IGN);
    const int lfd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK); // port 0: the kernel picks a free one
    socklen_t len = sizeof addr;
    if (lfd < 0 || ::bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(lfd, 64) != 0 ||
        ::getsockname(lfd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        std::perror("llm_test_server: listen");
        return 1;
    }

    // Written only once the socket listens, and renamed into place, so a test
    // that sees the file can read a whole port number and connect at once.
    const std::string tmp = port_file + ".tmp";
    std::ofstream(tmp, std::ios::trunc) << ntohs(addr.sin_port) << '\n';
    if (std::rename(tmp.c_str(), port_file.c_str()) != 0) {
        std::perror("llm_test_server: port file");
        return 1;
    }

    for (;;) {
        const int fd = ::accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            if (errno == EMFILE || errno == ENFILE) { // out of descriptors: let threads finish
                sleep_ms(10);
                continue;
            }
            std::perror("llm_test_server: accept");
            return 1;
        }
        std::thread(handle, fd).detach();
    }
}
