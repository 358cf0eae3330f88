#pragma once
// The one way to start or resume a search: the CLI's search start/resume,
// bench and the workbench all come here. A search row (made by createSearch)
// goes in; what comes out is a search ready to run, with its executor,
// evaluator, engine, language model, knowledge base and profiler assembled.
// The search's config is parsed once and its problem loaded once.
#include "eval/evaluator.h"
#include "eval/executor_profiles.h"
#include "profile/profiler.h"
#include "search/search_engine.h"
#include "store/database.h"
#include "synth/llm_synthesizer.h"
#include "util/result.h"

#include <functional>
#include <memory>
#include <stop_token>
#include <string>

namespace kw::search {

struct SearchLaunch {
    std::int64_t searchId = 0;
    // Where jobs run; a local executor gets the config's worker count when the
    // config names one. Ignored when sharedEvaluator is given.
    eval::ExecutorChoice executor;
    // An evaluator the caller owns and keeps (bench: one for every problem).
    eval::Evaluator* sharedEvaluator = nullptr;
    eval::EvalOptions evalOptions;
    // Settings file for models and keys (empty: KW_LLM_CONFIG, else the default).
    std::string llmConfigFile;
    // Built already (start checks models before the search exists); else
    // built from the config when its synth is not the tuner.
    std::shared_ptr<const synth::LlmSynthesizer> llm;
    // Profiles correct nodes. When null and jobs run on this host, this
    // host's cached machine model is used (probed on first use); jobs on
    // other hosts get none: this host's roofline is not theirs.
    std::shared_ptr<const profile::Profiler> profiler;
    bool profileLocalJobs = true;
    // Things a user should know while assembling (a machine probe, a knowledge
    // base that does not index).
    std::function<void(const std::string&)> note;
};

// Creates a search's row after checking what would stop it later: the config,
// and its models and keys when it uses a language model (returned in llmOut).
Result<std::int64_t> createSearch(const store::Database& db, const problem::ProblemSpec& problem, const SearchConfig& config,
                                  const std::string& llmConfigFile,
                                  std::shared_ptr<const synth::LlmSynthesizer>* llmOut = nullptr);

class LaunchedSearch {
  public:
    const LoadedSearch& search() const { return loaded_; }
    eval::Evaluator& evaluator() { return *evaluator_; }
    // Where its jobs run, in words (for a start line).
    std::string placement() const;
    Result<SearchOutcome> run(std::stop_token stop = {}, SearchObserver* observer = nullptr);

  private:
    friend Result<std::unique_ptr<LaunchedSearch>> launchSearch(const store::Database&, SearchLaunch);
    explicit LaunchedSearch(LoadedSearch loaded) : loaded_(std::move(loaded)) {}
    LoadedSearch loaded_;
    const store::Database* db_ = nullptr;
    std::unique_ptr<eval::Executor> executor_;
    std::unique_ptr<eval::Evaluator> ownEvaluator_;
    eval::Evaluator* evaluator_ = nullptr;
    std::unique_ptr<SearchEngine> engine_;
};

Result<std::unique_ptr<LaunchedSearch>> launchSearch(const store::Database& db, SearchLaunch request);

} // namespace kw::search
