#include "windows/main_window.h"

#include "kb/kb_window.h"
#include "models/evaluation_list_model.h"
#include "models/problem_list_model.h"
#include "models/search_list_model.h"
#include "session/search_runner.h"
#include "session/workspace_watcher.h"
#include "util/paths.h"
#include "widgets/file_dialogs.h"
#include "widgets/model_view.h"
#include "widgets/problem_details_view.h"
#include "widgets/progress_overlay_dialog.h"
#include "widgets/search_view.h"
#include "widgets/suite_view.h"
#include "windows/app_settings.h"
#include "windows/new_search_dialog.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QItemSelectionModel>
#include <QtCore/QSet>
#include <QtCore/QThread>
#include <QtGui/QAction>
#include <QtGui/QCloseEvent>
#include <QtGui/QKeySequence>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDockWidget>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMenu>
#include <QtWidgets/QMenuBar>
#include <QtWidgets/QMessageBox>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace kw::ui {
namespace {

constexpr int kRecentEvaluations = 50;
QString workspaceFilter() {
    return QObject::tr("Kernelwright workspaces (*.db);;All files (*)");
}

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    // Rows as tall as the text needs; the style's default leaves half the list empty space.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 8);
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setHighlightSections(false);
    return table;
}

// Columns fit their contents, except the last, which takes what is left.
void fitColumns(QTableView* table) {
    const int last = table->model()->columnCount() - 1;
    for (int c = 0; c < last; ++c) table->resizeColumnToContents(c);
}

} // namespace

MainWindow::MainWindow(std::filesystem::path problemsRoot, QWidget* parent)
    : QMainWindow(parent), problemsRoot_(std::move(problemsRoot)) {
    problems_ = new ProblemListModel(this);
    evaluations_ = new EvaluationListModel(this);
    searches_ = new SearchListModel(this);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("mainTabs"));
    tabs_->setDocumentMode(true);
    tabs_->setTabsClosable(true);
    tabs_->addTab(createProblemPanel(), tr("Problems"));
    tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr); // the problems stay
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (index == 0) return;
        QWidget* w = tabs_->widget(index);
        tabs_->removeTab(index);
        delete w;
    });
    setCentralWidget(tabs_);
    createSearchesDock();
    createEvaluationsDock();
    createMenus();

    workspaceLabel_ = new QLabel(this);
    workspaceLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addPermanentWidget(workspaceLabel_);

    updateWorkspaceLabels();
    restoreWindowState();
    reloadProblems();
}

MainWindow::~MainWindow() {
    stopWatching();
    stopRunningSearches();
}

void MainWindow::watchWorkspace(const std::filesystem::path& database) {
    stopWatching();
    watcherThread_ = new QThread(this);
    auto* watcher = new WorkspaceWatcher(database, kRecentEvaluations);
    watcher->moveToThread(watcherThread_);
    connect(watcherThread_, &QThread::finished, watcher, &QObject::deleteLater);
    connect(watcher, &WorkspaceWatcher::changed, this, &MainWindow::applyLists, Qt::QueuedConnection);
    connect(
        watcher, &WorkspaceWatcher::failed, this,
        [this](const QString& message) {
            statusBar()->showMessage(tr("The workspace is no longer followed (%1); View > Reload reads it again").arg(message));
        },
        Qt::QueuedConnection);
    connect(watcher, &WorkspaceWatcher::filesReplaced, this, &MainWindow::reopenWorkspace, Qt::QueuedConnection);
    watcherThread_->start();
    QMetaObject::invokeMethod(watcher, &WorkspaceWatcher::start, Qt::QueuedConnection);
}

void MainWindow::reopenWorkspace() {
    if (!workspace_) return;
    const QString path = workspacePath();
    if (!runners_.empty()) {
        // The engine's connection cannot be closed under a running search.
        statusBar()->showMessage(tr("Another process removed the write-ahead log of %1: what this window shows may be stale. "
                                    "Restart the workbench when the search started here ends.")
                                     .arg(QDir::toNativeSeparators(path)));
        return;
    }
    // Connections of one process to one file share SQLite's shared-memory
    // mapping: all of them close before the first one opens again.
    stopWatching();
    saveWorkspaceTabs();
    while (tabs_->count() > 1) {
        QWidget* w = tabs_->widget(1);
        tabs_->removeTab(1);
        delete w;
    }
    workspace_.reset();
    if (auto status = openWorkspace(path); !status) {
        statusBar()->showMessage(tr("Another process removed the write-ahead log of %1, and it could not be opened again: %2")
                                     .arg(QDir::toNativeSeparators(path), QString::fromStdString(status.error().message)));
        return;
    }
    statusBar()->showMessage(
        tr("Another process removed the write-ahead log of %1; the workbench closed and reopened the workspace.")
            .arg(QDir::toNativeSeparators(path)),
        15000);
}

