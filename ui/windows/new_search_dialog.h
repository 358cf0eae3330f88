#pragma once
// Starts a search from the workbench: problem, policy, synthesizer, budget,
// workers, seed. Produces the search config as JSON, the same document the
// CLI stores; language-model searches take their models from the LLM settings
// (KS_LLM_CONFIG, else the default file), checked before the dialog closes.
#include <QtWidgets/QDialog>

#include <filesystem>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QDoubleSpinBox;
class QSpinBox;

namespace ks::ui {

class NewSearchDialog : public QDialog {
    Q_OBJECT
public:
    // problems: (name, folder) of the problems the user may pick.
    NewSearchDialog(const std::vector<std::pair<QString, std::filesystem::path>>& problems, QWidget* parent = nullptr);

    std::filesystem::path problemDir() const;
    QString configJson() const;
    double timeBudgetS() const; // timing per shape and evaluation

    void accept() override; // refuses, with the reason shown, a language-model search whose models or keys do not resolve

private:
    std::vector<std::pair<QString, std::filesystem::path>> problems_;
    QComboBox* problem_ = nullptr;
    QComboBox* policy_ = nullptr;
    QComboBox* synth_ = nullptr;
    QLineEdit* models_ = nullptr;
    QSpinBox* budget_ = nullptr;
    QSpinBox* workers_ = nullptr;
    QSpinBox* seed_ = nullptr;
    QDoubleSpinBox* timeBudget_ = nullptr;
    QLabel* error_ = nullptr;
};

} // namespace ks::ui
