#pragma once
// The model command's tables: what each pipeline step prints.
#include "model/model_pipeline.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace kw::cli {

std::string speedupText(double speedup); // "1.23x"
nlohmann::json profileJson(const model::ModelProfile& p);
void printProfile(const std::string& file, const model::ModelProfile& p, int top);
void printExtract(const std::string& dir, const model::ExtractReport& r);
void printSearch(const model::ExtractReport& r, const std::vector<suite::Entry>& entries,
                 const std::map<std::string, int>& budgets);
void printApply(const model::ApplyReport& r);
void printAb(const model::AbReport& r);

} // namespace kw::cli