void MainWindow::stopWatching() {
    if (!watcherThread_) return;
    watcherThread_->quit();
    watcherThread_->wait();
    delete watcherThread_;
    watcherThread_ = nullptr;
}

// New lists from the watcher: the rows the user had selected stay selected.
void MainWindow::applyLists(const std::shared_ptr<const WorkspaceLists>& lists) {
    if (!lists || !workspace_) return;
    const auto keep = [](QTableView* table, auto idAt, auto rowOf, auto set) {
        const auto current = table->currentIndex();
        const qint64 id = current.isValid() ? idAt(current.row()) : 0;
        const int column = current.isValid() ? current.column() : 0;
        set();
        if (!id) return;
        const int row = rowOf(id);
        if (row >= 0)
            table->selectionModel()->setCurrentIndex(table->model()->index(row, column),
                                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    };
    keep(
        searchTable_, [this](int row) { return searches_->searchAt(row).id; }, [this](qint64 id) { return searches_->rowOf(id); },
        [&] { searches_->setSearches(lists->searches); });
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<SearchView*>(tabs_->widget(i)))
            if (const int row = searches_->rowOf(v->searchId()); row >= 0)
                v->setProgress(searches_->searchAt(row).evaluations, searches_->searchAt(row).budget);
    keep(
        evaluationTable_, [this](int row) { return evaluations_->evaluationAt(row).id; },
        [this](qint64 id) { return evaluations_->rowOf(id); }, [&] { evaluations_->setEvaluations(lists->evaluations); });
    fitColumns(searchTable_);
    fitColumns(evaluationTable_);
    evaluationStack_->setCurrentWidget(evaluations_->rowCount() > 0 ? static_cast<QWidget*>(evaluationTable_)
                                                                    : evaluationStack_->widget(0));
}

// Searches started here stop with the window (evaluations in flight re-run on resume).
void MainWindow::stopRunningSearches() {
    for (auto& [thread, runner] : runners_) {
        if (!thread) continue;
        if (runner) runner->requestStop();
        thread->quit();
        thread->wait();
    }
    runners_.clear();
}

QWidget* MainWindow::createProblemPanel() {
    splitter_ = new QSplitter(Qt::Horizontal, this);
    problemTable_ = makeTable(problems_, splitter_);
    problemTable_->setObjectName(QStringLiteral("problemTable"));
    details_ = new ProblemDetailsView(splitter_);
    details_->setObjectName(QStringLiteral("problemDetails"));
    splitter_->addWidget(problemTable_);
    splitter_->addWidget(details_);
    splitter_->setStretchFactor(0, 1);
    splitter_->setStretchFactor(1, 1);
    splitter_->setChildrenCollapsible(false);
    connect(problemTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] { showCurrentProblem(); });
    // A problem leads to its search: double-click, Enter or the context menu.
    problemTable_->setToolTip(tr("Double-click a problem to start a search on it"));
    problemTable_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(problemTable_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid() && problems_->problemAt(index.row()).valid()) chooseNewSearch(problems_->problemAt(index.row()).id);
    });
    connect(problemTable_, &QTableView::customContextMenuRequested, this, [this](QPoint pos) {
        const auto index = problemTable_->indexAt(pos);
        if (!index.isValid()) return;
        const auto& p = problems_->problemAt(index.row());
        QMenu menu(this);
        auto* search = menu.addAction(tr("Search this problem…"), this, [this, id = p.id] { chooseNewSearch(id); });
        search->setEnabled(p.valid());
        if (!p.valid()) search->setToolTip(tr("The problem does not load: see its details"));
        menu.setToolTipsVisible(true);
        menu.exec(problemTable_->viewport()->mapToGlobal(pos));
    });
    return splitter_;
}

void MainWindow::createEvaluationsDock() {
    auto* dock = new QDockWidget(tr("Recent evaluations"), this);
    dock->setObjectName(QStringLiteral("recentEvaluationsDock")); // saveState() needs a name
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);

    evaluationStack_ = new QStackedWidget(dock);
    auto* emptyHint =
        new QLabel(tr("No evaluations in this workspace yet.\n"
                      "Evaluate a candidate with: kernelwright-cli --workspace WORKSPACE eval --problem NAME --reference"),
                   evaluationStack_);
    emptyHint->setAlignment(Qt::AlignCenter);
    emptyHint->setEnabled(false); // the palette's disabled text: quieter than data, in any theme
    evaluationTable_ = makeTable(evaluations_, evaluationStack_);
    evaluationTable_->setObjectName(QStringLiteral("evaluationTable"));
    evaluationStack_->addWidget(emptyHint);
    evaluationStack_->addWidget(evaluationTable_);

    dock->setWidget(evaluationStack_);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {200}, Qt::Vertical);
}

