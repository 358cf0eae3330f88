#include "profile/roofline_metrics.h"

#include <algorithm>

namespace kw::profile {
namespace {

ShapeMetrics measure(std::string shape, double seconds, double bytes, double flops, double gathers, const Roofs& roofs) {
    ShapeMetrics m;
    m.shape = std::move(shape);
    m.seconds = seconds;
    m.bytes = bytes;
    m.flops = flops;
    m.gathers = gathers;
    if (seconds > 0) {
        m.gbs = bytes / seconds / 1e9;
        m.gflops = flops / seconds / 1e9;
    }
    m.intensity = bytes > 0 ? flops / bytes : 0;
    const double memFloor = roofs.bandwidthGBs > 0 ? bytes / (roofs.bandwidthGBs * 1e9) : 0;
    const double cmpFloor = roofs.peakGflops > 0 ? flops / (roofs.peakGflops * 1e9) : 0;
    const double lookupFloor = roofs.gatherGps > 0 ? gathers / (roofs.gatherGps * 1e9) : 0;
    m.floorSeconds = std::max({memFloor, cmpFloor, lookupFloor});
    m.memorySide = memFloor >= cmpFloor;
    m.lookupSide = lookupFloor > std::max(memFloor, cmpFloor);
    if (seconds > 0) {
        m.rooflineFraction = m.floorSeconds / seconds;
        m.bandwidthFraction = memFloor / seconds;
        m.computeFraction = cmpFloor / seconds;
    }
    return m;
}

nlohmann::json shapeJson(const ShapeMetrics& s) {
    return {{"shape", s.shape},
            {"seconds", s.seconds},
            {"bytes", s.bytes},
            {"flops", s.flops},
            {"gathers", s.gathers},
            {"gbs", s.gbs},
            {"gflops", s.gflops},
            {"intensity", s.intensity},
            {"floor_seconds", s.floorSeconds},
            {"roofline_fraction", s.rooflineFraction},
            {"bandwidth_fraction", s.bandwidthFraction},
            {"compute_fraction", s.computeFraction},
            {"memory_side", s.memorySide},
            {"lookup_side", s.lookupSide}};
}

} // namespace

Roofs cpuRoofs(const machine::MachineModel& machine, int cores) {
    return {machine.dramGBs(cores), machine.peakGflops(cores), std::max(1, std::min(cores, machine.cores)), "cpu"};
}

Roofs gpuRoofs(const machine::GpuModel& gpu) {
    return {gpu.copyGBs, gpu.fp32FmaTflops * 1e3, 0, gpu.name, gpu.l2GatherGps};
}

RooflineMetrics rooflineMetrics(const eval::EvaluationResult& result, const Roofs& roofs) {
    RooflineMetrics r;
    r.roofs = roofs;
    r.ridge = roofs.bandwidthGBs > 0 ? roofs.peakGflops / roofs.bandwidthGBs : 0;
    double seconds = 0, bytes = 0, flops = 0, gathers = 0;
    for (const auto& t : result.timing) {
        r.shapes.push_back(measure(t.shape, t.candidate.median, t.bytes, t.flops, t.gathers, roofs));
        seconds += t.candidate.median;
        bytes += t.bytes;
        flops += t.flops;
        gathers += t.gathers;
    }
    r.total = measure("all", seconds, bytes, flops, gathers, roofs);
    return r;
}

int coresUsed(const std::string& source, const std::string& paramsJson, int allottedCores) {
    allottedCores = std::max(1, allottedCores);
    auto params = nlohmann::json::parse(paramsJson.empty() ? "{}" : paramsJson, nullptr, false);
    if (params.is_object() && params.contains("THREADS")) {
        const auto& v = params["THREADS"];
        try {
            const int n = v.is_string() ? std::stoi(v.get<std::string>()) : v.get<int>();
            if (n > 0) return std::min(n, allottedCores);
        } catch (const std::exception&) {
        }
    }
    const bool threads = source.find("#pragma omp parallel") != std::string::npos ||
                         source.find("std::thread") != std::string::npos || source.find("std::jthread") != std::string::npos ||
                         source.find("pthread_create") != std::string::npos;
    return threads ? allottedCores : 1;
}

nlohmann::json toJson(const RooflineMetrics& m) {
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto& s : m.shapes) shapes.push_back(shapeJson(s));
    return {{"roofs",
             {{"bandwidth_gbs", m.roofs.bandwidthGBs},
              {"peak_gflops", m.roofs.peakGflops},
              {"cores", m.roofs.cores},
              {"device", m.roofs.device}}},
            {"ridge", m.ridge},
            {"shapes", shapes},
            {"total", shapeJson(m.total)}};
}

} // namespace kw::profile
