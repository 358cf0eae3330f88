#pragma once
// A model's pipeline folder as HTML (`export report MODEL_DIR`): what the
// model took a step and where (the regions, each with the problem it
// became, its search and whether its kernel went in and passed the check),
// each region before and after as inline SVG bars, and the A/B table with
// intervals. Self-contained like the search report: no script, font or file.
#include "model/model_pipeline.h"

#include <string>

namespace kw::report {

// The model section alone (a <section>), for a page that holds more.
std::string modelSectionHtml(const model::ModelFolder& folder);

// A whole page of the model section.
std::string modelReportHtml(const model::ModelFolder& folder);

} // namespace kw::report