void MainWindow::createSearchesDock() {
    auto* dock = new QDockWidget(tr("Searches"), this);
    dock->setObjectName(QStringLiteral("searchesDock"));
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable | QDockWidget::DockWidgetClosable);
    searchTable_ = makeTable(searches_, dock);
    searchTable_->setObjectName(QStringLiteral("searchTable"));
    searchTable_->setToolTip(tr("Double-click a search to open its tree"));
    connect(searchTable_, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (index.isValid()) openSearch(searches_->searchAt(index.row()).id);
    });
    // Several at once: Compare Progress lays their lines side by side, Archive takes them all.
    searchTable_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    searchTable_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(searchTable_, &QWidget::customContextMenuRequested, this, &MainWindow::showSearchListMenu);
    // An empty workspace says what to do next instead of showing an empty table.
    searchStack_ = new QStackedWidget(dock);
    auto* empty = new QWidget(searchStack_);
    empty->setObjectName(QStringLiteral("searchesEmpty"));
    auto* column = new QVBoxLayout(empty);
    auto* hint = new QLabel(tr("No searches in this workspace yet.\nStart one on a problem: pick it in the Problems tab, "
                               "or double-click it."),
                            empty);
    hint->setWordWrap(true);
    hint->setAlignment(Qt::AlignCenter);
    auto* start = new QPushButton(tr("New Search…"), empty);
    start->setObjectName(QStringLiteral("newSearchButton"));
    connect(start, &QPushButton::clicked, this, [this] { chooseNewSearch(); });
    auto* openOther = new QPushButton(tr("Open Workspace…"), empty);
    openOther->setObjectName(QStringLiteral("openWorkspaceButton"));
    connect(openOther, &QPushButton::clicked, this, [this] { chooseWorkspaceToOpen(); });
    // Workspaces opened before, with their searches: one click away.
    recentLabel_ = new QLabel(tr("Recent workspaces (double-click to open):"), empty);
    recentWorkspaces_ = new QListWidget(empty);
    recentWorkspaces_->setObjectName(QStringLiteral("recentWorkspaces"));
    connect(recentWorkspaces_, &QListWidget::itemActivated, this,
            [this](QListWidgetItem* item) { openWorkspaceOrWarn(item->data(Qt::UserRole).toString()); });
    column->addStretch(1);
    column->addWidget(hint);
    column->addWidget(start, 0, Qt::AlignHCenter);
    column->addWidget(openOther, 0, Qt::AlignHCenter);
    column->addSpacing(8);
    column->addWidget(recentLabel_);
    column->addWidget(recentWorkspaces_, 2);
    column->addStretch(1);
    searchStack_->addWidget(empty);
    searchStack_->addWidget(searchTable_);
    connect(searches_, &QAbstractItemModel::modelReset, this, [this, dock] {
        const bool any = searches_->rowCount() > 0 || searches_->archivedHidden() > 0;
        searchStack_->setCurrentWidget(any ? static_cast<QWidget*>(searchTable_) : searchStack_->widget(0));
        dock->setWindowTitle(searches_->archivedHidden() > 0
                                 ? tr("Searches (%n archived, hidden)", nullptr, searches_->archivedHidden())
                                 : tr("Searches"));
    });
    dock->setWidget(searchStack_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
}

std::vector<SearchRow> MainWindow::selectedSearches() const {
    std::vector<SearchRow> rows;
    for (const auto& index : searchTable_->selectionModel()->selectedRows()) rows.push_back(searches_->searchAt(index.row()));
    std::sort(rows.begin(), rows.end(), [](const SearchRow& a, const SearchRow& b) { return a.id < b.id; });
    return rows;
}

