#include "kb/kb_import_dialog.h"

#include "widgets/file_dialogs.h"

#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtGui/QFontDatabase>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QVBoxLayout>

#include <cctype>

namespace kw::ui {
namespace {

int wordCount(const std::string& text) {
    int words = 0;
    bool inWord = false;
    for (unsigned char c : text) {
        const bool space = std::isspace(c) != 0;
        words += !space && !inWord;
        inWord = !space;
    }
    return words;
}

} // namespace

KbImportDialog::KbImportDialog(const kb::KbWriter& writer, QWidget* parent) : QDialog(parent), writer_(writer) {
    setWindowTitle(tr("Import into the Knowledge Base"));
    auto* layout = new QVBoxLayout(this);
    auto* sourceButtons = new QHBoxLayout;
    auto* addFiles = new QPushButton(tr("Add &Files…"), this);
    auto* addFolder = new QPushButton(tr("Add F&older…"), this);
    sourceButtons->addWidget(addFiles);
    sourceButtons->addWidget(addFolder);
    sourceButtons->addStretch(1);
    layout->addLayout(sourceButtons);

    auto* split = new QSplitter(this);
    list_ = new QListWidget(split);
    list_->setObjectName(QStringLiteral("importProposals"));
    auto* right = new QWidget(split);
    auto* column = new QVBoxLayout(right);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(new QLabel(tr("Proposed front matter (edit it after the import, in the Documents tab)"), right));
    frontMatter_ = new QPlainTextEdit(right);
    frontMatter_->setObjectName(QStringLiteral("importFrontMatter"));
    frontMatter_->setReadOnly(true);
    frontMatter_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    frontMatter_->setMaximumHeight(150);
    column->addWidget(frontMatter_);
    column->addWidget(new QLabel(tr("Sections (retrieval returns one of these at a time)"), right));
    sections_ = new QTreeWidget(right);
    sections_->setObjectName(QStringLiteral("importSections"));
    sections_->setHeaderLabels({tr("Heading"), tr("Words")});
    sections_->setRootIsDecorated(false);
    sections_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    column->addWidget(sections_, 1);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    split->setSizes({300, 600});
    layout->addWidget(split, 1);

    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("importMessage"));
    message_->setWordWrap(true);
    layout->addWidget(message_);
    replace_ = new QCheckBox(tr("Replace documents of an earlier import with the same id"), this);
    layout->addWidget(replace_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    import_ = buttons->addButton(tr("&Import"), QDialogButtonBox::AcceptRole);
    import_->setObjectName(QStringLiteral("importConfirm"));
    layout->addWidget(buttons);

    connect(addFiles, &QPushButton::clicked, this, [this] {
        std::vector<std::filesystem::path> paths;
        for (const auto& f :
             file_dialogs::openFileNames(this, tr("Import Files"), QString(), tr("Documents (*.md *.markdown *.txt *.pdf)")))
            paths.emplace_back(f.toStdString());
        addSources(paths);
    });
    connect(addFolder, &QPushButton::clicked, this, [this] {
        const QString dir = file_dialogs::existingDirectory(this, tr("Import a Folder"));
        if (!dir.isEmpty()) addSources({dir.toStdString()});
    });
    connect(list_, &QListWidget::currentRowChanged, this, &KbImportDialog::showProposal);
    connect(list_, &QListWidget::itemChanged, this, &KbImportDialog::updateButton);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(import_, &QPushButton::clicked, this, [this] { (void)importChecked(); });
    resize(900, 600);
    updateButton();
}

void KbImportDialog::addSources(const std::vector<std::filesystem::path>& paths) {
    if (paths.empty()) return;
    ++reading_;
    message_->setText(tr("Reading %n source(s)…", nullptr, static_cast<int>(paths.size())));
    updateButton();
    // The thread sees only its copy of the paths; the dialog sees only the finished values.
    QPointer<KbImportDialog> self(this);
    auto* thread = QThread::create([self, paths] {
        Proposals results;
        for (const auto& p : paths) results.push_back(kb::importPath(p));
        QMetaObject::invokeMethod(
            qApp,
            [self, results] {
                if (self) self->takeProposals(results); // a closed dialog drops them
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

void KbImportDialog::takeProposals(const Proposals& results) {
    Q_ASSERT(QThread::currentThread() == thread());
    --reading_;
    QStringList problems;
    for (const auto& docs : results) {
        if (!docs) {
            problems << QString::fromStdString(docs.error().message);
            continue;
        }
        for (const auto& d : *docs) {
            auto* item = new QListWidgetItem(
                QStringLiteral("%1  (%2)")
                    .arg(QString::fromStdString(d.doc.id), QString::fromStdString(d.source.filename().string())));
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
            item->setToolTip(QString::fromStdString(d.source.string()));
            const QSignalBlocker block(list_);
            list_->addItem(item);
            proposals_.push_back(d);
        }
    }
    message_->setText(problems.join(QLatin1Char('\n')));
    if (list_->currentRow() < 0 && list_->count() > 0) list_->setCurrentRow(0);
    updateButton();
}

void KbImportDialog::showProposal(int row) {
    sections_->clear();
    frontMatter_->clear();
    if (row < 0 || row >= static_cast<int>(proposals_.size())) return;
    const auto& d = proposals_[static_cast<std::size_t>(row)];
    frontMatter_->setPlainText(
        QString::fromStdString(kb::renderFrontMatter(d.doc)) +
        (d.proposedFrontMatter ? tr("(proposed from the text: platforms and triggers by keyword)") : tr("(the file's own)")));
    for (const auto& s : d.doc.sections)
        new QTreeWidgetItem(sections_, {s.heading.empty() ? tr("(before the first heading)") : QString::fromStdString(s.heading),
                                        QString::number(wordCount(s.text))});
}

void KbImportDialog::updateButton() {
    int checked = 0;
    for (int i = 0; i < list_->count(); ++i) checked += list_->item(i)->checkState() == Qt::Checked;
    import_->setEnabled(checked > 0 && !isReading());
    import_->setText(tr("&Import %n Document(s)", nullptr, checked));
}

Result<std::vector<std::filesystem::path>> KbImportDialog::importChecked() {
    std::vector<kb::ImportedDocument> chosen;
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->checkState() == Qt::Checked) chosen.push_back(proposals_[static_cast<std::size_t>(i)]);
    auto files = writer_.writeImported(chosen, replace_->isChecked());
    if (!files) {
        message_->setText(QString::fromStdString(files.error().message));
        return files;
    }
    accept();
    return files;
}

} // namespace kw::ui
