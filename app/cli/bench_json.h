#pragma once
// bench --json: the run as JSON (the machine, the settings, the geomeans, a
// row per problem), written after every problem; and, for --resume, the rows
// of a run cut short read back, when its settings and machine are this run's.
#include "bench_row.h"

#include "machine/machine_model.h"
#include "util/result.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace kw::cli {

// What must match for a row to be reused: the search's config, the timing
// budget and the finalists re-timed.
nlohmann::json benchSettings(const nlohmann::json& searchConfig, double timeBudgetS, int finalists);

// "complete" says whether every problem asked for is in it.
Status writeBenchJson(const std::string& file, const machine::MachineModel& roof, const nlohmann::json& settings,
                      const std::vector<Row>& rows, const Geomeans& g, std::size_t asked);

// The rows of `file` by problem name; an error that says what differs when
// it was written with other settings, on other GPUs or CPU, or by a bench
// that did not keep what resuming needs. A missing file: no rows.
Result<std::map<std::string, Row>> readBenchRows(const std::string& file, const nlohmann::json& settings,
                                                 const machine::MachineModel& roof, bool gpuOnly);

} // namespace kw::cli