ProgressOverlayDialog* MainWindow::compareProgress(const std::vector<qint64>& searchIds) {
    if (!workspace_ || searchIds.empty()) return nullptr;
    auto* dialog = new ProgressOverlayDialog(workspace_->path(), searchIds, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    return dialog;
}

void MainWindow::showSearchListMenu(const QPoint& at) {
    if (!workspace_) return;
    // A right-click on a row outside the selection selects that row alone, as file managers do.
    const QModelIndex under = searchTable_->indexAt(at);
    if (under.isValid() && !searchTable_->selectionModel()->isRowSelected(under.row(), {}))
        searchTable_->selectionModel()->setCurrentIndex(under, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const auto rows = selectedSearches();
    const auto path = workspace_->path();
    QMenu menu(this);
    if (rows.size() == 1) {
        const SearchRow row = rows.front();
        menu.addAction(tr("Open"), this, [this, id = row.id] { openSearch(id); });
        menu.addSeparator();
        menu.addAction(tr("Rename…"), this, [this, row, path] { afterNotesChange(renameSearch(this, path, row)); });
        menu.addAction(tr("Notes…"), this, [this, row, path] { afterNotesChange(editSearchNotes(this, path, row)); });
        menu.addAction(tr("Tags…"), this, [this, row, path] { afterNotesChange(editSearchTags(this, path, row)); });
    }
    if (rows.size() >= 2) {
        std::vector<qint64> ids;
        for (const auto& r : rows) ids.push_back(r.id);
        menu.addAction(tr("Compare Progress of %n Searches…", nullptr, static_cast<int>(rows.size())), this,
                       [this, ids] { compareProgress(ids); });
    } else if (rows.size() == 1) {
        menu.addAction(tr("Compare Progress… (select two or more searches)"))->setEnabled(false);
    }
    if (!rows.empty()) {
        menu.addSeparator();
        const bool allArchived = std::all_of(rows.begin(), rows.end(), [](const SearchRow& r) { return r.archived; });
        menu.addAction(allArchived ? tr("Unarchive") : tr("Archive"), this,
                       [this, rows, path, allArchived] { afterNotesChange(archiveSearches(path, rows, !allArchived)); });
        if (rows.size() == 1) {
            const SearchRow row = rows.front();
            auto* remove = menu.addAction(tr("Delete…"), this,
                                          [this, row, path] { afterNotesChange(deleteSearchAsked(this, path, row), row.id); });
            // Refused in core too; here the menu says why before anyone asks.
            if (row.status == QLatin1String("running") || row.status == QLatin1String("paused")) {
                remove->setEnabled(false);
                remove->setText(tr("Delete… (stop the search first)"));
            }
        }
    }
    menu.addSeparator();
    auto* archived = menu.addAction(tr("Show Archived Searches"));
    archived->setCheckable(true);
    archived->setChecked(searches_->showsArchived());
    connect(archived, &QAction::toggled, this, [this](bool on) { searches_->setShowArchived(on); });
    menu.exec(searchTable_->viewport()->mapToGlobal(at));
}

void MainWindow::afterNotesChange(const NotesOutcome& outcome, qint64 deletedId) {
    if (!outcome.message.isEmpty()) statusBar()->showMessage(outcome.message, 10000);
    if (!outcome.changed) return;
    if (deletedId)
        for (int i = 1; i < tabs_->count(); ++i)
            if (auto* v = qobject_cast<SearchView*>(tabs_->widget(i)); v && v->searchId() == deletedId) {
                emit tabs_->tabCloseRequested(i);
                break;
            }
    refreshSearches();
}

void MainWindow::refreshSearches() {
    if (!workspace_) {
        searches_->setSearches({});
        return;
    }
    auto records = workspace_->searches();
    if (!records) {
        searches_->setSearches({});
        statusBar()->showMessage(tr("Cannot read searches: %1").arg(QString::fromStdString(records.error().message)));
        return;
    }
    std::vector<SearchRow> rows;
    for (const auto& r : *records) rows.push_back(SearchRow::fromRecord(r));
    std::sort(rows.begin(), rows.end(), [](const SearchRow& a, const SearchRow& b) { return a.id > b.id; });
    searches_->setSearches(std::move(rows));
    fitColumns(searchTable_);
}

SuiteView* MainWindow::openSuite(const QString& dir) {
    const auto path = std::filesystem::absolute(dir.toStdString());
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<SuiteView*>(tabs_->widget(i)); v && std::filesystem::absolute(v->suite().dir) == path) {
            tabs_->setCurrentIndex(i);
            v->reload();
            return v;
        }
    auto loaded = suite::loadSuite(path);
    if (!loaded) {
        statusBar()->showMessage(QString::fromStdString(loaded.error().message), 8000);
        return nullptr;
    }
    auto* view = new SuiteView(std::move(*loaded), tabs_);
    view->setObjectName(QStringLiteral("suiteView"));
    connect(view, &SuiteView::problemActivated, this, &MainWindow::openProblemSearch);
    tabs_->setCurrentIndex(tabs_->addTab(view, tr("Suite %1").arg(QString::fromStdString(view->suite().name))));
    return view;
}

ModelView* MainWindow::openModel(const QString& dir) {
    const auto path = std::filesystem::absolute(dir.toStdString());
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<ModelView*>(tabs_->widget(i)); v && std::filesystem::absolute(v->folder().dir) == path) {
            tabs_->setCurrentIndex(i);
            v->reload();
            return v;
        }
    auto folder = model::readModelFolder(path);
    if (!folder) {
        statusBar()->showMessage(QString::fromStdString(folder.error().message), 8000);
        return nullptr;
    }
    auto* view = new ModelView(std::move(*folder), tabs_);
    view->setObjectName(QStringLiteral("modelView"));
    connect(view, &ModelView::problemActivated, this, &MainWindow::openProblemSearch);
    tabs_->setCurrentIndex(tabs_->addTab(view, tr("Model %1").arg(QString::fromStdString(view->folder().extract.modelName))));
    return view;
}

