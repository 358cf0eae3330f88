#include "report/standalone_kernel.h"

#include "eval/embedded_templates.h"
#include "eval/torch_harness_generator.h"
#include "problem/tunable_params.h"
#include "store/search_store.h"

#include <cstdio>
#include <regex>

namespace kw::report {

Result<std::string> standaloneKernel(const store::Database& db, std::int64_t searchId, std::int64_t nodeId) {
    store::SearchStore store(db);
    auto search = store.loadSearch(searchId);
    if (!search) return search.error();
    auto nodes = store.loadNodesById(searchId, {nodeId});
    if (!nodes) return nodes.error();
    if (nodes->empty())
        return makeError(ErrorCode::NotFound, "search " + std::to_string(searchId) + " has no node " + std::to_string(nodeId));
    const auto& n = nodes->front();
    auto source = store.sourceText(n.sourceHash);
    if (!source) return source.error();
    char measured[64];
    std::snprintf(measured, sizeof measured, "%.3gx", n.speedup.value_or(0));
    std::string header = "// Exported by Kernelwright: search " + std::to_string(searchId) + ", node #" + std::to_string(n.seq) +
                         ", problem " + search->problem + ", status " + n.status.value_or(n.state) +
                         (n.speedup ? std::string(", measured ") + measured + " the reference" : std::string()) + ".\n";
    auto params = problem::parseAssignmentJson(n.paramsJson);
    if (!params) return params.error();
    auto space = problem::parseParamDeclarations(*source, n.sourceName);
    if (source->find("class ModelNew") != std::string::npos) {
        // A torch candidate: the params, as kw_params would hold them, replace its import of kw_params.
        std::string baked = space ? eval::TorchHarnessGenerator::paramsModule(*space, *params) : std::string();
        std::string text = *source;
        static const std::regex importLine(R"((^|\n)[ \t]*from[ \t]+kw_params[ \t]+import[^\n]*)");
        std::smatch m;
        if (std::regex_search(text, m, importLine))
            text.replace(static_cast<std::size_t>(m.position(0)) + m[1].length(), m[0].length() - m[1].length(), baked);
        else
            text = baked + text;
        // The harness's launcher, which a candidate may import, goes inline too.
        static const std::regex launchImport(R"((^|\n)[ \t]*from[ \t]+kw_launch[ \t]+import[^\n]*)");
        if (std::regex_search(text, m, launchImport))
            text.replace(static_cast<std::size_t>(m.position(0)) + m[1].length(), m[0].length() - m[1].length(),
                         "# kw_launch, from Kernelwright's harness:\n" + eval::embeddedTemplates().at("kw_launch.py"));
        header.replace(0, 2, "#");
        return header + text;
    }
    if (space)
        for (const auto& def : problem::paramDefines(*space, *params)) {
            const auto eq = def.find('=');
            header += "#define " + def.substr(2, eq - 2) + " " + def.substr(eq + 1) + "\n";
        }
    return header + *source;
}

} // namespace kw::report
