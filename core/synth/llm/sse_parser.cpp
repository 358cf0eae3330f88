#include "synth/llm/sse_parser.h"

namespace kw::synth::llm {

std::vector<SseEvent> SseParser::feed(std::string_view piece) {
    std::vector<SseEvent> out;
    buffer_.append(piece);
    std::size_t start = 0;
    for (;;) {
        const auto nl = buffer_.find('\n', start);
        if (nl == std::string::npos) break;
        std::string_view l(buffer_.data() + start, nl - start);
        if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
        line(l, out);
        start = nl + 1;
    }
    buffer_.erase(0, start);
    return out;
}

bool SseParser::pending() const {
    for (char c : buffer_)
        if (c != '\r' && c != '\n' && c != ' ') return true;
    return hasData_ || !current_.event.empty();
}

void SseParser::line(std::string_view l, std::vector<SseEvent>& out) {
    if (l.empty()) { // a blank line dispatches the event
        if (hasData_) out.push_back(std::move(current_));
        current_ = {};
        hasData_ = false;
        return;
    }
    if (l.front() == ':') return; // a comment (keep-alive)
    const auto colon = l.find(':');
    std::string_view field = l.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    if (field == "data") {
        if (hasData_) current_.data += '\n';
        current_.data.append(value);
        hasData_ = true;
    } else if (field == "event") {
        current_.event = std::string(value);
    }
    // id and retry do not matter for a single request's stream.
}

} // namespace kw::synth::llm
