#include "search/tuner_source.h"

#include "search/memory_operator.h"

namespace kw::search {

Result<std::optional<synth::Proposal>> TunerSource::next(const Context& ctx) {
    const auto known = [&ctx](const std::string& h, const problem::ParamAssignment& a) { return ctx.tree.contains(h, a); };
    // A policy may offer nodes the tuner cannot expand; each is marked
    // exhausted for that operator and the policy asked again.
    for (int attempt = 0; attempt < 32; ++attempt) {
        auto plan = ctx.policy.next(ctx.tree, ctx.rng);
        if (!plan) break;
        const Node* parent = ctx.tree.find(plan->parent);
        if (!parent) break;
        auto source = ctx.sourceOf(parent->sourceHash);
        if (!source) return source.error();
        synth::ExpansionRequest request;
        request.op = plan->op;
        request.context = buildContext(ctx.tree, *parent, ctx.memory, *source);
        request.partner = plan->partner ? ctx.tree.find(plan->partner) : nullptr;
        auto proposal = tuner_.propose(request, known, ctx.rng);
        if (!proposal) ctx.note("the tuner cannot expand node " + std::to_string(parent->id) + ": " + proposal.error().message);
        if (!proposal || !*proposal) {
            ctx.policy.exhausted(parent->id, plan->op);
            continue;
        }
        return std::move(*proposal);
    }
    return std::optional<synth::Proposal>{};
}

std::optional<synth::Proposal> TunerSource::nextPolish(const Context& ctx) {
    const auto known = [&ctx](const std::string& h, const problem::ParamAssignment& a) { return ctx.tree.contains(h, a); };
    while (!polish_.empty()) {
        auto& [id, left] = polish_.front();
        const Node* n = ctx.tree.find(id);
        if (!n || left <= 0) {
            polish_.pop_front();
            continue;
        }
        auto source = ctx.sourceOf(n->sourceHash);
        if (!source) {
            polish_.pop_front();
            continue;
        }
        synth::ExpansionRequest request;
        request.op = synth::Operator::Mutate;
        request.context = buildContext(ctx.tree, *n, ctx.memory, *source);
        auto proposal = tuner_.propose(request, known, ctx.rng);
        --left;
        if (!proposal || !*proposal) {
            polish_.pop_front();
            continue;
        }
        return std::move(**proposal);
    }
    return std::nullopt;
}

} // namespace kw::search
