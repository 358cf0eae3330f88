#include "windows/new_search_dialog.h"

#include "util/json_text.h"
#include "windows/app_settings.h"

#include "search/search_config_json.h"
#include "synth/llm_setup.h"
#include "theme/app_theme.h"

#include <nlohmann/json.hpp>

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>

namespace kw::ui {

NewSearchDialog::NewSearchDialog(const std::vector<std::pair<QString, std::filesystem::path>>& problems, QWidget* parent)
    : QDialog(parent), problems_(problems) {
    setWindowTitle(tr("New search"));
    auto* form = new QFormLayout(this);
    addSearchRows(form);
    addExecutorRows(form);
    addLimitRows(form, 8); // below the timing row; made after the executor's widgets, which tests find by position
    addMoreRows(form, 15); // below the limits, made last for the same reason
    addButtons(form);
    restoreChoices(settings::newSearchChoices());
}

QVariantMap NewSearchDialog::choices() const {
    return {{QStringLiteral("policy"), policy_->currentText()},
            {QStringLiteral("synth"), synth_->currentText()},
            {QStringLiteral("models"), models_->text()},
            {QStringLiteral("budget"), budget_->value()},
            {QStringLiteral("workers"), workers_->value()},
            {QStringLiteral("seed"), seed_->value()},
            {QStringLiteral("timeBudget"), timeBudget_->value()},
            {QStringLiteral("memory"), memory_->currentText()},
            {QStringLiteral("maxWall"), maxWall_->value()},
            {QStringLiteral("target"), target_->value()},
            {QStringLiteral("stall"), stall_->value()},
            {QStringLiteral("maxTokens"), maxTokens_->value()},
            {QStringLiteral("maxCost"), maxCost_->value()},
            {QStringLiteral("checkOnly"), checkOnly_->isChecked()},
            {QStringLiteral("exploration"), exploration_->value()},
            {QStringLiteral("nearRoofline"), nearRoofline_->value()},
            {QStringLiteral("llmConcurrency"), llmConcurrency_->value()},
            {QStringLiteral("polish"), polish_->value()},
            {QStringLiteral("seedFromHistory"), seedFromHistory_->isChecked()},
            {QStringLiteral("distill"), distill_->isChecked()},
            {QStringLiteral("executor"), executor_->currentData()}};
}

void NewSearchDialog::restoreChoices(const QVariantMap& c) {
    // A value that is no longer offered (a policy renamed, an executor
    // profile removed) leaves the field at its default.
    const auto pick = [&](QComboBox* box, const QString& key, bool byData = false) {
        if (!c.contains(key)) return;
        const int i = byData ? box->findData(c[key]) : box->findText(c[key].toString());
        if (i >= 0) box->setCurrentIndex(i);
    };
    pick(policy_, QStringLiteral("policy"));
    pick(synth_, QStringLiteral("synth"));
    pick(memory_, QStringLiteral("memory"));
    pick(executor_, QStringLiteral("executor"), true);
    if (c.contains(QStringLiteral("models"))) models_->setText(c[QStringLiteral("models")].toString());
    for (auto [box, key] : {std::pair{budget_, "budget"},
                            {workers_, "workers"},
                            {seed_, "seed"},
                            {llmConcurrency_, "llmConcurrency"},
                            {polish_, "polish"}})
        if (c.contains(QString::fromLatin1(key))) box->setValue(c[QString::fromLatin1(key)].toInt());
    for (auto [box, key] : {std::pair{timeBudget_, "timeBudget"},
                            {maxWall_, "maxWall"},
                            {target_, "target"},
                            {stall_, "stall"},
                            {maxTokens_, "maxTokens"},
                            {maxCost_, "maxCost"},
                            {exploration_, "exploration"},
                            {nearRoofline_, "nearRoofline"}})
        if (c.contains(QString::fromLatin1(key))) box->setValue(c[QString::fromLatin1(key)].toDouble());
    for (auto [box, key] : {std::pair{checkOnly_, "checkOnly"}, {seedFromHistory_, "seedFromHistory"}, {distill_, "distill"}})
        if (c.contains(QString::fromLatin1(key))) box->setChecked(c[QString::fromLatin1(key)].toBool());
}

// Problem, policy, synthesizer and models, budget, workers, seed, timing.
void NewSearchDialog::addSearchRows(QFormLayout* form) {
    problem_ = new QComboBox(this);
    for (const auto& [name, dir] : problems_) problem_->addItem(name);
    policy_ = new QComboBox(this);
    // The engine's own names (it refused "evolutionary" that a list typed here offered).
    for (const auto& name : tree::policyNames()) policy_->addItem(QString::fromStdString(name));
    policy_->setCurrentText(QString::fromStdString(tree::policyName(tree::SearchConfig{}.policy)));
    synth_ = new QComboBox(this);
    for (const auto& name : tree::synthModeNames()) synth_->addItem(QString::fromStdString(name));
    models_ = new QLineEdit(this);
    models_->setEnabled(false);
    // The configured names, offered as completions; presets such as
    // openai:MODEL or ollama:MODEL are accepted too.
    QStringList names;
    if (auto settings = synth::loadLlmSettings(""); settings)
        for (const auto& m : settings->models) names << QString::fromStdString(m.name);
    models_->setPlaceholderText(
        names.isEmpty() ? tr("e.g. openai:gpt-4o, ollama:qwen2.5-coder (comma-separated; NAME:WEIGHT for an ensemble)")
                        : tr("comma-separated, from: %1").arg(names.join(QStringLiteral(", "))));
    if (!names.isEmpty()) models_->setCompleter(new QCompleter(names, models_));
    models_->setToolTip(
        tr("Models as in kernelwright-cli llm models: configured names or presets; NAME:WEIGHT for an ensemble."));
    connect(synth_, &QComboBox::currentTextChanged, this, [this](const QString& s) {
        models_->setEnabled(s != QString::fromStdString(tree::synthModeName(tree::SynthMode::Tuner)));
    });
    budget_ = new QSpinBox(this);
    budget_->setRange(1, 100000);
    budget_->setValue(64);
    workers_ = new QSpinBox(this);
    workers_->setRange(0, 256);
    workers_->setSpecialValueText(tr("one per core"));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(1);
    form->addRow(tr("Problem"), problem_);
    form->addRow(tr("Policy"), policy_);
    form->addRow(tr("Synthesizer"), synth_);
    form->addRow(tr("Models"), models_);
    form->addRow(tr("Budget (evaluations)"), budget_);
    form->addRow(tr("Workers"), workers_);
    form->addRow(tr("Seed"), seed_);
    timeBudget_ = new QDoubleSpinBox(this);
    timeBudget_->setRange(0.01, 60);
    timeBudget_->setDecimals(2);
    timeBudget_->setValue(0.5);
    timeBudget_->setSuffix(tr(" s"));
    timeBudget_->setToolTip(tr("Timing per shape and evaluation: longer is steadier, shorter searches faster"));
    form->addRow(tr("Timing per shape"), timeBudget_);
}

// What the CLI's search start also takes: the expansion's memory, when to
// stop (wall time, a target, a stall), the LLM's spending caps, and a
// correctness-only sweep. 0 is "none" in each, as on the command line.
void NewSearchDialog::addLimitRows(QFormLayout* form, int row) {
    memory_ = new QComboBox(this);
    memory_->setObjectName(QStringLiteral("memory"));
    for (const auto& name : tree::memoryModeNames()) memory_->addItem(QString::fromStdString(name));
    memory_->setCurrentText(QString::fromStdString(tree::memoryModeName(tree::SearchConfig{}.memory)));
    memory_->setToolTip(tr("What an expansion sees of the tree: ancestors, siblings (failed ones too), both, or none"));
    const auto number = [this](const char* name, double max, int decimals, const QString& none, const QString& suffix) {
        auto* box = new QDoubleSpinBox(this);
        box->setObjectName(QString::fromLatin1(name));
        box->setRange(0, max);
        box->setDecimals(decimals);
        box->setSpecialValueText(none);
        box->setSuffix(suffix);
        return box;
    };
    maxWall_ = number("maxWall", 1e7, 0, tr("no limit"), tr(" s"));
    target_ = number("target", 1e6, 2, tr("none"), tr("x"));
    stall_ = number("stall", 1e9, 0, tr("never"), tr(" evaluations"));
    maxTokens_ = number("maxTokens", 1e12, 0, tr("no cap"), tr(" tokens"));
    maxCost_ = number("maxCost", 1e6, 2, tr("no cap"), tr(" USD"));
    maxCost_->setToolTip(tr("Required, or a token cap, when a model is billed (a hosted model with a key or a price)"));
    checkOnly_ = new QCheckBox(tr("correctness only (no timing): a quick sweep for broken configurations"), this);
    checkOnly_->setObjectName(QStringLiteral("checkOnly"));
    const std::pair<QString, QWidget*> rows[] = {{tr("Memory"), memory_},
                                                 {tr("Stop after"), maxWall_},
                                                 {tr("Stop at speedup"), target_},
                                                 {tr("Stop when stalled for"), stall_},
                                                 {tr("Max tokens (LLM)"), maxTokens_},
                                                 {tr("Max cost (LLM)"), maxCost_},
                                                 {tr("Check only"), checkOnly_}};
    for (const auto& [label, widget] : rows) form->insertRow(row++, label, widget);
    const auto capsFollowSynth = [this] {
        const bool llm = synth_->currentText() != QString::fromStdString(tree::synthModeName(tree::SynthMode::Tuner));
        maxTokens_->setEnabled(llm);
        maxCost_->setEnabled(llm);
    };
    connect(synth_, &QComboBox::currentTextChanged, this, capsFollowSynth);
    capsFollowSynth();
}

// The search start options a first search rarely needs: the MCTS constant,
// stopping near the roofline, LLM concurrency and hybrid polishing, seeds
// from earlier searches, and a skill distilled at the end. Folded until
// asked for, so the dialog stays on a laptop's screen.
void NewSearchDialog::addMoreRows(QFormLayout* form, int row) {
    const tree::SearchConfig defaults;
    more_ = new QCheckBox(tr("exploration, roofline stop, LLM concurrency, polishing, history, skills"), this);
    more_->setObjectName(QStringLiteral("moreOptions"));
    exploration_ = new QDoubleSpinBox(this);
    exploration_->setObjectName(QStringLiteral("exploration"));
    exploration_->setRange(0, 10);
    exploration_->setDecimals(2);
    exploration_->setSingleStep(0.05);
    exploration_->setValue(defaults.mctsExploration);
    exploration_->setToolTip(tr("MCTS's UCT constant: higher tries more new branches, lower deepens the best (--exploration)"));
    nearRoofline_ = new QDoubleSpinBox(this);
    nearRoofline_->setObjectName(QStringLiteral("nearRoofline"));
    nearRoofline_->setRange(0, 1);
    nearRoofline_->setDecimals(2);
    nearRoofline_->setSingleStep(0.05);
    nearRoofline_->setSpecialValueText(tr("never"));
    nearRoofline_->setToolTip(tr("End once a kernel reaches this fraction of its roofline bound (--stop-near-roofline)"));
    llmConcurrency_ = new QSpinBox(this);
    llmConcurrency_->setObjectName(QStringLiteral("llmConcurrency"));
    llmConcurrency_->setRange(1, 64);
    llmConcurrency_->setValue(defaults.llmConcurrency);
    llmConcurrency_->setToolTip(tr("Language-model calls in flight at once (--llm-concurrency)"));
    polish_ = new QSpinBox(this);
    polish_->setObjectName(QStringLiteral("polish"));
    polish_->setRange(0, 64);
    polish_->setValue(defaults.polishSteps);
    polish_->setToolTip(tr("Hybrid: tuner children per correct LLM child with params (--polish)"));
    seedFromHistory_ = new QCheckBox(tr("also start from earlier searches' best kernels of this problem"), this);
    seedFromHistory_->setObjectName(QStringLiteral("seedFromHistory"));
    distill_ = new QCheckBox(tr("at the end, write what worked as a skill (pending review in the Knowledge Base)"), this);
    distill_->setObjectName(QStringLiteral("distill"));
    const std::pair<QString, QWidget*> rows[] = {{tr("More options"), more_},
                                                 {tr("MCTS exploration"), exploration_},
                                                 {tr("Stop near roofline"), nearRoofline_},
                                                 {tr("LLM calls at once"), llmConcurrency_},
                                                 {tr("Polish steps (hybrid)"), polish_},
                                                 {tr("Seeds"), seedFromHistory_},
                                                 {tr("Skill"), distill_}};
    const int first = row;
    for (const auto& [label, widget] : rows) form->insertRow(row++, label, widget);
    const auto fold = [this, form, first, last = row] {
        for (int r = first + 1; r < last; ++r) form->setRowVisible(r, more_->isChecked());
        adjustSize();
    };
    connect(more_, &QCheckBox::toggled, this, fold);
    fold();
    const auto followSynth = [this] {
        const QString synth = synth_->currentText();
        llmConcurrency_->setEnabled(synth != QString::fromStdString(tree::synthModeName(tree::SynthMode::Tuner)));
        polish_->setEnabled(synth == QString::fromStdString(tree::synthModeName(tree::SynthMode::Hybrid)));
    };
    connect(synth_, &QComboBox::currentTextChanged, this, followSynth);
    followSynth();
    const auto followPolicy = [this] {
        exploration_->setEnabled(policy_->currentText() == QString::fromStdString(tree::policyName(tree::Policy::Mcts)));
    };
    connect(policy_, &QComboBox::currentTextChanged, this, followPolicy);
    followPolicy();
}

// Where candidates run: this machine, ssh hosts, Slurm, or a named profile, each with its fields.
void NewSearchDialog::addExecutorRows(QFormLayout* form) {
    executor_ = new QComboBox(this);
    executor_->addItem(tr("this machine"), QStringLiteral("local"));
    executor_->addItem(tr("hosts over ssh"), QStringLiteral("ssh"));
    executor_->addItem(tr("Slurm cluster"), QStringLiteral("slurm"));
    // Named executors (executors.json), as the CLI's --executor-profile.
    if (auto profiles = eval::loadExecutorProfiles(eval::defaultExecutorProfilesFile()); profiles) {
        profiles_ = *profiles;
        for (const auto& [name, choice] : profiles_)
            executor_->addItem(
                tr("profile %1 (%2)")
                    .arg(QString::fromStdString(name), QString::fromStdString(eval::executorKindName(choice.kind))),
                QStringLiteral("profile:") + QString::fromStdString(name));
    } else {
        profilesError_ = QString::fromStdString(profiles.error().message);
    }
    sshHosts_ = new QLineEdit(this);
    sshHosts_->setPlaceholderText(tr("USER@HOST[:PORT], comma-separated"));
    sshKey_ = new QLineEdit(this);
    sshKey_->setPlaceholderText(tr("private key file (empty: ssh's own keys and agent)"));
    sshDir_ = new QLineEdit(QStringLiteral("/tmp/kernelwright-jobs"), this);
    sshGpus_ = new QLineEdit(this);
    sshGpus_->setPlaceholderText(tr("GPUs per host, one slot each, e.g. 0,1 (empty: one slot)"));
    sshHosts_->setObjectName(QStringLiteral("sshHosts"));
    sshKey_->setObjectName(QStringLiteral("sshKey"));
    sshDir_->setObjectName(QStringLiteral("sshDir"));
    sshGpus_->setObjectName(QStringLiteral("sshGpus"));
    slurmDir_ = new QLineEdit(this);
    slurmDir_->setPlaceholderText(tr("a dir the compute nodes see at the same path, e.g. /shared/$USER/kw-jobs"));
    slurmPartition_ = new QLineEdit(this);
    slurmPartition_->setPlaceholderText(tr("partition (empty: the cluster's default)"));
    slurmAccount_ = new QLineEdit(this);
    slurmAccount_->setPlaceholderText(tr("account (optional)"));
    slurmQos_ = new QLineEdit(this);
    slurmQos_->setPlaceholderText(tr("QoS (optional)"));
    slurmGres_ = new QLineEdit(this);
    slurmGres_->setPlaceholderText(tr("generic resources per job, e.g. gpu:1"));
    slurmTime_ = new QLineEdit(this);
    slurmTime_->setPlaceholderText(tr("time limit per job, e.g. 00:30:00 (empty: the job's own limit + 1 min)"));
    slurmJobs_ = new QSpinBox(this);
    slurmJobs_->setRange(1, 10000);
    slurmJobs_->setValue(4);
    slurmJobs_->setToolTip(tr("Jobs queued or running at once"));
    const std::pair<QWidget*, const char*> slurmFields[] = {
        {slurmDir_, "slurmDir"},   {slurmPartition_, "slurmPartition"}, {slurmAccount_, "slurmAccount"}, {slurmQos_, "slurmQos"},
        {slurmGres_, "slurmGres"}, {slurmTime_, "slurmTime"},           {slurmJobs_, "slurmJobs"}};
    for (const auto& [w, name] : slurmFields) w->setObjectName(QString::fromLatin1(name));
    const auto showFields = [this, slurmFields] {
        const QString kind = executor_->currentData().toString();
        for (auto* w : {sshHosts_, sshKey_, sshDir_, sshGpus_}) w->setEnabled(kind == QStringLiteral("ssh"));
        for (const auto& field : slurmFields) field.first->setEnabled(kind == QStringLiteral("slurm"));
    };
    connect(executor_, &QComboBox::currentIndexChanged, this, showFields);
    showFields();
    form->addRow(tr("Run candidates on"), executor_);
    form->addRow(tr("ssh hosts"), sshHosts_);
    form->addRow(tr("ssh key"), sshKey_);
    form->addRow(tr("Remote job dir"), sshDir_);
    form->addRow(tr("GPUs"), sshGpus_);
    form->addRow(tr("Slurm shared dir"), slurmDir_);
    form->addRow(tr("Partition"), slurmPartition_);
    form->addRow(tr("Account"), slurmAccount_);
    form->addRow(tr("QoS"), slurmQos_);
    form->addRow(tr("GRES"), slurmGres_);
    form->addRow(tr("Time limit"), slurmTime_);
    form->addRow(tr("Jobs at once"), slurmJobs_);
}

// Start and Cancel, and the line that says what is wrong.
void NewSearchDialog::addButtons(QFormLayout* form) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!problems_.empty());
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    error_ = new QLabel(this);
    error_->setWordWrap(true);
    error_->setObjectName(QStringLiteral("newSearchError"));
    error_->setStyleSheet(QStringLiteral("color: %1").arg(errorColorName(palette())));
    // A malformed profiles file is said at once; the other choices still work.
    error_->setText(profilesError_);
    error_->setVisible(!profilesError_.isEmpty());
    form->addRow(error_);
    form->addRow(buttons);
}

