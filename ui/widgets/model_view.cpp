#include "widgets/model_view.h"

#include "charts/model_regions_plot.h"

#include "util/format.h"

#include <QtCore/QLocale>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {
namespace {

enum RegionColumn { Region, Kind, Share, Problem, From, Search, InModel, RegionColumns };
enum AbColumn { Variant, Median, Speedup, Interval, Over, AbColumns };

QString seconds(double s) {
    return QString::fromStdString(formatSeconds(s));
}

QString times(double x) {
    return QStringLiteral("%1x").arg(QLocale().toString(x, 'f', 2));
}

QTableWidget* table(const QStringList& headers, QWidget* parent) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setStretchLastSection(true);
    return t;
}

void put(QTableWidget* t, int row, int column, const QString& text, const QString& tip = {}) {
    auto* item = new QTableWidgetItem(text);
    if (!tip.isEmpty()) item->setToolTip(tip);
    t->setItem(row, column, item);
}

} // namespace

ModelView::ModelView(model::ModelFolder folder, QWidget* parent) : QWidget(parent), folder_(std::move(folder)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* reloadButton = new QPushButton(tr("Reload"), this);
    reloadButton->setToolTip(tr("Read the folder again: kernelwright-cli model search, apply and ab write into it"));
    bar->addWidget(title_, 1);
    bar->addWidget(reloadButton);
    layout->addLayout(bar);
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("modelSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    auto* split = new QSplitter(Qt::Vertical, this);
    regions_ = table({tr("Region"), tr("Kind"), tr("Share"), tr("Problem"), tr("From"), tr("Search"), tr("In the model")}, split);
    regions_->setObjectName(QStringLiteral("modelRegions"));
    auto* lower = new QSplitter(Qt::Horizontal, split);
    plot_ = new ModelRegionsPlot(lower);
    plot_->setObjectName(QStringLiteral("modelRegionsPlot"));
    ab_ = table({tr("Variant"), tr("Median step"), tr("Speedup"), tr("95 % interval"), tr("Over")}, lower);
    ab_->setObjectName(QStringLiteral("modelAb"));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(reloadButton, &QPushButton::clicked, this, &ModelView::reload);
    connect(regions_, &QTableWidget::cellActivated, this, [this](int row, int) {
        const auto problem = regions_->item(row, Problem) ? regions_->item(row, Problem)->text() : QString();
        if (problem.isEmpty() || problem == QStringLiteral("-")) return;
        emit problemActivated(problem, regions_->item(row, Region)->data(Qt::UserRole).toLongLong());
    });
    fill();
}

void ModelView::reload() {
    auto again = model::readModelFolder(folder_.dir);
    if (!again) {
        summary_->setText(tr("Cannot read %1: %2")
                              .arg(QString::fromStdString(folder_.dir.string()), QString::fromStdString(again.error().message))
                              .toHtmlEscaped());
        return;
    }
    folder_ = std::move(*again);
    fill();
}

QString ModelView::summary() const {
    return summary_->text();
}

void ModelView::fill() {
    const auto& e = folder_.extract;
    title_->setText(tr("<b>Model %1</b> · a step takes %2 on the %3 · %4")
                        .arg(QString::fromStdString(e.modelName).toHtmlEscaped(), seconds(e.stepSeconds),
                             e.device == "cuda" ? tr("GPU") : tr("CPU"),
                             QString::fromStdString(folder_.dir.string()).toHtmlEscaped()));
    std::map<std::string, const suite::Entry*> searched;
    for (const auto& s : folder_.searched) searched[s.problem] = &s;
    std::map<std::string, const model::RegionCheck*> checks;
    if (folder_.applied)
        for (const auto& c : folder_.applied->regions) checks[c.region] = &c;

    regions_->setRowCount(static_cast<int>(e.regions.size()));
    int swapped = 0, matched = 0;
    for (int i = 0; i < static_cast<int>(e.regions.size()); ++i) {
        const auto& r = e.regions[static_cast<std::size_t>(i)];
        put(regions_, i, Region, QString::fromStdString(r.name));
        put(regions_, i, Kind, QString::fromStdString(r.kind));
        put(regions_, i, Share, QStringLiteral("%1%").arg(QLocale().toString(100 * r.share, 'f', 1)), seconds(r.seconds));
        put(regions_, i, Problem, r.problem.empty() ? QStringLiteral("-") : QString::fromStdString(r.problem));
        matched += !r.matched.empty();
        put(regions_, i, From,
            !r.skipped.empty()  ? tr("skipped")
            : r.matched.empty() ? tr("its own problem")
                                : tr("%1 (by behaviour)").arg(QString::fromStdString(r.matched)),
            QString::fromStdString(r.skipped));
        qint64 searchId = 0;
        if (auto it = searched.find(r.problem); it != searched.end()) {
            const auto& s = *it->second;
            searchId = s.searchId;
            put(regions_, i, Search,
                s.speedup ? tr("%1 · %2 alone").arg(QString::number(s.searchId), times(*s.speedup))
                          : tr("%1 · %2").arg(QString::number(s.searchId), QString::fromStdString(s.status)),
                QString::fromStdString(s.message));
        } else {
            put(regions_, i, Search, r.problem.empty() ? QStringLiteral("-") : tr("not searched"));
        }
        regions_->item(i, Region)->setData(Qt::UserRole, searchId);
        if (auto it = checks.find(r.name); it != checks.end()) {
            const auto& c = *it->second;
            swapped += c.swapped && c.ok;
            put(regions_, i, InModel,
                !c.swapped ? tr("kept")
                : c.ok     ? tr("swapped, output checked")
                           : tr("WRONG: %1").arg(QString::fromStdString(c.why)),
                QString::fromStdString(c.why));
        } else {
            put(regions_, i, InModel, r.problem.empty() ? QStringLiteral("-") : folder_.applied ? tr("kept") : tr("not applied"));
        }
    }
    regions_->resizeColumnsToContents();

    ab_->setRowCount(0);
    QString abLine = tr("Not timed A/B yet (kernelwright-cli model ab %1).").arg(QString::fromStdString(folder_.dir.string()));
    if (folder_.ab) {
        const auto& a = *folder_.ab;
        ab_->setRowCount(static_cast<int>(a.rows.size()));
        for (int i = 0; i < static_cast<int>(a.rows.size()); ++i) {
            const auto& row = a.rows[static_cast<std::size_t>(i)];
            put(ab_, i, Variant, QString::fromStdString(row.variant));
            put(ab_, i, Median, seconds(row.medianSeconds));
            put(ab_, i, Speedup, times(row.speedup));
            put(ab_, i, Interval, QStringLiteral("%1-%2").arg(row.low, 0, 'f', 3).arg(row.high, 0, 'f', 3));
            put(ab_, i, Over,
                row.slowerInModel ? tr("%1 · slower in the model, though %2 alone")
                                        .arg(QString::fromStdString(row.over), times(*row.kernelSpeedup))
                                  : QString::fromStdString(row.over));
            if (row.variant == "swapped")
                abLine = tr("End to end: <b>%1</b> over eager (95 % interval %2-%3, %4 rounds)")
                             .arg(times(row.speedup))
                             .arg(row.low, 0, 'f', 2)
                             .arg(row.high, 0, 'f', 2)
                             .arg(a.rounds);
            if (row.variant == "swapped vs compile")
                abLine += tr(", %1 over torch.compile (%2-%3)")
                              .arg(times(row.speedup))
                              .arg(row.low, 0, 'f', 2)
                              .arg(row.high, 0, 'f', 2);
        }
        ab_->resizeColumnsToContents();
    }
    QString check;
    if (folder_.applied)
        check = folder_.applied->modelOk ? tr("; the swapped model's output matches the original's")
                                         : tr("; the swapped model's output DIFFERS: %1")
                                               .arg(QString::fromStdString(folder_.applied->modelWhy).toHtmlEscaped());
    summary_->setText(tr("%1 regions, %2 matched to bundled problems by behaviour, %3 swapped%4. %5")
                          .arg(e.regions.size())
                          .arg(matched)
                          .arg(swapped)
                          .arg(check, abLine));
    plot_->showFolder(folder_);
}

} // namespace kw::ui
