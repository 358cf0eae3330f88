#pragma once
// The offline tuner: explores a node's declared tunable params. Mutation moves
// one or two params to a neighbouring (or random) value, crossover mixes two
// nodes of the same template, restart draws a fresh random assignment,
// enumerate walks every configuration in order (the exhaustive baseline). It
// never proposes a (source, params) pair that is already in the tree, and it
// steers away from values that failed in the context's siblings and ancestors.
#include "synth/synthesizer.h"

#include <map>

namespace kw::synth {

// The NAME=value terms of a person's hint ("try VEC=8, UNROLL=4"), in order:
// what the tuner reads of a hint. Words without '=' are left to a model.
std::vector<std::pair<std::string, std::string>> hintTerms(const std::string& hint);

class Tuner final : public Synthesizer {
  public:
    std::string name() const override { return "tuner"; }
    Result<std::optional<Proposal>> propose(const ExpansionRequest& request, const KnownPredicate& known,
                                            std::mt19937_64& rng) override;

    // The declared space of a source (parsed once per source).
    Result<problem::ParamSpace> space(const std::string& source);

  private:
    std::map<std::string, problem::ParamSpace> spaces_; // by source hash
};

} // namespace kw::synth
