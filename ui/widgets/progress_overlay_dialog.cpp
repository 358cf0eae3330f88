#include "widgets/progress_overlay_dialog.h"

#include "charts/progress_overlay_plot.h"
#include "inspect/workspace_reader.h"

#include <QtCore/QLocale>
#include <QtCore/QPointer>
#include <QtCore/QThread>
#include <QtWidgets/QDialogButtonBox>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {

ProgressOverlayDialog::ProgressOverlayDialog(const std::filesystem::path& database, std::vector<qint64> searchIds,
                                             QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Progress of %n searches", nullptr, static_cast<int>(searchIds.size())));
    auto* column = new QVBoxLayout(this);
    note_ = new QLabel(tr("Reading the searches…"), this);
    note_->setWordWrap(true);
    note_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum); // two lines when it wraps, never clipped
    plot_ = new ProgressOverlayPlot(this);
    table_ = new QTableWidget(0, 4, this);
    table_->setHorizontalHeaderLabels({tr("Search"), tr("Evaluations"), tr("Best"), tr("First at least 1×")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setMaximumHeight(160);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    column->addWidget(note_);
    column->addWidget(plot_, 1);
    column->addWidget(table_);
    column->addWidget(buttons);
    resize(760, 560);

    // A read-only connection of its own, off the UI thread, as every workbench read.
    QPointer<ProgressOverlayDialog> self(this);
    auto* reader = QThread::create([self, database, ids = std::vector<std::int64_t>(searchIds.begin(), searchIds.end())] {
        std::vector<inspect::ProgressCurve> curves;
        QString error;
        auto workspace = inspect::WorkspaceReader::open(database);
        if (!workspace)
            error = QString::fromStdString(workspace.error().message);
        else if (auto read = workspace->progressCurves(ids); !read)
            error = QString::fromStdString(read.error().message);
        else
            curves = std::move(*read);
        QMetaObject::invokeMethod(
            qApp,
            [self, curves = std::move(curves), error] {
                if (self) self->showCurves(curves, error);
            },
            Qt::QueuedConnection);
    });
    connect(reader, &QThread::finished, reader, &QObject::deleteLater);
    reader->start();
}

void ProgressOverlayDialog::showCurves(const std::vector<inspect::ProgressCurve>& curves, const QString& error) {
    if (!error.isEmpty()) {
        note_->setText(tr("The searches could not be read: %1").arg(error));
        emit curvesShown();
        return;
    }
    note_->setText(tr("Best speedup so far against evaluations finished, in the order results came. Only correct, "
                      "timed kernels count; one flagged as implausibly fast does not."));
    plot_->showCurves(curves);
    table_->setRowCount(static_cast<int>(curves.size()));
    const QLocale locale;
    for (int row = 0; row < static_cast<int>(curves.size()); ++row) {
        const auto& c = curves[static_cast<std::size_t>(row)];
        int firstWin = 0;
        for (std::size_t k = 0; k < c.best.size() && !firstWin; ++k)
            if (c.best[k] >= 1) firstWin = c.evals[k];
        const double best = c.best.empty() ? 0 : c.best.back();
        const QString cells[] = {QString::fromStdString(c.name), QString::number(c.evals.size()),
                                 best > 0 ? QStringLiteral("%1×").arg(locale.toString(best, 'f', 2)) : tr("none correct"),
                                 firstWin ? tr("evaluation %1").arg(firstWin) : tr("never")};
        for (int col = 0; col < 4; ++col) table_->setItem(row, col, new QTableWidgetItem(cells[col]));
    }
    table_->resizeColumnsToContents();
    table_->setMaximumHeight(table_->horizontalHeader()->height() + table_->rowHeight(0) * (table_->rowCount() + 1));
    emit curvesShown();
}

} // namespace kw::ui
