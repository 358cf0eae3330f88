#pragma once
// What each family of models accepts, as data: which token-limit field, whether
// sampling knobs are allowed, the thinking form, the reasoning-effort field, the
// endpoint, and whether streaming may be refused. The built-in table covers the
// hosted families users reach for and the local servers; llm.json may add or
// replace rows ("families": [...]). A request is shaped from its model's row,
// and configurations are checked against it when they load.
#include "synth/llm/llm_config.h"
#include "util/result.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace kw::synth::llm {

// The shipped rows.
const std::vector<ModelFamily>& builtinFamilies();

// The rows of an llm.json "families" array (`where` names the file for messages).
Result<std::vector<ModelFamily>> familiesFromJson(const nlohmann::json& array, const std::string& where);

struct FamilyMatch {
    ModelFamily family;
    std::string assumed; // "" for a known model; else one line saying what was assumed
};

// The row for a model: the most specific pattern wins (most literal characters),
// rows from llm.json before built-in ones. A model no row names gets a safe
// default for its provider and server, and `assumed` says which.
FamilyMatch familyOf(const ModelConfig& model, const std::vector<ModelFamily>& extra = {});

// Why `model` (as configured) would be refused by its family, one message per
// problem, each naming the model and the key to change; empty when it fits.
std::vector<std::string> configProblems(const ModelConfig& model, const ModelFamily& family);

std::string thinkingFormName(ThinkingForm form);
std::string endpointName(Endpoint endpoint);

} // namespace kw::synth::llm
