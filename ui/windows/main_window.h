#pragma once
// The first workbench window: a workspace (one SQLite database) is open, the
// bundled problems are listed with their details, and the workspace's newest
// evaluations are shown below. Searches and the live tree come later.
#include "store/database.h"
#include "util/result.h"

#include <QtWidgets/QMainWindow>

#include <filesystem>
#include <optional>

class QLabel;
class QSplitter;
class QStackedWidget;
class QTableView;

namespace ks::ui {

class EvaluationListModel;
class ProblemDetailsView;
class ProblemListModel;

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
    void selectProblem(int row);

    ProblemListModel* problemModel() const { return problems_; }
    EvaluationListModel* evaluationModel() const { return evaluations_; }
    ProblemDetailsView* detailsView() const { return details_; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    QWidget* createProblemPanel();
    void createEvaluationsDock();
    void chooseWorkspaceToOpen();
    void chooseNewWorkspace();
    void showCurrentProblem();
    void updateWorkspaceLabels();
    void restoreWindowState();
    void saveWindowState() const;

    std::filesystem::path problemsRoot_;
    std::optional<store::Database> workspace_;

    ProblemListModel* problems_ = nullptr;
    EvaluationListModel* evaluations_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QTableView* problemTable_ = nullptr;
    ProblemDetailsView* details_ = nullptr;
    QStackedWidget* evaluationStack_ = nullptr; // the table, or a hint while there is nothing to show
    QTableView* evaluationTable_ = nullptr;
    QLabel* workspaceLabel_ = nullptr;
};

} // namespace ks::ui
