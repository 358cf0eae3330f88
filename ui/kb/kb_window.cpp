#include "kb/kb_window.h"

#include "kb/document_editor.h"
#include "kb/kb_import_dialog.h"
#include "kb/kb_tree_model.h"
#include "kb/new_platform_wizard.h"
#include "kb/retrieval_tester.h"
#include "kb/skill_review_view.h"

#include <QtCore/QItemSelectionModel>
#include <QtGui/QAction>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QToolBar>
#include <QtWidgets/QTreeView>

namespace kw::ui {

Result<KbWindow*> KbWindow::open(const std::filesystem::path& database, QWidget* parent) {
    auto db = store::Database::open(database);
    if (!db) return db.error();
    return new KbWindow(std::move(*db), parent);
}

KbWindow::KbWindow(store::Database db, QWidget* parent)
    : QMainWindow(parent), db_(std::make_unique<store::Database>(std::move(db))),
      writer_(std::make_unique<kb::KbWriter>(kb::KbWriter::forInstallation(*db_))) {
    setWindowTitle(tr("Knowledge Base — Kernelwright"));
    setObjectName(QStringLiteral("kbWindow"));
    tabs_ = new QTabWidget(this);
    auto* split = new QSplitter(tabs_);
    tree_ = new QTreeView(split);
    tree_->setObjectName(QStringLiteral("kbTree"));
    model_ = new KbTreeModel(this);
    tree_->setModel(model_);
    tree_->setHeaderHidden(true);
    tree_->setUniformRowHeights(true);
    editor_ = new DocumentEditor(*writer_, split);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setSizes({300, 900});
    tabs_->addTab(split, tr("&Documents"));
    tester_ = new RetrievalTester(writer_->index(), *db_, tabs_);
    tabs_->addTab(tester_, tr("&Retrieval"));
    review_ = new SkillReviewView(*writer_, tabs_);
    tabs_->addTab(review_, tr("S&kill Review"));
    setCentralWidget(tabs_);

    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
        const QString id = index.data(KbTreeModel::IdRole).toString();
        if (id.isEmpty() || id == QString::fromStdString(editor_->current().id)) return;
        if (!settleUnsaved() || !openDocument(id)) selectInTree(QString::fromStdString(editor_->current().id));
    });
    connect(editor_, &DocumentEditor::opened, this, [this](const QString& id) {
        if (id.isEmpty()) {
            tree_->selectionModel()->clear(); // the handler ignores rows without a document
        } else {
            selectInTree(id);
        }
    });
    connect(editor_, &DocumentEditor::saved, this, [this](const QString& id) {
        reload();
        selectInTree(id);
    });
    connect(tester_, &RetrievalTester::openDocument, this, [this](const QString& id) {
        if (settleUnsaved() && openDocument(id)) tabs_->setCurrentIndex(0);
    });
    connect(review_, &SkillReviewView::changed, this, &KbWindow::reload);
    createActions();
    resize(1280, 800);
    reload();
}

KbWindow::~KbWindow() {
    // Widgets hold references to the writer: they go first.
    delete takeCentralWidget();
}

void KbWindow::createActions() {
    auto* doc = menuBar()->addMenu(tr("&Document"));
    auto* bar = addToolBar(tr("Knowledge Base"));
    bar->setObjectName(QStringLiteral("kbToolBar"));
    auto add = [&](const QString& icon, const QString& text, const QKeySequence& keys, auto slot) {
        auto* a = doc->addAction(QIcon::fromTheme(icon), text, this, slot);
        if (!keys.isEmpty()) a->setShortcut(keys);
        bar->addAction(a);
        return a;
    };
    add(QStringLiteral("document-new"), tr("New &Document"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_N), [this] {
        if (!settleUnsaved()) return;
        editor_->startNew();
        tabs_->setCurrentIndex(0);
    });
    add(QStringLiteral("document-save"), tr("&Save Document"), QKeySequence(Qt::CTRL | Qt::Key_S), [this] {
        if (auto r = editor_->save(); !r) statusBar()->showMessage(QString::fromStdString(r.error().message), 8000);
    });
    add(QStringLiteral("edit-rename"), tr("&Rename Document…"), QKeySequence(Qt::Key_F2), [this] {
        bool ok = false;
        const QString id = QInputDialog::getText(this, tr("Rename Document"), tr("New id (lowercase letters, digits and '-'):"),
                                                 QLineEdit::Normal, QString::fromStdString(editor_->current().id), &ok);
        if (!ok) return;
        if (auto s = renameCurrent(id); !s)
            QMessageBox::warning(this, tr("Rename Document"), QString::fromStdString(s.error().message));
    });
    add(QStringLiteral("edit-delete"), tr("De&lete Document…"), QKeySequence(), [this] {
        if (editor_->file().empty()) return;
        if (QMessageBox::question(this, tr("Delete Document"),
                                  tr("Delete %1?").arg(QString::fromStdString(editor_->file().string()))) != QMessageBox::Yes)
            return;
        if (auto s = deleteCurrent(); !s)
            QMessageBox::warning(this, tr("Delete Document"), QString::fromStdString(s.error().message));
    });
    doc->addSeparator();
    bar->addSeparator();
    add(QStringLiteral("document-import"), tr("&Import…"), QKeySequence(Qt::CTRL | Qt::Key_I), [this] { showImport(); });
    add(QStringLiteral("folder-new"), tr("New &Platform…"), QKeySequence(), [this] { showNewPlatform(); });
    doc->addSeparator();
    doc->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("Re&load"), this, &KbWindow::reload)
        ->setShortcut(QKeySequence::Refresh);
    doc->addAction(tr("&Close"), this, &QWidget::close);
}

