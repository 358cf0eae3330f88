#include "synth/llm/reply_parser.h"
#include "util/text.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace kw::synth::llm {
namespace {

struct Block {
    std::string language;
    std::string code;
    std::size_t begin = 0, end = 0; // the fence lines included
    bool closed = true;
};

bool isCppTag(std::string tag) {
    std::transform(tag.begin(), tag.end(), tag.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return tag == "cpp" || tag == "c++" || tag == "cc" || tag == "cxx" || tag == "c" || tag == "hpp" || tag == "h";
}

// Fences are lines starting with ``` (up to 3 spaces of indent); the text
// after the opening fence is the language tag.
std::vector<Block> findBlocks(const std::string& text) {
    std::vector<Block> blocks;
    std::size_t pos = 0;
    Block* open = nullptr;
    Block current;
    while (pos <= text.size()) {
        const auto nl = text.find('\n', pos);
        const std::size_t lineEnd = nl == std::string::npos ? text.size() : nl;
        const std::string line = text.substr(pos, lineEnd - pos);
        const auto indent = line.find_first_not_of(' ');
        const bool fence = indent != std::string::npos && indent <= 3 && line.compare(indent, 3, "```") == 0;
        if (fence && !open) {
            current = Block{};
            current.language = trim(line.substr(indent + 3));
            current.begin = pos;
            open = &current;
        } else if (fence && open && trim(line.substr(indent + 3)).empty()) {
            current.end = nl == std::string::npos ? text.size() : nl + 1;
            blocks.push_back(current);
            open = nullptr;
        } else if (open) {
            current.code += line + "\n";
        }
        if (nl == std::string::npos) break;
        pos = nl + 1;
    }
    if (open) { // cut off before its closing fence
        current.closed = false;
        current.end = text.size();
        blocks.push_back(current);
    }
    return blocks;
}

} // namespace

Result<ParsedReply> parseReply(const std::string& reply, const std::string& function, const std::string& finishReason,
                               const std::string& language) {
    const bool python = language == "python";
    const auto expected = [python](const std::string& tag) { return python ? (tag == "python" || tag == "py") : isCppTag(tag); };
    if (finishReason == "length")
        return makeError(ErrorCode::Validation,
                         "the reply was cut off at the max_tokens limit before it ended; raise max_tokens for this model");
    // Stops that leave no answer to trust, by the services' names for them.
    if (finishReason == "content_filter" || finishReason == "refusal")
        return makeError(ErrorCode::Validation, "the service withheld the reply (" + finishReason +
                                                    "): its filter or the model refused; reword the hint or try another model");
    if (finishReason == "pause_turn")
        return makeError(ErrorCode::Validation,
                         "the service paused the turn (pause_turn) before the answer; the next expansion asks again");
    if (finishReason == "model_context_window_exceeded" || finishReason == "context_length_exceeded")
        return makeError(ErrorCode::Validation, "the prompt and the reply outgrew the model's context window (" + finishReason +
                                                    "); lower --prompt-tokens or max_tokens for this model");
    if (trim(reply).empty()) return makeError(ErrorCode::Validation, "the reply is empty");
    const auto blocks = findBlocks(reply);
    std::vector<const Block*> candidates;
    for (const auto& b : blocks)
        if (!trim(b.code).empty()) candidates.push_back(&b);
    if (candidates.size() > 1) {
        // Several blocks: the contract asks for one; accept only when exactly one is in the expected language.
        std::vector<const Block*> cpp;
        for (const auto* b : candidates)
            if (expected(b->language)) cpp.push_back(b);
        if (cpp.size() != 1)
            return makeError(ErrorCode::Validation,
                             "the reply has " + std::to_string(candidates.size()) +
                                 " code blocks and the contract asks for exactly one; it is ambiguous which is the kernel");
        candidates = cpp;
    }
    ParsedReply parsed;
    if (candidates.size() == 1) {
        const Block& b = *candidates.front();
        if (!b.closed) return makeError(ErrorCode::Validation, "the code block is never closed (the reply was cut short)");
        parsed.code = b.code;
        parsed.explanation = trim(reply.substr(0, b.begin) + reply.substr(b.end));
    } else if (!blocks.empty()) {
        return makeError(ErrorCode::Validation, "the reply's code block is empty");
    } else if (reply.find(function) != std::string::npos &&
               (python ? reply.find("class " + function) != std::string::npos
                       : reply.find('{') != std::string::npos && reply.find('}') != std::string::npos)) {
        parsed.code = trim(reply) + "\n"; // bare code, no fences
    } else {
        return makeError(ErrorCode::Validation,
                         "the reply has no code block (expected one ```" + language + " block defining " + function + ")");
    }
    if (parsed.code.find(function) == std::string::npos)
        return makeError(ErrorCode::Validation, "the code does not define " + function + " (the kernel's name)");
    return parsed;
}

} // namespace kw::synth::llm