std::filesystem::path NewSearchDialog::problemDir() const {
    const int i = problem_->currentIndex();
    return i >= 0 && static_cast<std::size_t>(i) < problems_.size() ? problems_[static_cast<std::size_t>(i)].second
                                                                    : std::filesystem::path();
}

QString NewSearchDialog::configJson() const {
    nlohmann::json c{{"policy", policy_->currentText().toStdString()},
                     {"synth", synth_->currentText().toStdString()},
                     {"max_evaluations", budget_->value()},
                     {"workers", workers_->value()},
                     {"seed", seed_->value()},
                     {"memory", memory_->currentText().toStdString()},
                     {"max_wall_seconds", maxWall_->value()},
                     {"target_speedup", target_->value()},
                     {"stall_evaluations", static_cast<int>(stall_->value())},
                     {"max_tokens", maxTokens_->isEnabled() ? maxTokens_->value() : 0.0},
                     {"max_cost_usd", maxCost_->isEnabled() ? maxCost_->value() : 0.0},
                     {"mcts_exploration", exploration_->value()},
                     {"stop_near_roofline", nearRoofline_->value()},
                     {"llm_concurrency", llmConcurrency_->value()},
                     {"polish_steps", polish_->value()},
                     {"seed_from_history", seedFromHistory_->isChecked()},
                     {"distill_skill", distill_->isChecked()}};
    if (synth_->currentText() != QString::fromStdString(tree::synthModeName(tree::SynthMode::Tuner))) {
        c["models"] = nlohmann::json::array();
        for (const auto& m : models_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const auto choice = synth::parseModelChoice(m.trimmed().toStdString());
            c["models"].push_back({{"name", choice.name}, {"weight", choice.weight}});
        }
    }
    return QString::fromStdString(jsonText(c));
}

