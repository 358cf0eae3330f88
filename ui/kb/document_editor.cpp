#include "kb/document_editor.h"

#include "editor/code_view.h"
#include "kb/front_matter_form.h"
#include "util/files.h"

#include <QtCore/QTimer>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {

DocumentEditor::DocumentEditor(const kb::KbWriter& writer, QWidget* parent) : QWidget(parent), writer_(writer) {
    auto* layout = new QVBoxLayout(this);
    form_ = new FrontMatterForm(this);
    layout->addWidget(form_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    editor_ = new CodeView(split);
    editor_->setObjectName(QStringLiteral("markdownEditor"));
    editor_->setEditable(true);
    editor_->showCode(QString(), CodeView::Language::Markdown);
    preview_ = new QTextBrowser(split);
    preview_->setObjectName(QStringLiteral("markdownPreview"));
    preview_->setOpenExternalLinks(true);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    auto* bottom = new QHBoxLayout;
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("editorStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    save_ = new QPushButton(tr("&Save"), this);
    save_->setObjectName(QStringLiteral("saveDocument"));
    bottom->addWidget(status_, 1);
    bottom->addWidget(save_);
    layout->addLayout(bottom);

    // Checks and the preview follow the typing at most every 150 ms.
    debounce_ = new QTimer(this);
    debounce_->setSingleShot(true);
    debounce_->setInterval(150);
    connect(debounce_, &QTimer::timeout, this, &DocumentEditor::validateNow);
    connect(form_, &FrontMatterForm::edited, this, &DocumentEditor::edited);
    connect(editor_, &CodeView::textChanged, this, &DocumentEditor::edited);
    connect(save_, &QPushButton::clicked, this, [this] { (void)save(); });
    startNew();
}

void DocumentEditor::load(const kb::KbDocument& doc, std::filesystem::path file) {
    base_ = doc;
    file_ = std::move(file);
    form_->setDocument(doc);
    const bool writable = isWritable();
    form_->setReadOnly(!writable);
    {
        const QSignalBlocker block(editor_);
        editor_->setEditable(writable);
        editor_->showCode(QString::fromStdString(doc.body), CodeView::Language::Markdown);
    }
    modified_ = false;
    validateNow();
    emit opened(file_.empty() ? QString() : QString::fromStdString(doc.id));
    if (!writable)
        status_->setText(
            tr("Shipped document: read-only here. Its source is %1; to change the advice, save a new document of your own.")
                .arg(QString::fromStdString(file_.string())));
}

void DocumentEditor::open(const kb::KbDocument& doc) {
    kb::KbDocument d = doc;
    if (auto text = readTextFile(doc.path)) {
        auto parsed = kb::parseDocument(doc.path, *text);
        d = parsed.doc; // an invalid file still opens: its problems show as the form's
    }
    load(d, doc.path);
}

void DocumentEditor::startNew() {
    kb::KbDocument d;
    d.id = "new-document";
    d.title = "New document";
    d.category = "guidance";
    d.platforms = {"any"};
    d.body = "# New document\n\n## When it applies\n\n## What to do\n";
    load(d, {}); // untouched starter text: leaving it asks nothing
}

bool DocumentEditor::isWritable() const {
    return file_.empty() || writer_.writable(file_);
}

kb::KbDocument DocumentEditor::current() const {
    kb::KbDocument d = form_->apply(base_);
    d.body = editor_->text().toStdString();
    return d;
}

void DocumentEditor::edited() {
    modified_ = true;
    debounce_->start();
}

void DocumentEditor::validateNow() {
    debounce_->stop();
    const auto doc = current();
    preview_->setMarkdown(QString::fromStdString(doc.body));
    if (!isWritable()) {
        save_->setEnabled(false);
        return;
    }
    const auto problems = writer_.check(doc, file_);
    form_->showProblems(problems);
    save_->setEnabled(problems.empty());
    status_->setText(
        problems.empty()
            ? (file_.empty() ? tr("New document: saved into %1").arg(QString::fromStdString(writer_.userRoot().string()))
                             : QString::fromStdString(file_.string()))
            : tr("Not saved until the front matter is fixed (%n problem(s)).", nullptr, static_cast<int>(problems.size())));
}

Result<std::filesystem::path> DocumentEditor::save() {
    const auto doc = current();
    auto file = writer_.save(doc, file_);
    if (!file) {
        // The text stays in the editor: a refused save loses nothing.
        form_->showProblems(writer_.check(doc, file_));
        status_->setText(QString::fromStdString(file.error().message));
        return file;
    }
    base_ = doc;
    file_ = *file;
    modified_ = false;
    status_->setText(tr("Saved %1 and updated the index.").arg(QString::fromStdString(file_.string())));
    emit saved(QString::fromStdString(doc.id));
    return file;
}

} // namespace kw::ui