void MainWindow::chooseModelToOpen() {
    const QString dir = file_dialogs::existingDirectory(this, tr("Open Model Folder"), QDir::currentPath());
    if (!dir.isEmpty()) openModel(dir);
}

void MainWindow::chooseSuiteToOpen() {
    const QString dir = file_dialogs::existingDirectory(this, tr("Open Suite"), QDir::currentPath());
    if (!dir.isEmpty()) openSuite(dir);
}

void MainWindow::openProblemSearch(const QString& problem, qint64 searchId) {
    if (!workspace_) {
        statusBar()->showMessage(tr("Open a workspace to see the searches of %1").arg(problem), 5000);
        return;
    }
    if (searchId && workspace_->search(searchId)) {
        openSearch(searchId);
        return;
    }
    refreshSearches();
    for (const auto& row : searches_->rows()) // newest first
        if (row.problem == problem) {
            openSearch(row.id);
            return;
        }
    statusBar()->showMessage(tr("No search of %1 in this workspace: suite run --mode search makes one per problem").arg(problem),
                             8000);
}

SearchView* MainWindow::openSearch(qint64 searchId) {
    if (!workspace_) return nullptr;
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<SearchView*>(tabs_->widget(i)); v && v->searchId() == searchId) {
            tabs_->setCurrentIndex(i);
            return v;
        }
    auto record = workspace_->search(searchId);
    if (!record) {
        statusBar()->showMessage(QString::fromStdString(record.error().message), 5000);
        return nullptr;
    }
    auto* view = new SearchView(workspace_->path(), searchId, tabs_);
    view->setObjectName(QStringLiteral("searchView%1").arg(searchId));
    connect(view, &SearchView::resumeRequested, this, &MainWindow::resumeSearch);
    connect(view, &SearchView::retrievalRequested, this, [this](qint64 search, qint64 node) {
        if (auto* kb = showKnowledgeBase()) kb->showRetrievalForNode(search, node);
    });
    const auto row = SearchRow::fromRecord(*record);
    view->setProgress(row.evaluations, row.budget);
    const int index = tabs_->addTab(view, tr("Search %1 · %2").arg(searchId).arg(QString::fromStdString(record->problem)));
    tabs_->setCurrentIndex(index);
    return view;
}

