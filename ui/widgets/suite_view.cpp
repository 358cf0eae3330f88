#include "widgets/suite_view.h"

#include "models/suite_table_model.h"

#include <QtCore/QLocale>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QHeaderView>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {
namespace {

QString percent(double share) {
    return QStringLiteral("%1%").arg(QLocale().toString(100 * share, 'f', 1));
}

// fast_p in one line: "fast_1 60.0% · fast_1.5 40.0% · fast_2 20.0%".
QString fastLine(const std::map<double, double>& f) {
    QStringList parts;
    for (const auto& [p, v] : f)
        if (p > 0) parts << QStringLiteral("fast_%1 %2").arg(p).arg(percent(v));
    return parts.join(QStringLiteral(" · "));
}

} // namespace

SuiteView::SuiteView(suite::Suite s, QWidget* parent) : QWidget(parent), suite_(std::move(s)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    auto* title = new QLabel(tr("<b>Suite %1</b> · %2 problems · %3")
                                 .arg(QString::fromStdString(suite_.name).toHtmlEscaped())
                                 .arg(suite_.problems.size())
                                 .arg(QString::fromStdString(suite_.dir.string()).toHtmlEscaped()),
                             this);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    modeBox_ = new QComboBox(this);
    modeBox_->setObjectName(QStringLiteral("suiteMode"));
    for (auto m : {suite::Mode::Reference, suite::Mode::Seeds, suite::Mode::Search})
        modeBox_->addItem(QString::fromStdString(suite::modeName(m)), static_cast<int>(m));
    modeBox_->setToolTip(tr("Which run to show: kernelwright-cli suite run SUITE --mode MODE writes it"));
    auto* reloadButton = new QPushButton(tr("Reload"), this);
    bar->addWidget(title, 1);
    bar->addWidget(new QLabel(tr("Run:"), this));
    bar->addWidget(modeBox_);
    bar->addWidget(reloadButton);
    layout->addLayout(bar);

    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("suiteSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);

    // A level of KernelBench is 50-100 rows: a name filter, and the rows that
    // need a look (failures, a reference off itself) on their own.
    auto* filterBar = new QHBoxLayout;
    filterEdit_ = new QLineEdit(this);
    filterEdit_->setObjectName(QStringLiteral("suiteFilter"));
    filterEdit_->setPlaceholderText(tr("Filter problems by name"));
    filterEdit_->setClearButtonEnabled(true);
    toLookBox_ = new QCheckBox(tr("Only failures and outliers"), this);
    toLookBox_->setObjectName(QStringLiteral("suiteOnlyToLook"));
    toLookBox_->setToolTip(tr("Problems that failed, and in reference mode those whose reference read more than 3 % "
                              "off itself"));
    shownLabel_ = new QLabel(this);
    shownLabel_->setObjectName(QStringLiteral("suiteShown"));
    filterBar->addWidget(filterEdit_, 1);
    filterBar->addWidget(toLookBox_);
    filterBar->addWidget(shownLabel_);
    layout->addLayout(filterBar);

    model_ = new SuiteTableModel(this);
    proxy_ = new SuiteFilterProxy(this);
    proxy_->setSourceModel(model_);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("suiteTable"));
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(SuiteTableModel::Problem, Qt::AscendingOrder); // kb_1, kb_2, ... kb_100
    table_->setTextElideMode(Qt::ElideMiddle);                          // long names keep their number and their end
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setAlternatingRowColors(true);
    table_->setToolTip(tr("Double-click a problem to open its search"));
    layout->addWidget(table_, 1);

    connect(modeBox_, &QComboBox::currentIndexChanged, this,
            [this](int) { showMode(static_cast<suite::Mode>(modeBox_->currentData().toInt())); });
    connect(reloadButton, &QPushButton::clicked, this, &SuiteView::reload);
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        const QModelIndex source = proxy_->mapToSource(index);
        if (!source.isValid()) return;
        const auto& row = model_->rowAt(source.row());
        emit problemActivated(row.problem, row.searchId);
    });
    const auto refilter = [this] {
        proxy_->setSuiteFilter({filterEdit_->text().trimmed(), toLookBox_->isChecked()});
        showCount();
    };
    connect(filterEdit_, &QLineEdit::textChanged, this, refilter);
    connect(toLookBox_, &QCheckBox::toggled, this, refilter);
    // The mode with the most results first: what was run is what one wants to see.
    suite::Mode best = suite::Mode::Reference;
    std::size_t most = 0;
    for (auto m : {suite::Mode::Reference, suite::Mode::Seeds, suite::Mode::Search})
        if (const auto n = suite::readRun(suite::runFile(suite_, m)).size(); n > most) {
            most = n;
            best = m;
        }
    showMode(best);
}

