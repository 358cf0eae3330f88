#pragma once
// The model commands' Python side: each step (profile, regions, swap) is a
// script of resources/harness/torch/ run in a Python of its own (KW_PYTHON or
// python3 with PyTorch), which answers with one JSON object on its last line
// of output ({"ok": true, ...} or {"ok": false, "error": what to fix}).
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace kw::model {

struct HelperRun {
    std::string script;            // model_profile.py, model_regions.py, model_swap.py
    std::vector<std::string> args; // after the script
    double timeoutS = 600;
    std::string gpu;  // CUDA_VISIBLE_DEVICES ("" : inherited)
    std::string what; // for messages: "the model's steps", "the regions' match"
    std::string hint; // what to do when it runs out of time
};

// The helper's answer when it says ok; its error, or why it gave none.
Result<nlohmann::json> runModelHelper(const HelperRun& run);

} // namespace kw::model
