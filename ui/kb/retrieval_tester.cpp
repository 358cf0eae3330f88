#include "kb/retrieval_tester.h"

#include "kb/node_query.h"
#include "store/search_store.h"

#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

#include <algorithm>

namespace kw::ui {
namespace {

enum Column { Rank, Document, Section, Score, Triggers, Why, ColumnCount };

QString joined(const std::vector<std::string>& list) {
    QStringList out;
    for (const auto& x : list) out << QString::fromStdString(x);
    return out.join(QStringLiteral(", "));
}

} // namespace

RetrievalTester::RetrievalTester(const kb::KbIndex& index, const store::Database& workspace, QWidget* parent)
    : QWidget(parent), index_(index), workspace_(workspace) {
    auto* layout = new QVBoxLayout(this);
    auto* top = new QHBoxLayout;
    auto* form = new QFormLayout;
    // A node of a search: the query its next LLM expansion would make.
    auto* fromNode = new QHBoxLayout;
    search_ = new QComboBox(this);
    search_->setObjectName(QStringLiteral("retrievalSearch"));
    node_ = new QSpinBox(this);
    node_->setObjectName(QStringLiteral("retrievalNode"));
    node_->setRange(1, 1 << 30);
    node_->setPrefix(tr("node #"));
    auto* useNodeButton = new QPushButton(tr("&Use Node"), this);
    useNodeButton->setToolTip(tr(
        "The problem's words, the node's status and stored diagnosis, and this host's platform: what its next prompt retrieves"));
    fromNode->addWidget(search_, 1);
    fromNode->addWidget(node_);
    fromNode->addWidget(useNodeButton);
    auto* fromLabel = new QLabel(tr("&From"), this);
    fromLabel->setBuddy(search_);
    form->addRow(fromLabel, fromNode);
    updateSearches();
    text_ = new QLineEdit(this);
    text_->setObjectName(QStringLiteral("retrievalQuery"));
    text_->setPlaceholderText(tr("the problem's words or a question, e.g. row softmax, exp dominates"));
    form->addRow(tr("&Query"), text_);
    platform_ = new QComboBox(this);
    platform_->setObjectName(QStringLiteral("retrievalPlatform"));
    updatePlatforms();
    form->addRow(tr("&Platform"), platform_);
    limit_ = new QSpinBox(this);
    limit_->setRange(1, 50);
    limit_->setValue(8);
    form->addRow(tr("&Documents"), limit_);
    pending_ = new QCheckBox(tr("include skills waiting for review"), this);
    form->addRow(QString(), pending_);
    auto* runButton = new QPushButton(tr("&Retrieve"), this);
    runButton->setDefault(true);
    form->addRow(QString(), runButton);
    top->addLayout(form, 3);
    signals_ = new QListWidget(this);
    signals_->setObjectName(QStringLiteral("retrievalSignals"));
    signals_->setToolTip(tr("The node's signals: its status and the profiler's diagnosis"));
    for (const auto& s : kb::knownSignals()) {
        auto* item = new QListWidgetItem(QString::fromStdString(s), signals_);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    signals_->setMaximumHeight(170);
    auto* signalBox = new QVBoxLayout;
    signalBox->addWidget(new QLabel(tr("Signals"), this));
    signalBox->addWidget(signals_);
    top->addLayout(signalBox, 2);
    layout->addLayout(top);

    results_ = new QTableWidget(0, ColumnCount, this);
    results_->setObjectName(QStringLiteral("retrievalResults"));
    results_->setHorizontalHeaderLabels({tr("#"), tr("Document"), tr("Section"), tr("Score"), tr("Triggers matched"), tr("Why")});
    results_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    results_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_->verticalHeader()->hide();
    results_->horizontalHeader()->setSectionResizeMode(Why, QHeaderView::Stretch);
    layout->addWidget(results_, 1);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    layout->addWidget(message_);

    connect(runButton, &QPushButton::clicked, this, &RetrievalTester::run);
    connect(useNodeButton, &QPushButton::clicked, this, [this] {
        if (search_->currentIndex() < 0) {
            message_->setText(tr("No search in this workspace yet: start one, or type a query."));
            return;
        }
        const qint64 searchId = search_->currentData().toLongLong();
        auto id = store::SearchStore(workspace_).nodeIdOfNumber(searchId, node_->value());
        if (!id) {
            message_->setText(QString::fromStdString(id.error().message));
            return;
        }
        if (auto used = useNode(searchId, *id); !used) message_->setText(QString::fromStdString(used.error().message));
    });
    connect(text_, &QLineEdit::returnPressed, this, &RetrievalTester::run);
    connect(results_, &QTableWidget::cellDoubleClicked, this,
            [this](int row, int) { emit openDocument(results_->item(row, Document)->data(Qt::UserRole).toString()); });
}

void RetrievalTester::updatePlatforms() {
    const QString keep = platform_->currentData().toString();
    platform_->clear();
    platform_->addItem(tr("any platform"), QString());
    for (const auto& p : kb::knownPlatforms())
        if (p != "any") platform_->addItem(QString::fromStdString(p), QString::fromStdString(p));
    platform_->setCurrentIndex(std::max(0, platform_->findData(keep)));
}

void RetrievalTester::updateSearches() {
    const QVariant keep = search_->currentData();
    search_->clear();
    auto searches = store::SearchStore(workspace_).listSearches();
    if (!searches) return;
    for (const auto& s : *searches)
        search_->addItem(tr("search %1 · %2").arg(s.id).arg(QString::fromStdString(s.problem)),
                         QVariant::fromValue<qlonglong>(s.id));
    const int at = search_->findData(keep);
    search_->setCurrentIndex(at >= 0 ? at : search_->count() - 1);
}

Status RetrievalTester::useNode(qint64 searchId, qint64 nodeId) {
    auto q = kb::retrievalQueryForNode(workspace_, searchId, nodeId);
    if (!q) return q.error();
    QStringList names;
    for (const auto& s : q->diagnosis) names << QString::fromStdString(s);
    setQuery(QString::fromStdString(q->text), names, QString::fromStdString(q->platform));
    if (search_->findData(QVariant::fromValue<qlonglong>(searchId)) < 0) updateSearches();
    search_->setCurrentIndex(std::max(0, search_->findData(QVariant::fromValue<qlonglong>(searchId))));
    // People see a node's number in its search, never the workspace's id.
    auto record = store::SearchStore(workspace_).loadNodesById(searchId, {nodeId});
    const qint64 number = record && !record->empty() ? record->front().seq : 0;
    node_->setValue(static_cast<int>(number));
    run();
    message_->setText(tr("Node #%1 of search %2 (signals: %3). %4")
                          .arg(number)
                          .arg(searchId)
                          .arg(names.isEmpty() ? tr("none") : names.join(QStringLiteral(", ")), message_->text()));
    return {};
}

void RetrievalTester::setQuery(const QString& text, const QStringList& signalNames, const QString& platform) {
    text_->setText(text);
    text_->setCursorPosition(0); // a problem's description is long: show its start
    for (int i = 0; i < signals_->count(); ++i)
        signals_->item(i)->setCheckState(signalNames.contains(signals_->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    // A node's status (ok, wrong_answer, ...) is a signal too, though no list names it: it joins the list, checked.
    for (const auto& name : signalNames)
        if (signals_->findItems(name, Qt::MatchExactly).isEmpty()) {
            auto* item = new QListWidgetItem(name, signals_);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
    const int p = platform_->findData(platform);
    platform_->setCurrentIndex(p >= 0 ? p : 0);
}

kb::RetrievalQuery RetrievalTester::query() const {
    kb::RetrievalQuery q;
    q.text = text_->text().toStdString();
    for (int i = 0; i < signals_->count(); ++i)
        if (signals_->item(i)->checkState() == Qt::Checked) q.diagnosis.push_back(signals_->item(i)->text().toStdString());
    q.platform = platform_->currentData().toString().toStdString();
    q.limit = limit_->value();
    q.includePending = pending_->isChecked();
    return q;
}

void RetrievalTester::run() {
    const auto q = query();
    auto hits = index_.search(q);
    results_->setRowCount(0);
    if (!hits) {
        message_->setText(QString::fromStdString(hits.error().message));
        return;
    }
    results_->setRowCount(static_cast<int>(hits->size()));
    for (int row = 0; row < static_cast<int>(hits->size()); ++row) {
        const auto& h = (*hits)[static_cast<std::size_t>(row)];
        auto cell = [&](Column c, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            results_->setItem(row, c, item);
            return item;
        };
        cell(Rank, QString::number(row + 1));
        auto* doc = cell(Document, QString::fromStdString(h.docId));
        doc->setData(Qt::UserRole, QString::fromStdString(h.docId));
        doc->setToolTip(QStringLiteral("%1\n%2").arg(QString::fromStdString(h.title), QString::fromStdString(h.path)));
        cell(Section, QString::fromStdString(h.heading))->setToolTip(QString::fromStdString(h.text).left(800));
        cell(Score, QString::number(h.score, 'f', 2))->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        cell(Triggers, joined(h.matchedTriggers));
        cell(Why, QString::fromStdString(h.reason));
    }
    results_->resizeColumnsToContents();
    // Long ids and headings must not push the score and the reason out of view.
    for (Column c : {Document, Section}) results_->setColumnWidth(c, std::min(results_->columnWidth(c), 300));
    results_->horizontalHeader()->setSectionResizeMode(Why, QHeaderView::Stretch);
    message_->setText(hits->empty()
                          ? tr("Nothing matched: try other words, fewer filters, or signals the documents list as triggers.")
                          : tr("%n document(s); double-click one to open it.", nullptr, static_cast<int>(hits->size())));
}

} // namespace kw::ui