void SuiteView::showMode(suite::Mode mode) {
    mode_ = mode;
    const int index = modeBox_->findData(static_cast<int>(mode));
    if (index >= 0 && index != modeBox_->currentIndex()) {
        modeBox_->setCurrentIndex(index); // comes back here through the signal
        return;
    }
    reload();
}

QString SuiteView::notImported() const {
    if (suite_.notImported.empty()) return {};
    QStringList files;
    for (const auto& f : suite_.notImported) files << QString::fromStdString(f.substr(0, f.find(':')));
    return QStringLiteral("<br>") +
           tr("not imported from the folder: %1 (suite.json says why)").arg(files.join(QStringLiteral(", ")).toHtmlEscaped());
}

void SuiteView::reload() {
    const auto entries = suite::readRun(suite::runFile(suite_, mode_));
    model_->setReferenceMode(mode_ == suite::Mode::Reference);
    model_->setRows(suiteRows(suite_, entries));
    table_->resizeColumnsToContents();
    // KernelBench's names run to 90 characters: the name column starts at 48
    // at most, so the numbers beside it stay in view; a longer name is elided
    // in its middle (whole in its tool tip) and the column can be dragged wider.
    const int widest = 48 * table_->fontMetrics().averageCharWidth();
    if (table_->columnWidth(SuiteTableModel::Problem) > widest) table_->setColumnWidth(SuiteTableModel::Problem, widest);
    showCount();
    if (entries.empty()) {
        summary_->setText(tr("Nothing has run in this mode yet: kernelwright-cli suite run %1 --mode %2")
                              .arg(QString::fromStdString(suite_.dir.string()), QString::fromStdString(suite::modeName(mode_))) +
                          notImported());
        return;
    }
    const auto m = suite::metricsOf(entries);
    QString text = tr("%1 of %2 run · %3 correct (%4)")
                       .arg(m.problems)
                       .arg(suite_.problems.size())
                       .arg(m.correct)
                       .arg(percent(m.problems ? static_cast<double>(m.correct) / m.problems : 0));
    text += QStringLiteral("<br>") + tr("over eager: %1").arg(fastLine(m.fastEager));
    if (m.geomeanEager) text += tr(" · geomean %1×").arg(QLocale().toString(*m.geomeanEager, 'f', 3));
    if (m.withCompile) {
        text += QStringLiteral("<br>") + tr("over torch.compile: %1").arg(fastLine(m.fastCompile));
        if (m.geomeanCompile) text += tr(" · geomean %1×").arg(QLocale().toString(*m.geomeanCompile, 'f', 3));
    }
    const auto self = suite::selfAgreementOf(entries);
    if (mode_ == suite::Mode::Reference && self.timed)
        text += QStringLiteral("<br>") +
                tr("the reference against itself: %1 of %2 within 1.00 ± 0.03 · furthest %3 at %4×")
                    .arg(self.within3)
                    .arg(self.timed)
                    .arg(QString::fromStdString(self.worstProblem).toHtmlEscaped(), QLocale().toString(self.worst, 'f', 3)) +
                (self.withInterval
                     ? tr(" · its 95% interval holds 1.00 for %1 of %2").arg(self.intervalHoldsOne).arg(self.withInterval)
                     : QString());
    QStringList failures;
    for (const auto& [status, list] : m.failures)
        failures << QStringLiteral("%1 %2").arg(list.size()).arg(QString::fromStdString(status));
    if (!failures.isEmpty()) text += QStringLiteral("<br>") + tr("failures: %1").arg(failures.join(QStringLiteral(", ")));
    summary_->setText(text + notImported());
}

void SuiteView::showCount() {
    shownLabel_->setText(tr("%1 of %2 shown").arg(proxy_->rowCount()).arg(model_->rowCount()));
}

} // namespace kw::ui
