#pragma once
// The workbench window: a workspace (one SQLite database) is open; the
// bundled problems are listed with their details, the workspace's searches and
// newest evaluations sit in docks, and each opened search gets a tab with its
// live tree (SearchView).
#include "inspect/workspace_reader.h"
#include "util/result.h"

#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtWidgets/QMainWindow>

#include "session/search_runner.h"
#include "widgets/search_notes_actions.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QListWidget;
class QSplitter;
class QStackedWidget;
class QTableView;
class QTabWidget;

namespace kw::ui {

class EvaluationListModel;
class KbWindow;
class ProblemDetailsView;
class ProgressOverlayDialog;
class ProblemListModel;
class SearchListModel;
class SearchRunner;
class SearchView;
class SuiteView;
class ModelView;
struct WorkspaceLists;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    // problemsRoot: where problem folders are looked for (the bundled ones by default).
    explicit MainWindow(std::filesystem::path problemsRoot, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens the workspace database at path, creating it when missing. On failure
    // the workspace open before (if any) stays open and the error is returned.
    Status openWorkspace(const QString& path);
    // The same, telling the user in a message box when it fails.
    bool openWorkspaceOrWarn(const QString& path);
    QString workspacePath() const; // empty when none is open

    void reloadProblems();
    void refreshEvaluations();
    void refreshSearches();
    // Opens (or brings forward) the tab of a search; nullptr when there is no such search.
    SearchView* openSearch(qint64 searchId);
    // Opens (or brings forward) the tab of a suite folder; nullptr, with a
    // message in the status bar, when it is not a suite.
    SuiteView* openSuite(const QString& dir);
    // Opens (or brings forward) the Model tab of a pipeline folder (what
    // `model extract` made); nullptr, with a message, when it is not one.
    ModelView* openModel(const QString& dir);
    // Runs a search on an engine thread of its own and opens its tab once it
    // exists. timeBudgetS: timing per shape and evaluation.
    // executor: where the candidates run (default: this machine); checkOnly:
    // correctness only, no timing.
    void startSearch(const std::filesystem::path& problemDir, const QString& configJson, double timeBudgetS = 0.5,
                     eval::ExecutorChoice executor = {}, bool checkOnly = false);
    // Goes on with an ended search in this window, with this many evaluations
    // in all (as `kernelwright-cli search resume ID --budget N`).
    void resumeSearch(qint64 searchId, qint64 budget);
    void selectProblem(int row);

    ProblemListModel* problemModel() const { return problems_; }
    EvaluationListModel* evaluationModel() const { return evaluations_; }
    SearchListModel* searchModel() const { return searches_; }
    QTableView* searchTable() const { return searchTable_; }
    // Lays the given searches' best-so-far lines side by side (Compare Progress…).
    ProgressOverlayDialog* compareProgress(const std::vector<qint64>& searchIds);
    QTabWidget* tabs() const { return tabs_; }
    ProblemDetailsView* detailsView() const { return details_; }
    // The knowledge-base window on this workspace, opened or raised (nullptr, and a message, when it cannot open).
    KbWindow* showKnowledgeBase();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void createMenus();
    QWidget* createProblemPanel();
    void createEvaluationsDock();
    void createSearchesDock();
    // The Searches list's context menu: open, compare progress, rename,
    // notes, tags, archive, delete (widgets/search_notes_actions.h).
    void showSearchListMenu(const QPoint& at);
    std::vector<SearchRow> selectedSearches() const;
    // The list after a change made here, and the tab of a deleted search closed.
    void afterNotesChange(const NotesOutcome& outcome, qint64 deletedId = 0);
    // The New Search dialog, on `problem` or else the Problems tab's selection.
    void chooseNewSearch(const QString& problem = {});
    void chooseSuiteToOpen();
    void chooseModelToOpen();
    // A suite row: its run's search, else the newest search of that problem in the workspace.
    void openProblemSearch(const QString& problem, qint64 searchId);
    void showShortcuts();
    void stopRunningSearches();
    void chooseWorkspaceToOpen();
    void chooseNewWorkspace();
    void showCurrentProblem();
    void updateWorkspaceLabels();
    void restoreWindowState();
    void saveWindowState() const;
    void saveWorkspaceTabs() const;
    void restoreWorkspaceTabs();
    // The docks follow the workspace: a watcher thread per open workspace.
    void watchWorkspace(const std::filesystem::path& database);
    void stopWatching();
    // Closes every connection this window holds to the workspace, then opens
    // it again: after another process replaced its write-ahead log.
    void reopenWorkspace();
    void runSearch(SearchRequest request);
    void applyLists(const std::shared_ptr<const WorkspaceLists>& lists);

    std::filesystem::path problemsRoot_;
    std::optional<inspect::WorkspaceReader> workspace_; // read-only: searches write through their own connections

    ProblemListModel* problems_ = nullptr;
    EvaluationListModel* evaluations_ = nullptr;
    SearchListModel* searches_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QTableView* searchTable_ = nullptr;
    QListWidget* recentWorkspaces_ = nullptr; // in the empty workspace's page
    QLabel* recentLabel_ = nullptr;
    void updateRecentWorkspaces();
    QStackedWidget* searchStack_ = nullptr;                                     // the table, or what to do in an empty workspace
    std::vector<std::pair<QPointer<QThread>, QPointer<SearchRunner>>> runners_; // engine threads started here
    QSplitter* splitter_ = nullptr;
    QTableView* problemTable_ = nullptr;
    ProblemDetailsView* details_ = nullptr;
    QStackedWidget* evaluationStack_ = nullptr; // the table, or a hint while there is nothing to show
    QTableView* evaluationTable_ = nullptr;
    QLabel* workspaceLabel_ = nullptr;
    QThread* watcherThread_ = nullptr;
};

} // namespace kw::ui
