#include "windows/new_search_dialog.h"

#include <nlohmann/json.hpp>

#include <QtGui/QStandardItemModel>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>

namespace ks::ui {

NewSearchDialog::NewSearchDialog(const std::vector<std::pair<QString, std::filesystem::path>>& problems, QWidget* parent)
    : QDialog(parent), problems_(problems) {
    setWindowTitle(tr("New search"));
    auto* form = new QFormLayout(this);
    problem_ = new QComboBox(this);
    for (const auto& [name, dir] : problems_) problem_->addItem(name);
    policy_ = new QComboBox(this);
    policy_->addItems({QStringLiteral("mcts"), QStringLiteral("evolutionary"), QStringLiteral("beam"), QStringLiteral("greedy")});
    synth_ = new QComboBox(this);
    synth_->addItems({QStringLiteral("tuner"), QStringLiteral("llm"), QStringLiteral("hybrid")});
    // Language-model searches need the LLM settings and keys the CLI resolves;
    // until the workbench does too, they are started there and followed here.
    for (int i = 1; i < synth_->count(); ++i) {
        auto* model = qobject_cast<QStandardItemModel*>(synth_->model());
        if (auto* item = model ? model->item(i) : nullptr) {
            item->setEnabled(false);
            item->setToolTip(tr("Start language-model searches with kernelsmith-cli search start --synth llm; the workbench follows them live."));
        }
    }
    models_ = new QLineEdit(this);
    models_->setPlaceholderText(tr("model names from the LLM settings, comma-separated (llm and hybrid)"));
    models_->setEnabled(false);
    connect(synth_, &QComboBox::currentTextChanged, this, [this](const QString& s) { models_->setEnabled(s != QStringLiteral("tuner")); });
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
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(!problems_.empty());
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

std::filesystem::path NewSearchDialog::problemDir() const {
    const int i = problem_->currentIndex();
    return i >= 0 && static_cast<std::size_t>(i) < problems_.size() ? problems_[static_cast<std::size_t>(i)].second : std::filesystem::path();
}

QString NewSearchDialog::configJson() const {
    nlohmann::json c{{"policy", policy_->currentText().toStdString()},
                     {"synth", synth_->currentText().toStdString()},
                     {"max_evaluations", budget_->value()},
                     {"workers", workers_->value()},
                     {"seed", seed_->value()}};
    if (synth_->currentText() != QStringLiteral("tuner")) {
        c["models"] = nlohmann::json::array();
        for (const auto& m : models_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            c["models"].push_back({{"name", m.trimmed().toStdString()}, {"weight", 1.0}});
    }
    return QString::fromStdString(c.dump());
}

} // namespace ks::ui