double NewSearchDialog::timeBudgetS() const {
    return timeBudget_->value();
}

bool NewSearchDialog::checkOnly() const {
    return checkOnly_->isChecked();
}

Result<eval::ExecutorChoice> NewSearchDialog::executorConfig() const {
    const QString kind = executor_->currentData().toString();
    eval::ExecutorChoice choice;
    if (kind.startsWith(QStringLiteral("profile:"))) {
        const auto it = profiles_.find(kind.mid(8).toStdString());
        if (it == profiles_.end()) return makeError(ErrorCode::NotFound, "the executor profile is gone from executors.json");
        return it->second;
    }
    if (kind == QStringLiteral("slurm")) {
        choice.kind = eval::ExecutorKind::Slurm;
        auto& s = choice.slurm;
        s.sharedDir = slurmDir_->text().trimmed().toStdString();
        if (s.sharedDir.empty() || !s.sharedDir.is_absolute())
            return makeError(ErrorCode::InvalidArgument, "Slurm shared dir: give an absolute path that the compute nodes see");
        s.submit.partition = slurmPartition_->text().trimmed().toStdString();
        s.submit.account = slurmAccount_->text().trimmed().toStdString();
        s.submit.qos = slurmQos_->text().trimmed().toStdString();
        s.submit.gres = slurmGres_->text().trimmed().toStdString();
        s.submit.timeLimit = slurmTime_->text().trimmed().toStdString();
        s.maxJobs = static_cast<std::size_t>(slurmJobs_->value());
        return choice;
    }
    if (kind != QStringLiteral("ssh")) return choice;
    choice.kind = eval::ExecutorKind::Ssh;
    auto& config = choice.ssh;
    std::vector<std::string> gpus;
    for (const auto& g : sshGpus_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) gpus.push_back(g.trimmed().toStdString());
    for (const auto& target : sshHosts_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        auto host = eval::parseSshTarget(target.trimmed().toStdString());
        if (!host) return makeError(ErrorCode::InvalidArgument, "ssh hosts: " + host.error().message);
        host->identityFile = sshKey_->text().trimmed().toStdString();
        if (!sshDir_->text().trimmed().isEmpty()) host->remoteDir = sshDir_->text().trimmed().toStdString();
        host->gpus = gpus;
        host->slotCount = gpus.empty() ? 1 : gpus.size();
        config.hosts.push_back(std::move(*host));
    }
    if (config.hosts.empty()) return makeError(ErrorCode::InvalidArgument, "ssh hosts: give at least one USER@HOST[:PORT]");
    return choice;
}

