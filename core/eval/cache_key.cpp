#include "eval/cache_key.h"

#include "eval/embedded_templates.h"
#include "machine/machine_info.h"
#include "util/hash.h"

namespace kw::eval {

std::string candidateHash(const Candidate& candidate) {
    Sha256 h;
    h.addField(candidate.source).addField(problem::formatAssignment(candidate.params));
    return h.hexDigest();
}

std::string evaluationCacheKey(const problem::ProblemSpec& problem, const Candidate& candidate, const EvalOptions& options,
                               const std::string& placement) {
    const auto& machine = machine::machineInfo(options.compiler);
    Sha256 h;
    h.addField("cpp-harness");
    for (const auto& [name, text] : embeddedTemplates()) h.addField(name).addField(text);
    h.addField(problem.contentHash).addField(problem::backendName(problem.backend));
    h.addField(candidate.source).addField(problem::formatAssignment(candidate.params));
    h.addField(machine.compilerVersion).addField(machine.host).addField(machine.cpu);
    if (placement != "local") h.addField(placement); // keys of local results stay as they were
    for (const auto& f : problem.compileFlags) h.addField(f);
    for (auto s : options.seeds) h.addField(std::to_string(s));
    h.addField(std::to_string(options.timeSeed)).addField(options.checkOnly ? "check" : "check+time");
    if (options.inputSecret) h.addField("input secret " + std::to_string(*options.inputSecret));
    if (problem.backend == problem::Backend::Torch) h.addField(options.torchCompileBaseline ? "torch.compile" : "eager only");
    if (problem.backend == problem::Backend::Cuda) h.addField(options.cudaArch.empty() ? problem.cudaArch : options.cudaArch);
    // A result judged without the static rules (the reference against itself)
    // never answers for the same text judged with them, nor the other way.
    if (!options.staticRules) h.addField("static rules off");
    if (!options.forbiddenOpsRecorded) h.addField("forbidden ops not recorded");
    return h.hexDigest();
}

} // namespace kw::eval
