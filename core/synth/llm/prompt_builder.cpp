#include "synth/llm/prompt_builder.h"
#include "util/json_text.h"

#include "util/text.h"

#include "util/format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace kw::synth::llm {
namespace {

// A piece of the user message. Pieces of one section share its heading;
// a lower value is cut first; value < 0 is never cut.
struct Piece {
    std::string section;
    std::string text;
    int value;
    std::string label; // how the cut list names it
};

std::string sizesText(const std::map<std::string, long long>& sizes) {
    std::string s;
    for (const auto& [k, v] : sizes) s += (s.empty() ? "" : ", ") + k + "=" + std::to_string(v);
    return s;
}

std::string summaryLine(const NodeSummary& n) {
    std::ostringstream o;
    o << "- node " << n.id << " (" << n.origin << "): " << n.status;
    if (n.status == "ok") o << ", " << n.speedup << "x";
    if (!n.params.empty()) o << "; params " << n.params;
    if (!n.message.empty()) o << "; " << (n.message.size() > 240 ? n.message.substr(0, 240) + "..." : n.message);
    return o.str();
}

// The compiler's error lines first (they say what to fix), then the rest.
std::pair<std::string, std::string> splitBuildLog(const std::string& log) {
    std::istringstream in(log);
    std::string line, errors, rest;
    int errorLines = 0;
    while (std::getline(in, line)) {
        const bool important = line.find("error") != std::string::npos || line.find("undefined reference") != std::string::npos;
        if (important && errorLines < 30) {
            errors += line + "\n";
            ++errorLines;
        } else {
            rest += line + "\n";
        }
    }
    return {errors, rest};
}

void feedbackPieces(const eval::EvaluationResult& r, std::vector<Piece>& out) {
    const std::string sec = "Evaluation of this kernel";
    out.push_back({sec, "status: " + eval::statusName(r.status) + "\n" + r.message + "\n", -1, ""});
    if (r.status == eval::EvalStatus::CompileError && !r.buildLog.empty()) {
        auto [errors, rest] = splitBuildLog(r.buildLog);
        if (!errors.empty()) out.push_back({sec, "compiler errors:\n```\n" + errors + "```\n", 90, ""});
        if (!rest.empty())
            out.push_back({sec, "rest of the build log:\n```\n" + rest + "```\n", 20, "the build log beyond its error lines"});
    }
    int shown = 0;
    for (const auto& c : r.checks) {
        if (c.passed || shown >= 4) continue;
        std::ostringstream o;
        o << "failed check: shape " << c.shape << " (" << jsonText(c.sizes) << "), seed " << c.seed << ", output " << c.output
          << ": " << c.mismatches << " of " << c.elements << " elements wrong";
        if (c.unwritten) o << ", " << c.unwritten << " never written";
        if (c.nondeterministic) o << ", " << c.nondeterministic << " differ between two identical calls";
        if (c.firstIndex)
            o << "; first at index " << *c.firstIndex << ": expected " << c.firstExpected << ", got " << c.firstActual;
        o << "; max abs error " << c.maxAbsError;
        if (!c.detail.empty()) o << " (" << c.detail << ")";
        out.push_back({sec, o.str() + "\n", shown == 0 ? 85 : 40, "failed check " + std::to_string(shown + 1)});
        ++shown;
    }
    for (const auto& t : r.timing) {
        std::ostringstream o;
        o << "timing on " << t.shape << " (" << jsonText(t.sizes) << "): this kernel " << formatSeconds(t.candidate.median);
        if (!t.baselines.empty()) o << ", reference " << formatSeconds(t.baselines[0].median);
        for (std::size_t b = 1; b < t.baselines.size(); ++b)
            o << ", " << t.baselines[b].name << " " << formatSeconds(t.baselines[b].median);
        if (t.candidate.median > 0) {
            o << "; " << t.bytes / t.candidate.median / 1e9 << " GB/s, " << t.flops / t.candidate.median / 1e9 << " GFLOP/s";
        }
        out.push_back({sec, o.str() + "\n", 70, "timing of " + t.shape});
    }
}

// The role, the rules and the output contract for the problem's backend.
std::string systemPrompt(const problem::ProblemSpec& p) {
    const bool torch = p.backend == problem::Backend::Torch;
    std::string system;
    if (torch) {
        std::string forbidden;
        for (const auto& f : p.forbidden) forbidden += (forbidden.empty() ? "" : ", ") + ("`" + f + "`");
        system =
            "You are an expert GPU performance engineer. You improve one PyTorch module at a time inside an automated search. "
            "Every reply is checked against the reference module on many shapes and fresh input seeds (every output element is "
            "compared within the dtype's tolerance, unwritten outputs read as NaN, inputs must stay unmodified), then timed with "
            "CUDA "
            "events against eager PyTorch on the production shapes, L2 flushed before each call. Fitness is reference time / "
            "your "
            "time when correct, 0 otherwise.\n\n"
            "Rules: compute the operator yourself with Triton kernels or CUDA through torch.utils.cpp_extension.load_inline. " +
            (forbidden.empty()
                 ? std::string("Other torch ops may run beside your kernels, but they are timed as part of your call: delegating "
                               "the work earns nothing. ")
                 : "The problem refuses " + forbidden +
                       " wherever your GPU path runs it, under any name (an nn module built in __init__ only for its "
                       "parameters is fine; calling it runs the op); a CPU fallback under `if not x.is_cuda:` is fine. ") +
            "Your own function names, os and pathlib for the environment and a build folder's path, sys for its streams, "
            "tempfile.mkdtemp() for a build folder, files written in your module's own folder (next to __file__), a module-level "
            "cache of the extension you built, logging to a stream, time and warnings are fine. "
            "Do not use torch.compile, threads, the network or other processes; do not patch torch or the standard "
            "library; be correct for every size, not only the timing shapes.\n\n"
            "Output contract: reply with a short explanation of what you changed and why (a few sentences), then exactly one "
            "fenced "
            "code block (```python ... ```) holding the complete file. It must define class ModelNew(torch.nn.Module) with the "
            "same "
            "constructor arguments and forward signature as the reference's Model, returning the same outputs (shapes and "
            "dtypes); "
            "parameters named as Model's get Model's values. You may declare tunable parameters as comment lines "
            "`# @kw-param NAME: a | b | c = a` (or `lo..hi`, `bool`, `enum(x, y)`) and read them with `from kw_params import "
            "NAME`; "
            "the search tunes them. Do not put any other code block in the reply.";
    } else {
        system =
            "You are an expert performance engineer. You improve one " + std::string(problem::backendName(p.backend)) +
            " kernel at a time inside an automated search. "
            "Every reply is compiled with the flags below, checked against a reference implementation on many shapes and input "
            "seeds "
            "(outputs are poisoned before each call, every element is compared, inputs must stay unmodified, results must be "
            "deterministic), "
            "then timed against the reference on the production shapes. Fitness is reference time / kernel time when correct, 0 "
            "otherwise.\n\n"
            "Rules: the kernel must compute the operator itself (no calls into BLAS or other libraries unless the problem says "
            "so), "
            "must not special-case the test inputs, must not read or write files, the network, or other processes, and must be "
            "correct for "
            "every size, not only the timing shapes.\n\n"
            "Output contract: reply with a short explanation of what you changed and why (a few sentences), then exactly one "
            "fenced code "
            "block (```cpp ... ```) holding the complete source file. It must define\n    " +
            p.prototype() +
            "\n"
            "You may declare tunable parameters as comment lines `// @kw-param NAME: a | b | c = a` (or `lo..hi`, `bool`, "
            "`enum(x, y)`); each is passed as a macro -DNAME=value and the search tunes them. Do not put any other code block in "
            "the reply.";
    }

    return system;
}

// The problem: its description, reference or prototype, shapes, tolerances, flags.
Piece problemPiece(const PromptInput& in) {
    const auto& p = *in.problem;
    const bool torch = p.backend == problem::Backend::Torch;
    {
        std::ostringstream o;
        if (torch) {
            o << p.title << " (" << p.name << ")\n"
              << p.description << "\n\nreference (" << p.reference.path.filename().string() << "):\n```python\n"
              << p.reference.text << (p.reference.text.empty() || p.reference.text.back() == '\n' ? "" : "\n") << "```\n";
            o << "sizes (module-level names the shapes set before get_inputs()): " << joinComma(p.sizes);
            o << "\ncheck shapes:";
            for (const auto& s : p.checkShapes) o << " {" << sizesText(s.sizes) << "}";
            o << "\ntiming shapes (production):";
            for (const auto& s : p.timeShapes) o << " " << s.name << " {" << sizesText(s.sizes) << "}";
            o << "\ntolerances:";
            for (const auto& [d, t] : p.tensorTolerances) o << " " << d << " rtol " << t.rtol << " atol " << t.atol << ";";
        } else {
            o << p.title << " (" << p.name << ")\n" << p.description << "\n\nkernel: " << p.prototype() << "\n";
            o << "arguments:";
            for (const auto& a : p.arguments) {
                o << "\n- " << a.name << ": " << problem::dtypeName(a.dtype) << "[";
                for (std::size_t i = 0; i < a.shape.size(); ++i) o << (i ? ", " : "") << a.shape[i].text();
                o << "]" << (a.output ? " (output)" : "");
            }
            o << "\ncheck shapes:";
            for (const auto& s : p.checkShapes) o << " {" << sizesText(s.sizes) << "}";
            o << "\ntiming shapes (production):";
            for (const auto& s : p.timeShapes) o << " " << s.name << " {" << sizesText(s.sizes) << "}";
            o << "\ntolerances:";
            for (const auto& [d, t] : p.tolerances)
                if (problem::isFloating(d)) o << " " << problem::dtypeName(d) << " rtol " << t.rtol << " atol " << t.atol << ";";
            o << "\ncompile flags:";
            for (const auto& f : p.compileFlags) o << " " << f;
            if (!in.machine.empty()) o << "\nmachine: " << in.machine; // the host's CPU: GPU problems run elsewhere
        }
        if (in.bestSpeedup > 0) o << "\nbest speedup so far in this search: " << in.bestSpeedup << "x";
        if (in.targetSpeedup > 0) o << "\ntarget speedup: " << in.targetSpeedup << "x";
        return {"Problem", o.str() + "\n", -1, ""};
    }
}

// The node's lineage, its siblings and the retrieved documents, most valuable first.
void contextPieces(const PromptInput& in, std::vector<Piece>& pieces) {
    for (std::size_t i = 0; i < in.ancestors.size(); ++i)
        pieces.push_back({"How this kernel came to be (parent first)", summaryLine(in.ancestors[i]) + "\n",
                          60 - static_cast<int>(std::min<std::size_t>(i, 40)),
                          "ancestor node " + std::to_string(in.ancestors[i].id)});
    for (std::size_t i = 0; i < in.siblings.size(); ++i)
        pieces.push_back({"Other attempts from the same parent (failures included)", summaryLine(in.siblings[i]) + "\n",
                          30 - static_cast<int>(std::min<std::size_t>(i, 25)),
                          "sibling node " + std::to_string(in.siblings[i].id)});
    auto knowledge = in.knowledge;
    std::stable_sort(knowledge.begin(), knowledge.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
    for (std::size_t i = 0; i < knowledge.size(); ++i)
        pieces.push_back({"Reference material",
                          "### " + knowledge[i].title + (knowledge[i].path.empty() ? "" : " (" + knowledge[i].path + ")") + "\n" +
                              knowledge[i].text + "\n",
                          50 - static_cast<int>(std::min<std::size_t>(i, 45)), "knowledge: " + knowledge[i].title});
}

std::string taskText(const std::string& operation) {
    if (operation == "fix")
        return "The kernel above fails. Fix it first; keep it fast.";
    else if (operation == "restart")
        return "Write a different design from scratch (a clean slate: do not follow the kernel above closely).";
    else
        return "Make the kernel faster while keeping it correct. Prefer one substantial idea per reply; expose its knobs as "
               "@kw-param lines.";
}

// Cuts the least valuable pieces until the estimate fits; names what was cut.
void fitToBudget(Prompt& prompt, std::vector<Piece>& pieces, int tokenBudget) {
    auto total = [&] {
        int t = estimateTokens(prompt.system);
        for (const auto& pc : pieces) t += estimateTokens(pc.text) + 4;
        return t;
    };
    while (total() > tokenBudget) {
        auto victim = pieces.end();
        for (auto it = pieces.begin(); it != pieces.end(); ++it)
            if (it->value >= 0 && (victim == pieces.end() || it->value < victim->value)) victim = it;
        if (victim == pieces.end()) break; // only essentials left: sent over budget rather than without the kernel
        prompt.cut.push_back(victim->label.empty() ? victim->section : victim->label);
        pieces.erase(victim);
    }
}

// The pieces under their section headings, in order.
void assemble(Prompt& prompt, const std::vector<Piece>& pieces) {
    std::string last;
    for (const auto& pc : pieces) {
        if (pc.section != last) {
            prompt.user += (prompt.user.empty() ? "" : "\n") + std::string("## ") + pc.section + "\n";
            last = pc.section;
        }
        prompt.user += pc.text;
    }
    if (!prompt.cut.empty())
        prompt.user += "\n(" + std::to_string(prompt.cut.size()) + " lower-priority context item(s) omitted for length.)\n";
}

} // namespace

int estimateTokens(const std::string& text) {
    return static_cast<int>((text.size() + 3) / 4);
}

Prompt buildPrompt(const PromptInput& in, int tokenBudget) {
    const bool torch = in.problem->backend == problem::Backend::Torch;
    const std::string fence = torch ? "python" : "cpp";
    Prompt prompt;
    prompt.system = systemPrompt(*in.problem);
    std::vector<Piece> pieces{problemPiece(in)};
    pieces.push_back({"Current kernel",
                      (in.params.empty() ? std::string() : "param values: " + in.params + "\n") + "```" + fence + "\n" +
                          in.source + (in.source.empty() || in.source.back() == '\n' ? "" : "\n") + "```\n",
                      -1, ""});
    if (in.feedback) feedbackPieces(*in.feedback, pieces);
    if (!in.diagnosis.empty()) {
        std::string d;
        for (const auto& [name, evidence] : in.diagnosis) d += "- " + name + ": " + evidence + "\n";
        pieces.push_back({"Diagnosis (from profiling this kernel)", d, -1, ""});
    }
    if (!in.hint.empty()) pieces.push_back({"Instruction from the engineer steering this search", in.hint + "\n", -1, ""});
    contextPieces(in, pieces);
    pieces.push_back({"Task", taskText(in.operation) + "\n", -1, ""});
    fitToBudget(prompt, pieces, tokenBudget);
    assemble(prompt, pieces);
    prompt.estimatedTokens = estimateTokens(prompt.system) + estimateTokens(prompt.user);
    return prompt;
}

} // namespace kw::synth::llm
