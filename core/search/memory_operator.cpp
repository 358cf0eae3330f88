#include "search/memory_operator.h"

namespace kw::search {

synth::ExpansionContext buildContext(const SearchTree& tree, const Node& node, MemoryMode mode, std::string source) {
    synth::ExpansionContext ctx;
    ctx.node = &node;
    ctx.source = std::move(source);
    ctx.mode = mode;
    ctx.hint = node.hint;
    if (mode == MemoryMode::Ancestors || mode == MemoryMode::Both) ctx.ancestors = tree.ancestors(node.id);
    if (mode == MemoryMode::Siblings || mode == MemoryMode::Both) {
        // The node's own children are its closest "siblings in waiting": what was
        // already tried from it, and how it went.
        ctx.siblings = tree.siblings(node.id);
        for (const Node* c : tree.children(node.id)) ctx.siblings.push_back(c);
    }
    return ctx;
}

} // namespace kw::search