KbWindow* MainWindow::showKnowledgeBase() {
    // One KB window at a time, on the open workspace's index.
    auto* window = findChild<KbWindow*>();
    if (!window) {
        const QString ws = workspacePath();
        auto opened = KbWindow::open(ws.isEmpty() ? paths::defaultDatabase() : std::filesystem::path(ws.toStdString()), this);
        if (!opened) {
            QMessageBox::warning(this, tr("Knowledge Base"), QString::fromStdString(opened.error().message));
            return nullptr;
        }
        window = *opened;
        window->setWindowFlag(Qt::Window);
        window->setAttribute(Qt::WA_DeleteOnClose);
    }
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

void MainWindow::chooseNewSearch(const QString& problem) {
    if (!workspace_) {
        QMessageBox::information(this, tr("New search"), tr("Open a workspace first (File › Open Workspace)."));
        return;
    }
    std::vector<std::pair<QString, std::filesystem::path>> problems;
    for (int r = 0; r < problems_->rowCount(); ++r)
        if (problems_->problemAt(r).valid())
            problems.emplace_back(problems_->problemAt(r).id, std::filesystem::path(problems_->problemAt(r).dir.toStdString()));
    NewSearchDialog dialog(problems, this);
    dialog.setObjectName(QStringLiteral("newSearchDialog"));
    QString pick = problem;
    if (pick.isEmpty() && problemTable_->currentIndex().isValid())
        pick = problems_->problemAt(problemTable_->currentIndex().row()).id;
    if (!pick.isEmpty()) dialog.selectProblem(pick);
    if (dialog.exec() != QDialog::Accepted) return;
    auto executor = dialog.executorConfig(); // checked when the dialog was accepted
    startSearch(dialog.problemDir(), dialog.configJson(), dialog.timeBudgetS(), executor ? *executor : eval::ExecutorChoice{},
                dialog.checkOnly());
}

void MainWindow::startSearch(const std::filesystem::path& problemDir, const QString& configJson, double timeBudgetS,
                             eval::ExecutorChoice executor, bool checkOnly) {
    if (!workspace_) return;
    SearchRequest request{workspace_->path(), problemDir, configJson, {}, timeBudgetS, std::move(executor)};
    request.checkOnly = checkOnly;
    runSearch(std::move(request));
}

void MainWindow::resumeSearch(qint64 searchId, qint64 budget) {
    if (!workspace_) return;
    SearchRequest request;
    request.database = workspace_->path();
    request.resumeSearchId = searchId;
    request.resumeBudget = budget;
    runSearch(std::move(request));
}

void MainWindow::runSearch(SearchRequest request) {
    auto* thread = new QThread(this);
    auto* runner = new SearchRunner(std::move(request));
    runner->moveToThread(thread);
    connect(thread, &QThread::started, runner, &SearchRunner::run);
    connect(runner, &SearchRunner::started, this, [this](qint64 id) {
        refreshSearches();
        if (auto* view = openSearch(id)) view->resumed();
    });
    auto done = [thread] { thread->quit(); };
    connect(runner, &SearchRunner::finished, this, [this, done](qint64 id, const QString& reason, const QString& note) {
        statusBar()->showMessage(note.isEmpty() ? tr("Search %1 ended (%2)").arg(id).arg(reason)
                                                : tr("Search %1 ended (%2); %3").arg(id).arg(reason, note),
                                 note.isEmpty() ? 8000 : 30000);
        refreshSearches();
        done();
    });
    connect(runner, &SearchRunner::warning, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(runner, &SearchRunner::failed, this, [this, done](const QString& message) {
        QMessageBox::warning(this, tr("Search"), message);
        done();
    });
    connect(thread, &QThread::finished, runner, &QObject::deleteLater);
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    runners_.push_back({thread, runner});
    thread->start();
}

void MainWindow::createMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Workspace…"), this,
                                 &MainWindow::chooseWorkspaceToOpen);
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_O));
    auto* create = file->addAction(QIcon::fromTheme(QStringLiteral("document-new")), tr("&New Workspace…"), this,
                                   &MainWindow::chooseNewWorkspace);
    create->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    auto* newSearch = file->addAction(QIcon::fromTheme(QStringLiteral("media-playback-start")), tr("New &Search…"), this,
                                      [this] { chooseNewSearch(); });
    newSearch->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    file->addAction(QIcon::fromTheme(QStringLiteral("folder-open")), tr("Open S&uite…"), this, &MainWindow::chooseSuiteToOpen);
    file->addAction(QIcon::fromTheme(QStringLiteral("folder-open")), tr("Open &Model Folder…"), this,
                    &MainWindow::chooseModelToOpen);
    file->addSeparator();
    auto* quit = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* reload = view->addAction(QIcon::fromTheme(QStringLiteral("view-refresh")), tr("&Reload"), this, [this] {
        reloadProblems();
        refreshEvaluations();
    });
    reload->setShortcut(QKeySequence::Refresh);
    connect(reload, &QAction::triggered, this, &MainWindow::refreshSearches);
    view->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>()) view->addAction(dock->toggleViewAction());

    auto* closeTab = view->addAction(tr("&Close Search Tab"), this, [this] {
        if (tabs_->currentIndex() > 0) emit tabs_->tabCloseRequested(tabs_->currentIndex());
    });
    closeTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    auto* nextTab =
        view->addAction(tr("&Next Tab"), this, [this] { tabs_->setCurrentIndex((tabs_->currentIndex() + 1) % tabs_->count()); });
    nextTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
    auto* previousTab = view->addAction(tr("&Previous Tab"), this, [this] {
        tabs_->setCurrentIndex((tabs_->currentIndex() + tabs_->count() - 1) % tabs_->count());
    });
    previousTab->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));

    auto* tools = menuBar()->addMenu(tr("&Tools"));
    auto* knowledge = tools->addAction(QIcon::fromTheme(QStringLiteral("accessories-dictionary")), tr("&Knowledge Base…"), this,
                                       [this] { showKnowledgeBase(); });
    knowledge->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));

    auto* help = menuBar()->addMenu(tr("&Help"));
    auto* keys = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    keys->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&About Kernelwright"), this, [this] {
        QMessageBox::about(this, tr("About Kernelwright"),
                           tr("<h3>Kernelwright %1</h3><p>A workbench for agentic kernel search.</p>")
                               .arg(QCoreApplication::applicationVersion().toHtmlEscaped()));
    });
}

