#pragma once
// Starts a search from the workbench: problem, policy, synthesizer, budget,
// workers, seed, and where candidates run (this machine, hosts over ssh, a
// Slurm cluster, or a named profile from executors.json). Produces the search config as JSON, the same document the
// CLI stores; language-model searches take their models from the LLM settings
// (KW_LLM_CONFIG, else the default file), checked before the dialog closes.
#include "eval/executor_profiles.h"
#include "tree/tree_types.h"
#include "util/result.h"

#include <QtCore/QVariantMap>
#include <QtWidgets/QDialog>

#include <optional>

#include <filesystem>
#include <map>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QDoubleSpinBox;
class QSpinBox;

namespace kw::ui {

class NewSearchDialog : public QDialog {
    Q_OBJECT
  public:
    // problems: (name, folder) of the problems the user may pick.
    NewSearchDialog(const std::vector<std::pair<QString, std::filesystem::path>>& problems, QWidget* parent = nullptr);

    std::filesystem::path problemDir() const;
    // Picks a problem by name (the Problems tab's selection); false when it is not offered.
    bool selectProblem(const QString& name);
    QString configJson() const;
    double timeBudgetS() const; // timing per shape and evaluation
    bool checkOnly() const;     // correctness only, as the CLI's --check-only
    // Where candidates run (an error names the field to fix).
    Result<eval::ExecutorChoice> executorConfig() const;

    void accept() override; // refuses, with the reason shown, a language-model search whose models or keys do not resolve

    // The choices a user makes again and again (all but the problem), by
    // field name: remembered when a search starts, offered the next time.
    QVariantMap choices() const;
    void restoreChoices(const QVariantMap& choices);

  private:
    void addSearchRows(QFormLayout* form);
    void addExecutorRows(QFormLayout* form);
    void addLimitRows(QFormLayout* form, int row);
    // The rest of what search start takes, folded under "More options".
    void addMoreRows(QFormLayout* form, int row);
    void addButtons(QFormLayout* form);
    std::string llmProblem(const tree::SearchConfig& config) const;

    std::vector<std::pair<QString, std::filesystem::path>> problems_;
    QComboBox* problem_ = nullptr;
    QComboBox* policy_ = nullptr;
    QComboBox* synth_ = nullptr;
    QLineEdit* models_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QSpinBox* workers_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QDoubleSpinBox* timeBudget_ = nullptr;
    QComboBox* memory_ = nullptr;
    QDoubleSpinBox* maxWall_ = nullptr;
    QDoubleSpinBox* target_ = nullptr;
    QDoubleSpinBox* stall_ = nullptr;
    QDoubleSpinBox* maxTokens_ = nullptr;
    QDoubleSpinBox* maxCost_ = nullptr;
    QCheckBox* checkOnly_ = nullptr;
    QCheckBox* more_ = nullptr;
    QDoubleSpinBox* exploration_ = nullptr;
    QDoubleSpinBox* nearRoofline_ = nullptr;
    QSpinBox* llmConcurrency_ = nullptr;
    QSpinBox* polish_ = nullptr;
    QCheckBox* seedFromHistory_ = nullptr;
    QCheckBox* distill_ = nullptr;
    QComboBox* executor_ = nullptr;
    QLineEdit* sshHosts_ = nullptr;
    QLineEdit* sshKey_ = nullptr;
    QLineEdit* sshDir_ = nullptr;
    QLineEdit* sshGpus_ = nullptr;
    QLineEdit* slurmDir_ = nullptr;
    QLineEdit* slurmPartition_ = nullptr;
    QLineEdit* slurmAccount_ = nullptr;
    QLineEdit* slurmQos_ = nullptr;
    QLineEdit* slurmGres_ = nullptr;
    QLineEdit* slurmTime_ = nullptr;
    QSpinBox* slurmJobs_ = nullptr;
    std::map<std::string, eval::ExecutorChoice> profiles_; // from executors.json, offered in the executor list
    QString profilesError_;                                // why they could not be read ("" when they could)
    QLabel* error_ = nullptr;
};

} // namespace kw::ui