void KbWindow::reload() {
    auto report = writer_->reindex();
    if (!report) {
        statusBar()->showMessage(QString::fromStdString(report.error().message));
        return;
    }
    auto docs = writer_->index().list();
    if (!docs) {
        statusBar()->showMessage(QString::fromStdString(docs.error().message));
        return;
    }
    model_->setDocuments(*docs, [this](const kb::KbDocument& d) { return writer_->writable(d.path); });
    tree_->expandToDepth(0);
    selectInTree(QString::fromStdString(editor_->current().id));
    review_->reload();
    tester_->updatePlatforms();
    tester_->updateSearches();
    const QString skipped = report->errors.empty()
                                ? QString()
                                : tr("; %n file(s) skipped, first: %1", nullptr, static_cast<int>(report->errors.size()))
                                      .arg(QString::fromStdString(report->errors.front()));
    statusBar()->showMessage(tr("%n document(s); yours in %1", nullptr, static_cast<int>(docs->size()))
                                 .arg(QString::fromStdString(writer_->userRoot().string())) +
                             skipped);
}

void KbWindow::showRetrievalForNode(qint64 searchId, qint64 nodeId) {
    tabs_->setCurrentWidget(tester_);
    if (auto used = tester_->useNode(searchId, nodeId); !used)
        statusBar()->showMessage(QString::fromStdString(used.error().message));
}

bool KbWindow::openDocument(const QString& id) {
    auto doc = writer_->index().find(id.toStdString());
    if (!doc || !*doc) {
        statusBar()->showMessage(doc ? tr("No document '%1' in the index").arg(id) : QString::fromStdString(doc.error().message),
                                 8000);
        return false;
    }
    editor_->open(**doc);
    selectInTree(id);
    return true;
}

void KbWindow::selectInTree(const QString& id) {
    const auto index = model_->indexOfId(id);
    if (!index.isValid() || tree_->currentIndex() == index) return;
    const QSignalBlocker block(tree_->selectionModel());
    tree_->setCurrentIndex(index);
    tree_->scrollTo(index);
}

Status KbWindow::renameCurrent(const QString& newId) {
    if (editor_->file().empty())
        return makeError(ErrorCode::InvalidArgument, "save the new document first; then it can be renamed");
    if (editor_->isModified())
        return makeError(ErrorCode::InvalidArgument, "save or discard the edits first; rename changes only the id");
    auto file = writer_->rename(editor_->file(), newId.toStdString());
    if (!file) return file.error();
    reload();
    openDocument(newId);
    return {};
}

Status KbWindow::deleteCurrent() {
    if (editor_->file().empty()) return makeError(ErrorCode::InvalidArgument, "the document was never saved: nothing to delete");
    if (auto s = writer_->remove(editor_->file()); !s) return s;
    editor_->startNew();
    reload();
    return {};
}

void KbWindow::showImport() {
    auto* dialog = new KbImportDialog(*writer_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, &KbWindow::reload);
    dialog->open();
}

void KbWindow::showNewPlatform() {
    auto* wizard = new NewPlatformWizard(*writer_, this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    connect(wizard, &QDialog::accepted, this, [this, wizard] {
        reload();
        // The first starter document opens, ready to fill in.
        if (!wizard->created().empty() && settleUnsaved()) {
            const auto id = wizard->created().front().stem().string();
            if (openDocument(QString::fromStdString(id))) tabs_->setCurrentIndex(0);
        }
    });
    wizard->open();
}

bool KbWindow::settleUnsaved() {
    if (!editor_->isModified() || !editor_->isWritable()) return true;
    const auto answer = QMessageBox::question(this, tr("Unsaved Document"),
                                              tr("Save the changes to %1?").arg(QString::fromStdString(editor_->current().id)),
                                              QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Cancel) return false;
    if (answer == QMessageBox::Save) {
        if (auto r = editor_->save(); !r) return false; // the reason shows in the editor
    }
    return true;
}

void KbWindow::closeEvent(QCloseEvent* event) {
    if (settleUnsaved())
        event->accept();
    else
        event->ignore();
}

} // namespace kw::ui