void NewSearchDialog::accept() {
    auto config = search::configFromJson(nlohmann::json::parse(configJson().toStdString()));
    std::string problem;
    if (!config)
        problem = config.error().message;
    else if (auto executor = executorConfig(); !executor)
        problem = executor.error().message;
    else if (config->synth != tree::SynthMode::Tuner)
        problem = llmProblem(*config);
    if (problem.empty()) {
        // What an earlier Start was refused for no longer holds.
        error_->setText(profilesError_);
        error_->setVisible(!profilesError_.isEmpty());
        settings::setNewSearchChoices(choices());
        QDialog::accept();
        return;
    }
    error_->setText(QString::fromStdString(problem));
    error_->show();
}

// Why a language-model search cannot start as set ("" when it can): its
// models must resolve, and billed ones need a spending cap, since a search
// started here runs unattended.
std::string NewSearchDialog::llmProblem(const tree::SearchConfig& config) const {
    if (auto made = synth::makeLlmSynthesizer(config, ""); !made) return made.error().message;
    if (config.maxCostUsd > 0 || config.maxTokens > 0) return "";
    auto settings = synth::loadLlmSettings("");
    if (!settings) return settings.error().message;
    for (const auto& choice : config.models)
        if (auto model = synth::llm::resolveModel(*settings, choice.name); model && synth::llm::billed(*model))
            return "model " + choice.name +
                   " is billed: set Max cost (LLM) or Max tokens (LLM), so an unattended search cannot spend without limit";
    return "";
}

bool NewSearchDialog::selectProblem(const QString& name) {
    const int i = problem_->findText(name);
    if (i >= 0) problem_->setCurrentIndex(i);
    return i >= 0;
}

} // namespace kw::ui
