#include "machine/machine_model.h"

#include <algorithm>
#include <cmath>

namespace kw::machine {
namespace {

const BandwidthLevel* dram(const MachineModel& m) {
    for (const auto& b : m.bandwidth)
        if (b.level == "DRAM") return &b;
    return nullptr;
}

template <typename T> T get(const nlohmann::json& j, const char* key, T fallback) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    return it->get<T>();
}

Error parseError(std::string message) {
    return makeError(ErrorCode::ParseError, std::move(message));
}

Result<GpuModel> gpuFromJson(const nlohmann::json& g) {
    if (!g.is_object()) return parseError("a GPU entry is not an object");
    GpuModel m;
    m.index = get<int>(g, "index", 0);
    m.name = get<std::string>(g, "name", "");
    m.computeCapability = get<std::string>(g, "cc", "");
    m.smCount = get<int>(g, "sm_count", 0);
    m.l2Bytes = get<std::size_t>(g, "l2_bytes", 0);
    m.memoryBytes = get<std::size_t>(g, "memory_bytes", 0);
    m.copyGBs = get<double>(g, "copy_gbs", 0);
    m.fp32FmaTflops = get<double>(g, "fp32_fma_tflops", 0);
    m.bf16MatrixTflops = get<double>(g, "bf16_matrix_tflops", 0);
    m.fp32MatrixTflops = get<double>(g, "fp32_matrix_tflops", 0);
    m.l2GatherGps = get<double>(g, "l2_gather_gps", 0);
    if (m.name.empty() || m.copyGBs <= 0) return parseError("a GPU entry lacks a name or a copy bandwidth (copy_gbs)");
    return m;
}

} // namespace

double MachineModel::dramGBs(int usedCores) const {
    const auto* d = dram(*this);
    if (!d) return 0;
    return usedCores >= cores ? d->gbsAll : d->gbs1;
}

double MachineModel::peakGflops(int usedCores) const {
    return usedCores >= cores ? vectorGflopsAll : vectorGflops1;
}

double MachineModel::floorSeconds(double bytes, double flops, int usedCores) const {
    const double bw = dramGBs(usedCores) * 1e9, peak = peakGflops(usedCores) * 1e9;
    return std::max(bw > 0 ? bytes / bw : 0.0, peak > 0 ? flops / peak : 0.0);
}

double gpuFloorSeconds(const GpuModel& gpu, double bytes, double gathers) {
    const double memory = gpu.copyGBs > 0 ? bytes / (gpu.copyGBs * 1e9) : 0.0;
    const double lookups = gpu.l2GatherGps > 0 ? gathers / (gpu.l2GatherGps * 1e9) : 0.0;
    return std::max(memory, lookups);
}

bool MachineModel::memoryBound(double bytes, double flops, int usedCores) const {
    const double bw = dramGBs(usedCores) * 1e9, peak = peakGflops(usedCores) * 1e9;
    return bw > 0 && peak > 0 && bytes / bw >= flops / peak;
}

double MachineModel::ridgeIntensity(int usedCores) const {
    const double bw = dramGBs(usedCores);
    return bw > 0 ? peakGflops(usedCores) / bw : 0;
}

double MachineModel::dramProbeCv() const {
    if (dramProbes1.size() < 2) return 0;
    double mean = 0;
    for (double v : dramProbes1) mean += v;
    mean /= static_cast<double>(dramProbes1.size());
    double var = 0;
    for (double v : dramProbes1) var += (v - mean) * (v - mean);
    var /= static_cast<double>(dramProbes1.size() - 1);
    return mean > 0 ? std::sqrt(var) / mean : 0;
}

