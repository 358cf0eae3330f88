#pragma once
// One search, live: the tree canvas, a toolbar (fit, best, find by id,
// filters) and an inspector for the selected node (its summary, code and
// profile). A SearchFollower on its own thread feeds the canvas; a
// DetailLoader on another reads the selected node's details and the LLM
// spend, so the UI thread never waits on the workspace.
#include "search/steering.h"
#include "session/detail_loader.h"
#include "tree/tree_snapshot.h"

#include "inspect/node_details.h" // store::LlmCallRecord, as the workspace reader gives it

#include <QtWidgets/QWidget>

#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QTableView;
class QHBoxLayout;
class QToolButton;
class QDoubleSpinBox;
class QDialog;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTextBrowser;
class QThread;
class QTimer;

namespace kw::ui {

class CodeView;
class NodeCompareDialog;
class RetimeDialog;
class NodeFilterProxy;
class NodeTableModel;
class ParamPlot;
class ProgressPlot;
class SearchFollower;
class RooflinePlot;
class BreakdownPlot;
class TimingPlot;
class TreeCanvas;
class TreeLayout;

class SearchView : public QWidget {
    Q_OBJECT
  public:
    SearchView(std::filesystem::path database, qint64 searchId, QWidget* parent = nullptr);
    ~SearchView() override;

    qint64 searchId() const { return searchId_; }
    // The search's evaluations so far and its budget, as the workspace has
    // them (the main window passes each new reading): shown in the header,
    // and what Budget… starts from.
    void setProgress(qint64 evaluations, qint64 budget);
    qint64 budget() const { return budget_; }
    // The search runs again (resumed): steering opens, the header drops "ended".
    void resumed();
    TreeCanvas* canvas() const { return canvas_; }
    QTabWidget* inspector() const { return inspector_; }

    // Posts a steering command through the same API as the CLI (search/steering.h);
    // false, with the reason shown, when it was refused.
    bool steer(const search::SteeringCommand& command);
    // Any two nodes side by side (the node table's Compare); null when either is unknown.
    NodeCompareDialog* compareNodes(qint64 a, qint64 b);
    // Times the given nodes again alone (the tree's menu, the table's selection); nullptr when none is correct.
    RetimeDialog* retimeAlone(const std::vector<qint64>& nodeIds);
    // The selected node's code and params in an editor, submitted as its manual child (Fork & edit).
    void forkAndEdit();
    // The manual child dialog while it is open (tests answer it), else nullptr.
    QDialog* childDialog() const { return childDialog_; }
    QTableView* nodeTable() const { return nodeTable_; }
    void showTable(); // the Table tab instead of the tree
    // The hint dialog (the node menu's Hint…); a refused hint brings it back
    // with what the user typed and why, until it is sent or cancelled.
    void askHint(qint64 id);

  signals:
    void nodesArrived(int total); // after each batch: the tree's size
    // Budget… on an ended search: go on with this many evaluations in all.
    void resumeRequested(qint64 searchId, qint64 budget);
    // The node menu's "Test Knowledge Retrieval": what this node's next prompt would retrieve.
    void retrievalRequested(qint64 searchId, qint64 nodeId);

  private:
    QHBoxLayout* buildToolbar();
    QToolButton* exportMenuButton();
    void buildInspector();
    void watchSelection();
    void follow();
    void onBatch(const NodeBatch& batch);
    QString bestIntervalText(const TreeLayout& layout) const;
    void showNode(qint64 id);
    // The Node tab's summary from the snapshot and the steering timeline held.
    void showNodeInfo(const NodeSnapshot& node);
    void applyFilter();
    void findNode();
    // A node as the user sees it: "#N", its number in this search.
    QString nodeLabel(qint64 id) const;
    void showDetails(const inspect::NodeDetails& details);
    void showCodeText(); // as it ran, or the template
    QWidget* buildNodeTable();
    void applyTableFilter();
    void refreshNodeTable();
    void refreshShownViews();
    void showEvaluation(const NodeSnapshot& n, const inspect::NodeDetails& details);
    void showLlmCall(const NodeSnapshot& n, const inspect::NodeDetails& details);
    void showProfile(const inspect::NodeDetails& details);
    void showProgress(const SpendTimeline& spend);
    void showSteering(const SteeringTimeline& steering);
    void nodeMenu(qint64 id, QPoint globalPos);
    // Steering applies to a search that has not ended: buttons and node
    // actions are disabled after its end, with why.
    void setSteeringOpen(bool open);
    void askResume();

    void addShortcuts();
    void updateProgress();
    void exportKernel(qint64 nodeId);
    void editChild(qint64 parentId, const QString& source, const QString& name, const QString& introText);

    std::filesystem::path database_;
    qint64 searchId_;
    QThread* thread_ = nullptr;
    SearchFollower* follower_ = nullptr;
    TreeCanvas* canvas_ = nullptr;
    QLabel* summary_ = nullptr;
    QLineEdit* find_ = nullptr;
    QCheckBox* hideFailures_ = nullptr;
    QDoubleSpinBox* minSpeedup_ = nullptr;
    QTabWidget* inspector_ = nullptr;
    QTextBrowser* nodeInfo_ = nullptr;
    CodeView* code_ = nullptr;
    CodeView* diff_ = nullptr;
    QTextBrowser* evaluation_ = nullptr;
    TimingPlot* timing_ = nullptr;
    QWidget* timingBox_ = nullptr;          // the plot and its shape selector
    QComboBox* timingShape_ = nullptr;      // which timing shape the plot shows
    std::vector<eval::TimingCase> timings_; // the shown node's, one per timing shape
    ProgressPlot* progress_ = nullptr;
    QLabel* progressText_ = nullptr;
    QTimer* progressTimer_ = nullptr;
    QTextBrowser* profile_ = nullptr;
    RooflinePlot* roofline_ = nullptr;
    BreakdownPlot* breakdown_ = nullptr;
    QTextBrowser* llm_ = nullptr;
    QTextBrowser* steering_ = nullptr; // who steered the search, how and when
    QDialog* childDialog_ = nullptr;
    SteeringTimeline steeringEntries_; // the last timeline read, for the Node tab's "steered" rows
    DetailLoader* loader_ = nullptr;
    QString ended_;
    qint64 evaluations_ = 0, budget_ = 0;
    QCheckBox* showTemplate_ = nullptr;
    QString templateSource_, asRunSource_, codeName_; // the selected node's code
    std::optional<store::LlmCallRecord> llmCall_;     // the selected node's call, for folding its prompt
    std::vector<store::RetrievedDoc> llmDocs_;
    std::set<int> llmExpanded_;
    QTabWidget* views_ = nullptr; // Tree | Table
    ParamPlot* params_ = nullptr;
    NodeTableModel* nodeModel_ = nullptr;
    NodeFilterProxy* nodeProxy_ = nullptr;
    QTableView* nodeTable_ = nullptr;
    QComboBox* tableStatus_ = nullptr;
    QLineEdit* tableText_ = nullptr;
    QToolButton* retime_ = nullptr;
    QToolButton* compare_ = nullptr;
    QString lastRefusal_;                       // why the last steering command was refused
    std::vector<QToolButton*> steeringButtons_; // pause, resume, stop, budget
};

} // namespace kw::ui
