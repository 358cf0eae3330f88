#pragma once
// The knowledge-base window: documents as a tree with an editor (front-matter
// form, markdown, live preview), import, a retrieval tester and the review
// queue of distilled skills. It opens the workspace database itself (the
// index lives there) and writes through kb::KbWriter, as the CLI does: the
// shipped KB is read-only, new documents go to the user KB.
#include "kb/kb_writer.h"
#include "store/database.h"

#include <QtWidgets/QMainWindow>

#include <memory>
#include <optional>

class QTabWidget;
class QTreeView;

namespace kw::ui {

class DocumentEditor;
class KbTreeModel;
class RetrievalTester;
class SkillReviewView;

class KbWindow : public QMainWindow {
    Q_OBJECT
  public:
    // The workspace database of the index; the installation's KB folders.
    static Result<KbWindow*> open(const std::filesystem::path& database, QWidget* parent = nullptr);
    ~KbWindow() override;

    // Re-reads the folders into the index and the tree.
    void reload();
    bool openDocument(const QString& id);
    Status renameCurrent(const QString& newId);
    Status deleteCurrent();
    void showImport();
    void showNewPlatform();
    // The Retrieval tab with what node `nodeId` of search `searchId` would retrieve.
    void showRetrievalForNode(qint64 searchId, qint64 nodeId);

    const kb::KbWriter& writer() const { return *writer_; }
    QTabWidget* tabs() const { return tabs_; }
    QTreeView* tree() const { return tree_; }
    KbTreeModel* treeModel() const { return model_; }
    DocumentEditor* editor() const { return editor_; }
    RetrievalTester* retrievalTester() const { return tester_; }
    SkillReviewView* skillReview() const { return review_; }

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    KbWindow(store::Database db, QWidget* parent);
    void createActions();
    // Asks what to do with unsaved edits; false to stay on the document.
    bool settleUnsaved();
    void selectInTree(const QString& id);

    // Declared before writer_: the writer holds a reference to it.
    std::unique_ptr<store::Database> db_;
    std::unique_ptr<kb::KbWriter> writer_;
    QTabWidget* tabs_ = nullptr;
    QTreeView* tree_ = nullptr;
    KbTreeModel* model_ = nullptr;
    DocumentEditor* editor_ = nullptr;
    RetrievalTester* tester_ = nullptr;
    SkillReviewView* review_ = nullptr;
};

} // namespace kw::ui
