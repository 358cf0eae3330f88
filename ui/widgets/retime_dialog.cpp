#include "widgets/retime_dialog.h"

#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtGui/QCloseEvent>
#include <QtWidgets/QApplication>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {
namespace {

QString speedText(double speedup, std::pair<double, double> interval) {
    if (speedup <= 0) return QStringLiteral("–");
    QString text = QStringLiteral("%1×").arg(speedup, 0, 'g', 4);
    if (interval.first > 0) text += QStringLiteral(" (%1–%2)").arg(interval.first, 0, 'f', 2).arg(interval.second, 0, 'f', 2);
    return text;
}

} // namespace

RetimeDialog::RetimeDialog(const std::filesystem::path& database, qint64 searchId, std::vector<std::pair<qint64, qint64>> nodes,
                           double timeBudgetS, QWidget* parent)
    : QDialog(parent), total_(static_cast<int>(nodes.size())) {
    setWindowTitle(tr("Re-time alone"));
    auto* column = new QVBoxLayout(this);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("retimeStatus"));
    status_->setWordWrap(true);
    status_->setText(
        tr("Timing %n node(s) again, one after another on this machine, %1 s a shape, with no cached result…", nullptr, total_)
            .arg(timeBudgetS, 0, 'g', 3));
    table_ = new QTableWidget(total_, 4, this);
    table_->setHorizontalHeaderLabels({tr("Node"), tr("In the search (95 %)"), tr("Alone (95 %)"), tr("Verdict")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < total_; ++r) {
        table_->setItem(r, 0, new QTableWidgetItem(QStringLiteral("#%1").arg(nodes[static_cast<std::size_t>(r)].second)));
        table_->setItem(r, 3, new QTableWidgetItem(tr("waiting")));
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
    column->addWidget(status_);
    column->addWidget(table_, 1);
    column->addWidget(buttons);
    resize(640, 160 + 28 * std::min(total_, 10));

    search::RetimeRequest request;
    request.database = database;
    request.searchId = searchId;
    request.timeBudgetS = timeBudgetS;
    for (const auto& [id, seq] : nodes) request.nodeIds.push_back(id);
    QPointer<RetimeDialog> self(this);
    worker_ = QThread::create([self, request, token = stop_.get_token()] {
        auto done = search::retimeNodes(
            request,
            [self](const search::RetimeRow& row) {
                QMetaObject::invokeMethod(
                    qApp,
                    [self, row] {
                        if (self) self->showRow(row);
                    },
                    Qt::QueuedConnection);
            },
            token);
        const QString error = done ? QString() : QString::fromStdString(done.error().message);
        QMetaObject::invokeMethod(
            qApp,
            [self, error] {
                if (self) self->showEnd(error);
            },
            Qt::QueuedConnection);
    });
    worker_->setParent(this);
    worker_->start();
}

RetimeDialog::~RetimeDialog() {
    // The job being timed finishes first: its thread cannot be cut off mid-evaluation.
    stop_.request_stop();
    if (worker_) worker_->wait();
}

void RetimeDialog::closeEvent(QCloseEvent* event) {
    stop_.request_stop();
    if (worker_ && worker_->isRunning()) status_->setText(tr("Stopping after the node being timed…"));
    QDialog::closeEvent(event);
}

void RetimeDialog::showRow(const search::RetimeRow& row) {
    const int r = static_cast<int>(rows_.size());
    rows_.push_back(row);
    if (r >= total_) return;
    table_->setItem(r, 1, new QTableWidgetItem(speedText(row.inSearch, row.inSearchInterval)));
    table_->setItem(r, 2, new QTableWidgetItem(speedText(row.alone, row.aloneInterval)));
    QString verdict = QString::fromStdString(row.status);
    if (!row.message.empty()) verdict += QStringLiteral(": ") + QString::fromStdString(row.message);
    // Where the search's number is outside the interval measured alone, it was the moment's, not the kernel's.
    if (row.alone > 0 && row.aloneInterval.first > 0 &&
        (row.inSearch < row.aloneInterval.first || row.inSearch > row.aloneInterval.second))
        verdict += tr(" · the search's %1× is outside this interval").arg(row.inSearch, 0, 'g', 3);
    table_->setItem(r, 3, new QTableWidgetItem(verdict));
    table_->resizeColumnsToContents();
    status_->setText(tr("%1 of %2 timed again").arg(r + 1).arg(total_));
    emit rowTimed(r);
}

void RetimeDialog::showEnd(const QString& error) {
    if (!error.isEmpty())
        status_->setText(tr("Could not time the nodes again: %1").arg(error));
    else if (static_cast<int>(rows_.size()) < total_)
        status_->setText(tr("Stopped: %1 of %2 timed again").arg(rows_.size()).arg(total_));
    else
        status_->setText(tr("All %n node(s) timed again alone.", nullptr, total_));
    emit allTimed();
}

} // namespace kw::ui
