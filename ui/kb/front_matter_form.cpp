#include "kb/front_matter_form.h"

#include <QtWidgets/QComboBox>
#include <QtWidgets/QCompleter>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>

namespace kw::ui {
namespace {

QString joined(const std::vector<std::string>& list) {
    QStringList out;
    for (const auto& x : list) out << QString::fromStdString(x);
    return out.join(QStringLiteral(", "));
}

// "a, b" or "[a, b]": the list as typed, items trimmed and empties dropped.
std::vector<std::string> listOf(const QLineEdit* edit) {
    QString text = edit->text().trimmed();
    if (text.startsWith(QLatin1Char('[')) && text.endsWith(QLatin1Char(']'))) text = text.mid(1, text.size() - 2);
    std::vector<std::string> out;
    for (const auto& item : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!item.trimmed().isEmpty()) out.push_back(item.trimmed().toStdString());
    return out;
}

QStringList vocabulary(const std::vector<std::string>& words) {
    QStringList out;
    for (const auto& w : words) out << QString::fromStdString(w);
    return out;
}

} // namespace

FrontMatterForm::FrontMatterForm(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    auto problem = [&](const QString& key) {
        auto* label = new QLabel(this);
        label->setObjectName(QStringLiteral("problem_") + (key.isEmpty() ? QStringLiteral("form") : key));
        label->setWordWrap(true);
        label->setStyleSheet(QStringLiteral("color: #c62828;"));
        label->setVisible(false);
        problems_[key] = label;
        return label;
    };
    auto line = [&](const QString& key, const QString& label, const QString& placeholder) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(key);
        edit->setPlaceholderText(placeholder);
        connect(edit, &QLineEdit::textEdited, this, &FrontMatterForm::edited);
        form->addRow(label, edit);
        form->addRow(QString(), problem(key));
        return edit;
    };
    id_ = line(QStringLiteral("id"), tr("&Id"), tr("lowercase-words-and-digits"));
    title_ = line(QStringLiteral("title"), tr("&Title"), tr("one line: what the document is about"));
    category_ = new QComboBox(this);
    category_->setObjectName(QStringLiteral("category"));
    category_->addItems(vocabulary(kb::knownCategories()));
    connect(category_, &QComboBox::activated, this, &FrontMatterForm::edited);
    form->addRow(tr("&Category"), category_);
    form->addRow(QString(), problem(QStringLiteral("category")));
    platforms_ = line(QStringLiteral("platforms"), tr("&Platforms"), vocabulary(kb::knownPlatforms()).join(QStringLiteral(", ")));
    triggers_ = line(QStringLiteral("triggers"), tr("T&riggers"), tr("signals, e.g. memory_bound, op:softmax"));
    tags_ = line(QStringLiteral("tags"), tr("Ta&gs"), tr("free keywords, lowercase"));
    // Completion helps with the closed vocabularies; validation still has the last word.
    for (auto [edit, words] : {std::pair{platforms_, kb::knownPlatforms()}, std::pair{triggers_, kb::knownSignals()}}) {
        auto* completer = new QCompleter(vocabulary(words), edit);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        edit->setCompleter(completer);
    }
    form->addRow(problem(QString()));
}

void FrontMatterForm::setDocument(const kb::KbDocument& doc) {
    id_->setText(QString::fromStdString(doc.id));
    title_->setText(QString::fromStdString(doc.title));
    const int c = category_->findText(QString::fromStdString(doc.category));
    category_->setCurrentIndex(c >= 0 ? c : 0);
    platforms_->setText(joined(doc.platforms));
    triggers_->setText(joined(doc.triggers));
    tags_->setText(joined(doc.tags));
    showProblems({});
}

kb::KbDocument FrontMatterForm::apply(kb::KbDocument base) const {
    base.id = id_->text().trimmed().toStdString();
    base.title = title_->text().trimmed().toStdString();
    base.category = category_->currentText().toStdString();
    base.platforms = listOf(platforms_);
    base.triggers = listOf(triggers_);
    base.tags = listOf(tags_);
    return base;
}

void FrontMatterForm::showProblems(const std::vector<kb::FieldError>& problems) {
    std::map<QString, QStringList> byKey;
    for (const auto& p : problems) {
        const QString key = QString::fromStdString(p.key);
        byKey[problems_.count(key) ? key : QString()] << QString::fromStdString(p.message);
    }
    for (auto& [key, label] : problems_) {
        const auto it = byKey.find(key);
        label->setText(it == byKey.end() ? QString() : it->second.join(QLatin1Char('\n')));
        label->setVisible(it != byKey.end());
    }
}

void FrontMatterForm::setReadOnly(bool readOnly) {
    for (auto* edit : {id_, title_, platforms_, triggers_, tags_}) edit->setReadOnly(readOnly);
    category_->setEnabled(!readOnly);
}

QLineEdit* FrontMatterForm::field(const QString& key) const {
    for (auto* edit : {id_, title_, platforms_, triggers_, tags_})
        if (edit->objectName() == key) return edit;
    return nullptr;
}

QLabel* FrontMatterForm::problemLabel(const QString& key) const {
    const auto it = problems_.find(key);
    return it == problems_.end() ? nullptr : it->second;
}

} // namespace kw::ui