void MainWindow::showShortcuts() {
    // Read from the actions themselves, so the list cannot drift from what the keys do.
    QString rows;
    auto row = [&rows](const QString& keys, const QString& what) {
        rows += QStringLiteral("<tr><td style='padding-right:16px'><b>%1</b></td><td>%2</td></tr>")
                    .arg(keys.toHtmlEscaped(), what.toHtmlEscaped());
    };
    // Every search tab holds the same keys: each listed once.
    QSet<QString> seen;
    for (auto* a : findChildren<QAction*>()) {
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        const QString what = a->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        if (keys.isEmpty() || seen.contains(keys + what)) continue;
        seen.insert(keys + what);
        row(keys, what);
    }
    rows += QStringLiteral("<tr><td colspan=2><br><b>%1</b></td></tr>").arg(tr("In the tree"));
    row(QStringLiteral("↑ ↓ ← →"), tr("parent, first child, neighbours on the same row"));
    row(QStringLiteral("F"), tr("fit the tree into the view"));
    row(QStringLiteral("B"), tr("select the best node"));
    row(QStringLiteral("C"), tr("collapse or expand the selected subtree"));
    row(QStringLiteral("+ −"), tr("zoom in and out (or the wheel)"));
    row(QStringLiteral("Enter"), tr("open the selected node's code"));
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard shortcuts"), QString(), QMessageBox::Close, this);
    box.setObjectName(QStringLiteral("shortcutsBox"));
    box.setText(QStringLiteral("<table>%1</table>").arg(rows));
    box.exec();
}

Status MainWindow::openWorkspace(const QString& path) {
    if (path.isEmpty()) return makeError(ErrorCode::InvalidArgument, "No workspace file was given.");
    auto db = inspect::WorkspaceReader::prepare(std::filesystem::path(path.toStdString()));
    if (!db) return db.error();
    // Tabs of the previous workspace's searches no longer apply; they are
    // remembered for when it opens again.
    saveWorkspaceTabs();
    while (tabs_->count() > 1) {
        QWidget* w = tabs_->widget(1);
        tabs_->removeTab(1);
        delete w;
    }
    workspace_ = std::move(db).value();
    settings::rememberWorkspace(path);
    updateRecentWorkspaces();
    updateWorkspaceLabels();
    refreshEvaluations();
    refreshSearches();
    restoreWorkspaceTabs();
    watchWorkspace(workspace_->path());
    return {};
}

// The other workspaces opened before (the open one is not listed).
void MainWindow::updateRecentWorkspaces() {
    recentWorkspaces_->clear();
    const QString current =
        workspace_ ? QFileInfo(QString::fromStdString(workspace_->path().string())).absoluteFilePath() : QString();
    for (const auto& path : settings::recentWorkspaces()) {
        if (path == current) continue;
        auto* item = new QListWidgetItem(QFileInfo(path).fileName(), recentWorkspaces_);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
    }
    recentLabel_->setVisible(recentWorkspaces_->count() > 0);
    recentWorkspaces_->setVisible(recentWorkspaces_->count() > 0);
}

bool MainWindow::openWorkspaceOrWarn(const QString& path) {
    const auto status = openWorkspace(path);
    if (status) return true;
    QMessageBox box(QMessageBox::Warning, tr("Cannot open workspace"),
                    tr("The workspace %1 could not be opened.").arg(QDir::toNativeSeparators(path)), QMessageBox::Ok, this);
    box.setInformativeText(QString::fromStdString(status.error().message));
    box.exec();
    return false;
}

QString MainWindow::workspacePath() const {
    return workspace_ ? QString::fromStdString(workspace_->path().string()) : QString();
}

void MainWindow::chooseWorkspaceToOpen() {
    const auto start = workspacePath().isEmpty() ? QString() : QFileInfo(workspacePath()).absolutePath();
    const auto path = file_dialogs::openFileName(this, tr("Open Workspace"), start, workspaceFilter());
    if (!path.isEmpty()) openWorkspaceOrWarn(path);
}

void MainWindow::chooseNewWorkspace() {
    const auto start = workspacePath().isEmpty() ? QString() : QFileInfo(workspacePath()).absolutePath();
    // No overwrite prompt: an existing database is never replaced (it holds
    // results), so the dialog must not suggest that it could be.
    auto path =
        file_dialogs::saveFileName(this, tr("New Workspace"), start, workspaceFilter(), QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".db");
    if (QFileInfo::exists(path)) {
        QMessageBox::warning(this, tr("New Workspace"),
                             tr("%1 already exists. Choose another name, or open it with File › Open Workspace.")
                                 .arg(QDir::toNativeSeparators(path)));
        return;
    }
    openWorkspaceOrWarn(path);
}

