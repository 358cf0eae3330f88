#pragma once
// Server-sent events, fed in arbitrary pieces as they arrive from the network
// (an event may be split anywhere, even inside a UTF-8 sequence or a CRLF).
#include <string>
#include <string_view>
#include <vector>

namespace kw::synth::llm {

struct SseEvent {
    std::string event; // the "event:" field; empty for the default "message"
    std::string data;  // "data:" lines joined by '\n'
};

class SseParser {
  public:
    // Returns every event completed by this piece.
    std::vector<SseEvent> feed(std::string_view piece);
    // True when bytes of an unfinished event are buffered (a stream cut short).
    bool pending() const;

  private:
    void line(std::string_view l, std::vector<SseEvent>& out);

    std::string buffer_;
    SseEvent current_;
    bool hasData_ = false;
};

} // namespace kw::synth::llm
