#include "widgets/params_form.h"

#include "problem/tunable_params.h"

#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>

namespace kw::ui {

ParamsForm::ParamsForm(QWidget* parent) : QWidget(parent) {
    form_ = new QFormLayout(this);
    form_->setContentsMargins(0, 0, 0, 0);
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    form_->addRow(note_);
}

void ParamsForm::setSource(const std::string& source, const nlohmann::json& preferred) {
    // What the user chose stays chosen when the declarations change under it.
    nlohmann::json keep = preferred.is_object() ? preferred : nlohmann::json::object();
    for (const auto& [name, box] : choices_) keep[name.toStdString()] = box->currentText().toStdString();
    auto space = problem::parseParamDeclarations(source, "kernel");
    if (!space) {
        problem_ = QString::fromStdString(space.error().message);
        note_->setText(tr("The @kw-param lines do not parse: %1").arg(problem_));
        return; // the last good form stays, for when the text is mended
    }
    problem_.clear();
    while (form_->rowCount() > 1) form_->removeRow(1);
    choices_.clear();
    note_->setText(space->params.empty() ? tr("This kernel declares no @kw-param: it runs as written.")
                                         : tr("Params of the child (prefilled from the node):"));
    for (const auto& d : space->params) {
        auto* box = new QComboBox(this);
        const QString name = QString::fromStdString(d.name);
        box->setObjectName(QStringLiteral("param-") + name);
        box->setToolTip(QString::fromStdString(d.describe()));
        // A wide range is typed, not listed (the search checks the value against the domain).
        if (d.cardinality() > 256)
            box->setEditable(true);
        else
            for (const auto& v : d.values()) box->addItem(QString::fromStdString(v));
        const auto want = keep.find(d.name);
        const QString value = want != keep.end() && want->is_string() ? QString::fromStdString(want->get<std::string>())
                                                                      : QString::fromStdString(d.defaultValue);
        if (box->isEditable())
            box->setEditText(d.contains(value.toStdString()) ? value : QString::fromStdString(d.defaultValue));
        else if (const int i = box->findText(value); i >= 0)
            box->setCurrentIndex(i);
        form_->addRow(name, box);
        choices_.emplace_back(name, box);
    }
}

nlohmann::json ParamsForm::assignment() const {
    nlohmann::json a = nlohmann::json::object();
    for (const auto& [name, box] : choices_) a[name.toStdString()] = box->currentText().toStdString();
    return a;
}

QComboBox* ParamsForm::choice(const QString& name) const {
    for (const auto& [n, box] : choices_)
        if (n == name) return box;
    return nullptr;
}

} // namespace kw::ui