nlohmann::json toJson(const MachineModel& m) {
    nlohmann::json levels = nlohmann::json::array();
    for (const auto& b : m.bandwidth)
        levels.push_back({{"level", b.level}, {"working_set", b.workingSet}, {"gbs_1", b.gbs1}, {"gbs_all", b.gbsAll}});
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : m.gpus)
        gpus.push_back({{"index", g.index},
                        {"name", g.name},
                        {"cc", g.computeCapability},
                        {"sm_count", g.smCount},
                        {"l2_bytes", g.l2Bytes},
                        {"memory_bytes", g.memoryBytes},
                        {"copy_gbs", g.copyGBs},
                        {"fp32_fma_tflops", g.fp32FmaTflops},
                        {"bf16_matrix_tflops", g.bf16MatrixTflops},
                        {"fp32_matrix_tflops", g.fp32MatrixTflops},
                        {"l2_gather_gps", g.l2GatherGps}});
    return {{"schema", MachineModel::kSchema},
            {"host", m.host},
            {"cpu", m.cpu},
            {"isa", m.isa},
            {"cores", m.cores},
            {"caches", {{"l1d", m.l1dBytes}, {"l2", m.l2Bytes}, {"l3", m.l3Bytes}}},
            {"bandwidth", levels},
            {"dram_probes_1", m.dramProbes1},
            {"peak_gflops",
             {{"scalar_1", m.scalarGflops1},
              {"scalar_all", m.scalarGflopsAll},
              {"vector_1", m.vectorGflops1},
              {"vector_all", m.vectorGflopsAll}}},
            {"gpus", gpus},
            {"probed_at", m.probedAt}};
}

Result<MachineModel> machineFromJson(const nlohmann::json& j) {
    try {
        if (!j.is_object()) return parseError("a machine model is a JSON object");
        const int schema = get<int>(j, "schema", 0);
        if (schema != MachineModel::kSchema)
            return parseError("machine model schema " + std::to_string(schema) + " is not " +
                              std::to_string(MachineModel::kSchema) + " (probe again: kernelwright-cli machine probe)");
        MachineModel m;
        m.host = get<std::string>(j, "host", "");
        m.cpu = get<std::string>(j, "cpu", "");
        m.isa = get<std::string>(j, "isa", "");
        m.cores = std::max(1, get<int>(j, "cores", 1));
        if (auto c = j.find("caches"); c != j.end() && c->is_object()) {
            m.l1dBytes = get<std::size_t>(*c, "l1d", 0);
            m.l2Bytes = get<std::size_t>(*c, "l2", 0);
            m.l3Bytes = get<std::size_t>(*c, "l3", 0);
        }
        const auto levels = j.find("bandwidth");
        if (levels != j.end() && levels->is_array())
            for (const auto& b : *levels)
                m.bandwidth.push_back({get<std::string>(b, "level", ""), get<std::size_t>(b, "working_set", 0),
                                       get<double>(b, "gbs_1", 0), get<double>(b, "gbs_all", 0)});
        m.dramProbes1 = j.value("dram_probes_1", std::vector<double>{});
        if (auto p = j.find("peak_gflops"); p != j.end() && p->is_object()) {
            m.scalarGflops1 = get<double>(*p, "scalar_1", 0);
            m.scalarGflopsAll = get<double>(*p, "scalar_all", 0);
            m.vectorGflops1 = get<double>(*p, "vector_1", 0);
            m.vectorGflopsAll = get<double>(*p, "vector_all", 0);
        }
        if (auto gpus = j.find("gpus"); gpus != j.end() && gpus->is_array())
            for (const auto& g : *gpus) {
                auto gpu = gpuFromJson(g);
                if (!gpu) return gpu.error();
                m.gpus.push_back(*gpu);
            }
        m.probedAt = get<std::string>(j, "probed_at", "");
        return m;
    } catch (const nlohmann::json::exception& e) {
        return parseError(std::string("malformed machine model: ") + e.what());
    }
}

Result<std::vector<GpuModel>> parseGpuProbe(const std::string& text) {
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("gpus") || !j["gpus"].is_array())
        return parseError("the GPU probe's output is not a JSON object with a \"gpus\" array (pass gpu_probe's stdout)");
    std::vector<GpuModel> out;
    try {
        for (const auto& g : j["gpus"]) {
            auto gpu = gpuFromJson(g);
            if (!gpu) return gpu.error();
            out.push_back(*gpu);
        }
    } catch (const nlohmann::json::exception& e) {
        return parseError(std::string("malformed GPU probe output: ") + e.what());
    }
    if (out.empty()) return parseError("the GPU probe saw no GPU");
    return out;
}

} // namespace kw::machine
