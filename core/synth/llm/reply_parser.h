#pragma once
// Takes the kernel out of a model's reply: the one fenced code block (or the
// whole reply when it is plainly code), with the prose kept as the node's
// reasoning. Replies that break the contract are rejected with the reason.
#include "util/result.h"

#include <string>

namespace kw::synth::llm {

struct ParsedReply {
    std::string code;
    std::string explanation; // the reply without its code block
};

// function: the kernel's name (ModelNew for a torch problem), to recognize a
// reply that is bare code; language: "cpp" or "python", the block expected
// when a reply holds several.
Result<ParsedReply> parseReply(const std::string& reply, const std::string& function, const std::string& finishReason = {},
                               const std::string& language = "cpp");

} // namespace kw::synth::llm
