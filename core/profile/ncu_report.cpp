#include "profile/ncu_report.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace kw::profile {
namespace {

// One CSV record (RFC 4180 quoting; ncu never splits a record over lines).
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                cur += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                cur += c;
        } else if (c == '"')
            quoted = true;
        else if (c == ',')
            out.push_back(std::move(cur)), cur.clear();
        else if (c != '\r')
            cur += c;
    }
    out.push_back(cur);
    return out;
}

// "2,618,906,458.70" -> 2618906458.7; -1 when not a number.
double number(std::string s) {
    s.erase(std::remove(s.begin(), s.end(), ','), s.end());
    if (s.empty()) return -1;
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        return used == s.size() ? v : -1;
    } catch (const std::exception&) {
        return -1;
    }
}

double toNs(double v, const std::string& unit) {
    if (unit == "us" || unit == "usecond") return v * 1e3;
    if (unit == "ms" || unit == "msecond") return v * 1e6;
    if (unit == "s" || unit == "second") return v * 1e9;
    return v; // "ns", "nsecond"
}

void sortStalls(NcuKernel& k) {
    std::sort(k.stalls.begin(), k.stalls.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    // "selected" is the issuing warp itself, not a stall.
    k.stalls.erase(
        std::remove_if(k.stalls.begin(), k.stalls.end(), [](const auto& s) { return s.first == "selected" || s.second <= 0; }),
        k.stalls.end());
}

int column(const std::vector<std::string>& header, const std::string& name) {
    auto it = std::find(header.begin(), header.end(), name);
    return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

Result<std::vector<NcuKernel>> parseRaw(const std::vector<std::vector<std::string>>& rows) {
    const auto& h = rows[0];
    const auto& units = rows.size() > 1 ? rows[1] : std::vector<std::string>{};
    const int name = column(h, "Kernel Name");
    std::vector<NcuKernel> out;
    const std::string stallPrefix = "smsp__average_warps_issue_stalled_", stallSuffix = "_per_issue_active.ratio";
    for (std::size_t r = 2; r < rows.size(); ++r) {
        const auto& row = rows[r];
        if (row.size() != h.size()) continue;
        NcuKernel k;
        k.name = name >= 0 ? row[static_cast<std::size_t>(name)] : "";
        double sectors = -1, requests = -1;
        for (std::size_t c = 0; c < h.size(); ++c) {
            const std::string& m = h[c];
            const double v = number(row[c]);
            if (v < 0) continue;
            if (m == "gpu__time_duration.sum")
                k.durationNs = toNs(v, c < units.size() ? units[c] : "ns");
            else if (m == "dram__throughput.avg.pct_of_peak_sustained_elapsed")
                k.dramPct = v;
            else if (m == "sm__throughput.avg.pct_of_peak_sustained_elapsed")
                k.smPct = v;
            else if (m == "lts__throughput.avg.pct_of_peak_sustained_elapsed")
                k.l2Pct = v;
            else if (m == "l1tex__t_sector_hit_rate.pct")
                k.l1HitPct = v;
            else if (m == "lts__t_sector_hit_rate.pct")
                k.l2HitPct = v;
            else if (m == "launch__occupancy_limit_registers")
                k.limitRegisters = v;
            else if (m == "launch__occupancy_limit_shared_mem")
                k.limitSharedMem = v;
            else if (m == "launch__occupancy_limit_blocks")
                k.limitBlocks = v;
            else if (m == "launch__occupancy_limit_warps")
                k.limitWarps = v;
            else if (m == "sm__warps_active.avg.pct_of_peak_sustained_active")
                k.achievedOccupancyPct = v;
            else if (m == "sm__maximum_warps_per_active_cycle_pct")
                k.theoreticalOccupancyPct = v;
            else if (m == "launch__grid_size")
                k.gridSize = v;
            else if (m == "launch__block_size")
                k.blockSize = v;
            else if (m == "launch__registers_per_thread")
                k.registersPerThread = v;
            else if (m == "launch__waves_per_multiprocessor")
                k.wavesPerSm = v;
            else if (m == "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum" || m == "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum")
                k.localBytes = std::max(0.0, k.localBytes) + v;
            else if (m == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")
                k.sharedBankConflicts = v;
            else if (m == "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
                k.sharedWavefronts = v;
            else if (m == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
                sectors = v;
            else if (m == "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
                requests = v;
            else if (m.rfind(stallPrefix, 0) == 0 && m.size() > stallPrefix.size() + stallSuffix.size() &&
                     m.compare(m.size() - stallSuffix.size(), stallSuffix.size(), stallSuffix) == 0)
                k.stalls.emplace_back(m.substr(stallPrefix.size(), m.size() - stallPrefix.size() - stallSuffix.size()), v);
        }
        if (sectors >= 0 && requests > 0) k.globalSectorsPerRequest = sectors / requests;
        sortStalls(k);
        out.push_back(std::move(k));
    }
    return out;
}

Result<std::vector<NcuKernel>> parseDetails(const std::vector<std::vector<std::string>>& rows) {
    const auto& h = rows[0];
    const int id = column(h, "ID"), name = column(h, "Kernel Name"), metric = column(h, "Metric Name"),
              unit = column(h, "Metric Unit"), value = column(h, "Metric Value");
    if (id < 0 || name < 0 || metric < 0 || value < 0)
        return makeError(ErrorCode::ParseError,
                         "ncu details CSV lacks one of the columns ID, Kernel Name, Metric Name, Metric Value");
    std::vector<NcuKernel> out;
    std::map<std::string, std::size_t> byId;
    const std::map<std::string, double NcuKernel::*> fields{{"DRAM Throughput", &NcuKernel::dramPct},
                                                            {"Compute (SM) Throughput", &NcuKernel::smPct},
                                                            {"Achieved Occupancy", &NcuKernel::achievedOccupancyPct},
                                                            {"Theoretical Occupancy", &NcuKernel::theoreticalOccupancyPct},
                                                            {"Grid Size", &NcuKernel::gridSize},
                                                            {"Block Size", &NcuKernel::blockSize},
                                                            {"Registers Per Thread", &NcuKernel::registersPerThread},
                                                            {"Waves Per SM", &NcuKernel::wavesPerSm}};
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        // Metric rows leave the trailing rule columns out.
        if (row.size() <= static_cast<std::size_t>(std::max({id, name, metric, value, unit}))) continue;
        const std::string& key = row[static_cast<std::size_t>(id)];
        auto [it, fresh] = byId.emplace(key, out.size());
        if (fresh) {
            out.emplace_back();
            out.back().name = row[static_cast<std::size_t>(name)];
        }
        NcuKernel& k = out[it->second];
        const std::string& m = row[static_cast<std::size_t>(metric)];
        const double v = number(row[static_cast<std::size_t>(value)]);
        if (m.empty() || v < 0) continue;
        if (m == "Duration")
            k.durationNs = toNs(v, unit >= 0 ? row[static_cast<std::size_t>(unit)] : "ns");
        else if (auto f = fields.find(m); f != fields.end())
            k.*(f->second) = v;
    }
    return out;
}

} // namespace

Result<std::vector<NcuKernel>> parseNcuCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    bool header = false;
    for (std::string line; std::getline(in, line);) {
        if (!header) {
            if (line.rfind("\"ID\",", 0) != 0) continue; // program output, ==PROF== lines
            header = true;
        }
        rows.push_back(csvFields(line));
    }
    if (!header)
        return makeError(
            ErrorCode::ParseError,
            "no ncu CSV header (a line starting with \"ID\") found: was ncu run with --csv, and did it profile any kernel?");
    auto kernels = column(rows[0], "Metric Name") >= 0 ? parseDetails(rows) : parseRaw(rows);
    if (kernels && kernels->empty()) return makeError(ErrorCode::ParseError, "the ncu CSV holds a header but no kernel launch");
    return kernels;
}

nlohmann::json toJson(const NcuKernel& k) {
    nlohmann::json stalls = nlohmann::json::array();
    for (const auto& [reason, v] : k.stalls) stalls.push_back({{"reason", reason}, {"per_issue", v}});
    return {{"name", k.name},
            {"duration_ns", k.durationNs},
            {"dram_pct", k.dramPct},
            {"sm_pct", k.smPct},
            {"achieved_occupancy_pct", k.achievedOccupancyPct},
            {"theoretical_occupancy_pct", k.theoreticalOccupancyPct},
            {"grid_size", k.gridSize},
            {"block_size", k.blockSize},
            {"registers_per_thread", k.registersPerThread},
            {"waves_per_sm", k.wavesPerSm},
            {"local_bytes", k.localBytes},
            {"shared_bank_conflicts", k.sharedBankConflicts},
            {"shared_wavefronts", k.sharedWavefronts},
            {"global_sectors_per_request", k.globalSectorsPerRequest},
            {"l2_pct", k.l2Pct},
            {"l1_hit_pct", k.l1HitPct},
            {"l2_hit_pct", k.l2HitPct},
            {"occupancy_limiter", k.occupancyLimiter()},
            {"stalls", stalls}};
}

NcuKernel ncuKernelFromJson(const nlohmann::json& j) {
    NcuKernel k;
    if (!j.is_object()) return k;
    const auto number = [&](const char* key, double& field) {
        if (j.contains(key) && j[key].is_number()) field = j[key].get<double>();
    };
    k.name = j.value("name", std::string());
    number("duration_ns", k.durationNs);
    number("dram_pct", k.dramPct);
    number("sm_pct", k.smPct);
    number("achieved_occupancy_pct", k.achievedOccupancyPct);
    number("theoretical_occupancy_pct", k.theoreticalOccupancyPct);
    number("grid_size", k.gridSize);
    number("block_size", k.blockSize);
    number("registers_per_thread", k.registersPerThread);
    number("waves_per_sm", k.wavesPerSm);
    number("local_bytes", k.localBytes);
    number("shared_bank_conflicts", k.sharedBankConflicts);
    number("shared_wavefronts", k.sharedWavefronts);
    number("global_sectors_per_request", k.globalSectorsPerRequest);
    number("l2_pct", k.l2Pct);
    number("l1_hit_pct", k.l1HitPct);
    number("l2_hit_pct", k.l2HitPct);
    if (j.contains("stalls") && j["stalls"].is_array())
        for (const auto& s : j["stalls"])
            if (s.is_object()) k.stalls.emplace_back(s.value("reason", std::string()), s.value("per_issue", -1.0));
    return k;
}

const NcuKernel* dominantKernel(const std::vector<NcuKernel>& kernels) {
    const auto it = std::max_element(kernels.begin(), kernels.end(),
                                     [](const NcuKernel& a, const NcuKernel& b) { return a.durationNs < b.durationNs; });
    return it == kernels.end() ? nullptr : &*it;
}

std::string NcuKernel::occupancyLimiter() const {
    const std::pair<double, const char*> limits[] = {{limitRegisters, "registers"},
                                                     {limitSharedMem, "shared memory"},
                                                     {limitWarps, "block size"},
                                                     {limitBlocks, "blocks per SM"}};
    double least = -1;
    std::string who;
    for (const auto& [v, resource] : limits)
        if (v >= 0 && (least < 0 || v < least)) least = v, who = resource;
    return who;
}

} // namespace kw::profile