void MainWindow::reloadProblems() {
    // Keep the selected problem selected across a reload when it still exists;
    // otherwise start on the first valid one, whose details say the most.
    QString selectedId;
    if (const auto current = problemTable_->currentIndex(); current.isValid())
        selectedId = problems_->problemAt(current.row()).id;

    problems_->reload(problemsRoot_);
    fitColumns(problemTable_);

    int row = -1;
    for (int r = 0; r < problems_->rowCount(); ++r)
        if (problems_->problemAt(r).id == selectedId) row = r;
    for (int r = 0; r < problems_->rowCount() && row < 0; ++r)
        if (problems_->problemAt(r).valid()) row = r;
    row = std::max(row, 0);
    if (problems_->rowCount() > 0) {
        selectProblem(row);
    } else {
        details_->setPlaceholderText(tr("No problems found under %1.\nEach problem is a folder holding a problem.json.")
                                         .arg(QDir::toNativeSeparators(QString::fromStdString(problemsRoot_.string()))));
        showCurrentProblem();
    }
    statusBar()->showMessage(tr("%1 problems in %2")
                                 .arg(problems_->rowCount())
                                 .arg(QDir::toNativeSeparators(QString::fromStdString(problemsRoot_.string()))),
                             5000);
}

void MainWindow::refreshEvaluations() {
    if (!workspace_) {
        evaluations_->clear();
    } else if (auto records = workspace_->recentEvaluations(kRecentEvaluations); !records) {
        evaluations_->clear();
        statusBar()->showMessage(tr("Cannot read evaluations: %1").arg(QString::fromStdString(records.error().message)));
    } else {
        std::vector<EvaluationRow> rows;
        rows.reserve(records->size());
        for (const auto& record : *records) rows.push_back(EvaluationRow::fromRecord(record));
        evaluations_->setEvaluations(std::move(rows));
        fitColumns(evaluationTable_);
    }
    evaluationStack_->setCurrentWidget(evaluations_->rowCount() > 0 ? static_cast<QWidget*>(evaluationTable_)
                                                                    : evaluationStack_->widget(0));
}

void MainWindow::selectProblem(int row) {
    const auto index = problems_->index(row, 0);
    if (!index.isValid()) return;
    problemTable_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    problemTable_->scrollTo(index);
}

void MainWindow::showCurrentProblem() {
    const auto current = problemTable_->currentIndex();
    if (current.isValid())
        details_->showProblem(problems_->problemAt(current.row()));
    else
        details_->showProblem(std::nullopt);
}

void MainWindow::updateWorkspaceLabels() {
    if (!workspace_) {
        setWindowTitle(tr("Kernelwright"));
        workspaceLabel_->setText(tr("No workspace open"));
        return;
    }
    const auto path = workspacePath();
    setWindowTitle(tr("Kernelwright — %1").arg(QFileInfo(path).fileName()));
    workspaceLabel_->setText(
        tr("Workspace %1 · schema version %2").arg(QDir::toNativeSeparators(path)).arg(workspace_->schemaVersion()));
}

void MainWindow::restoreWindowState() {
    const auto saved = settings::mainWindowState();
    if (saved.geometry.isEmpty() || !restoreGeometry(saved.geometry)) resize(1280, 800);
    if (!saved.state.isEmpty()) restoreState(saved.state);
    if (saved.splitter.isEmpty() || !splitter_->restoreState(saved.splitter)) splitter_->setSizes({560, 720});
}

void MainWindow::saveWindowState() const {
    settings::setMainWindowState({saveGeometry(), saveState(), splitter_->saveState()});
    if (workspace_) settings::setLastWorkspace(workspacePath());
    saveWorkspaceTabs();
}

void MainWindow::saveWorkspaceTabs() const {
    if (!workspace_) return;
    settings::WorkspaceTabs saved;
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<SearchView*>(tabs_->widget(i))) {
            saved.searches.push_back(v->searchId());
            if (i == tabs_->currentIndex()) saved.current = v->searchId();
        }
    settings::setWorkspaceTabs(workspacePath(), saved);
}

void MainWindow::restoreWorkspaceTabs() {
    const auto saved = settings::workspaceTabs(workspacePath());
    // A search deleted since (or a workspace replaced by another file) is skipped quietly.
    for (qint64 id : saved.searches)
        if (auto record = workspace_->search(id)) openSearch(id);
    tabs_->setCurrentIndex(0);
    for (int i = 1; i < tabs_->count(); ++i)
        if (auto* v = qobject_cast<SearchView*>(tabs_->widget(i)); v && v->searchId() == saved.current) tabs_->setCurrentIndex(i);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowState();
    stopRunningSearches();
    QMainWindow::closeEvent(event);
}

} // namespace kw::ui
