#include "synth/tuner.h"

#include "util/hash.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kw::synth {
namespace {

constexpr int kAttempts = 64;

std::string pick(const std::vector<std::string>& values, std::mt19937_64& rng) {
    std::uniform_int_distribution<std::size_t> d(0, values.size() - 1);
    return values[d(rng)];
}

// Values that failed next to this node: a failed sibling or ancestor that
// differs from the node in exactly one param marks that param's value bad.
std::map<std::string, std::set<std::string>> tabu(const ExpansionContext& ctx) {
    std::map<std::string, std::set<std::string>> bad;
    auto consider = [&](const tree::Node* other) {
        if (!other->finished() || other->correct() || other->sourceHash != ctx.node->sourceHash) return;
        std::string differing;
        int count = 0;
        for (const auto& [name, value] : other->params) {
            auto it = ctx.node->params.find(name);
            if (it == ctx.node->params.end() || it->second != value) {
                differing = name;
                ++count;
            }
        }
        if (count == 1) bad[differing].insert(other->params.at(differing));
    };
    for (const auto* s : ctx.siblings) consider(s);
    for (const auto* a : ctx.ancestors) consider(a);
    return bad;
}

} // namespace

std::vector<std::pair<std::string, std::string>> hintTerms(const std::string& hint) {
    std::vector<std::pair<std::string, std::string>> terms;
    std::string word;
    const auto flush = [&] {
        const auto eq = word.find('=');
        // Trailing punctuation of prose ("VEC=8.") is not part of the value.
        while (!word.empty() && (word.back() == '.' || word.back() == ')')) word.pop_back();
        if (eq != std::string::npos && eq > 0 && eq + 1 < word.size())
            terms.emplace_back(word.substr(0, eq), word.substr(eq + 1));
        word.clear();
    };
    for (const char c : hint) {
        if (std::isspace(static_cast<unsigned char>(c)) || c == ',' || c == ';' || c == '(')
            flush();
        else
            word += c;
    }
    flush();
    return terms;
}

std::string operatorName(Operator op) {
    switch (op) {
    case Operator::Mutate:
        return "mutate";
    case Operator::Crossover:
        return "crossover";
    case Operator::Restart:
        return "restart";
    case Operator::Enumerate:
        return "enumerate";
    }
    return "?";
}

Result<problem::ParamSpace> Tuner::space(const std::string& source) {
    const auto hash = sha256Hex(source);
    auto it = spaces_.find(hash);
    if (it != spaces_.end()) return it->second;
    auto parsed = problem::parseParamDeclarations(source, "candidate");
    if (!parsed) return parsed.error();
    spaces_[hash] = *parsed;
    return *parsed;
}

Result<std::optional<Proposal>> Tuner::propose(const ExpansionRequest& request, const KnownPredicate& known,
                                               std::mt19937_64& rng) {
    const auto& ctx = request.context;
    auto sp = space(ctx.source);
    if (!sp) return sp.error();
    const auto& params = sp->params;
    if (params.empty()) return std::optional<Proposal>{};
    const auto& node = *ctx.node;
    const auto bad = tabu(ctx);
    auto isBad = [&](const problem::ParamAssignment& a) {
        for (const auto& [name, values] : bad)
            if (auto it = a.find(name); it != a.end() && values.count(it->second) && node.params.at(name) != it->second)
                return true;
        return false;
    };

    Proposal p;
    p.parent = node.id;
    p.sourceName = node.sourceName;
    p.source = ctx.source;

    if (request.op == Operator::Enumerate) {
        // Odometer order over every configuration: deterministic, complete.
        std::vector<std::vector<std::string>> values;
        for (const auto& d : params) values.push_back(d.values());
        std::vector<std::size_t> digit(params.size(), 0);
        for (;;) {
            problem::ParamAssignment a;
            for (std::size_t i = 0; i < params.size(); ++i) a[params[i].name] = values[i][digit[i]];
            if (!known(node.sourceHash, a)) {
                p.origin = tree::NodeOrigin::Restart;
                p.params = a;
                p.rationale = "next configuration of the exhaustive sweep";
                return std::optional<Proposal>{p};
            }
            std::size_t i = 0;
            while (i < digit.size() && ++digit[i] == values[i].size()) digit[i++] = 0;
            if (i == digit.size()) return std::optional<Proposal>{};
        }
    }

    // A person's hint on the node: its NAME=value terms that the space
    // allows make the node's next child, once (then the tree knows it).
    if (request.op != Operator::Restart && !ctx.hint.empty()) {
        problem::ParamAssignment a = node.params;
        std::string taken;
        for (const auto& [name, value] : hintTerms(ctx.hint))
            for (const auto& d : params) {
                const auto values = d.values();
                if (d.name != name || std::find(values.begin(), values.end(), value) == values.end()) continue;
                a[name] = value;
                taken += (taken.empty() ? "" : " ") + name + "=" + value;
            }
        if (!taken.empty() && a != node.params && !known(node.sourceHash, a)) {
            p.origin = tree::NodeOrigin::Mutation;
            p.params = a;
            p.rationale = "the hint's " + taken;
            return std::optional<Proposal>{p};
        }
    }

    if (request.op == Operator::Mutate) {
        // Neighbourhood first: every untried one-param step from this node (the
        // adjacent value of an ordered domain, any other value of a bool or
        // enum), in random order. Jumps come only once these are used up.
        std::vector<std::pair<problem::ParamAssignment, std::string>> steps;
        for (const auto& d : params) {
            const auto values = d.values();
            const auto current = std::find(values.begin(), values.end(), node.params.at(d.name));
            std::vector<std::string> next;
            if (d.kind == problem::ParamDomain::Kind::Bool || d.kind == problem::ParamDomain::Kind::Enum ||
                current == values.end()) {
                for (const auto& v : values)
                    if (v != node.params.at(d.name)) next.push_back(v);
            } else {
                if (current != values.begin()) next.push_back(*(current - 1));
                if (current + 1 != values.end()) next.push_back(*(current + 1));
            }
            for (const auto& v : next) {
                problem::ParamAssignment a = node.params;
                a[d.name] = v;
                if (!known(node.sourceHash, a) && !isBad(a))
                    steps.emplace_back(a, d.name + " " + node.params.at(d.name) + " -> " + v);
            }
        }
        if (!steps.empty()) {
            const auto& [a, why] = steps[std::uniform_int_distribution<std::size_t>(0, steps.size() - 1)(rng)];
            p.origin = tree::NodeOrigin::Mutation;
            p.params = a;
            p.rationale = why;
            return std::optional<Proposal>{p};
        }
    }

    for (int attempt = 0; attempt < kAttempts; ++attempt) {
        problem::ParamAssignment a = node.params;
        std::string why;
        if (request.op == Operator::Restart) {
            for (const auto& d : params) a[d.name] = pick(d.values(), rng);
            p.origin = tree::NodeOrigin::Restart;
            why = "random restart";
        } else if (request.op == Operator::Crossover && request.partner) {
            std::bernoulli_distribution coin(0.5);
            for (const auto& d : params)
                if (auto it = request.partner->params.find(d.name); it != request.partner->params.end() && coin(rng))
                    a[d.name] = it->second;
            p.origin = tree::NodeOrigin::Crossover;
            why = "crossover with node " + std::to_string(request.partner->id);
        } else {
            // One param usually, two sometimes: local moves with occasional jumps.
            const int moves = std::uniform_int_distribution<int>(0, 9)(rng) < 7 ? 1 : 2;
            for (int m = 0; m < moves; ++m) {
                const auto& d = params[std::uniform_int_distribution<std::size_t>(0, params.size() - 1)(rng)];
                const auto values = d.values();
                const auto current = std::find(values.begin(), values.end(), a[d.name]);
                const bool neighbour = current != values.end() && values.size() > 1 && std::bernoulli_distribution(0.7)(rng);
                if (neighbour) {
                    auto index = static_cast<std::size_t>(current - values.begin());
                    const bool up = index == 0 || (index + 1 < values.size() && std::bernoulli_distribution(0.5)(rng));
                    index = up ? index + 1 : index - 1;
                    a[d.name] = values[index];
                } else {
                    a[d.name] = pick(values, rng);
                }
                why += (why.empty() ? "" : ", ") + d.name + " " + node.params.at(d.name) + " -> " + a[d.name];
            }
            p.origin = tree::NodeOrigin::Mutation;
        }
        if (a == node.params && request.op != Operator::Restart) continue;
        if (known(node.sourceHash, a) || isBad(a)) continue;
        p.params = a;
        p.rationale = why;
        return std::optional<Proposal>{p};
    }
    return std::optional<Proposal>{};
}

} // namespace kw::synth
