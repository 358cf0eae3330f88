#include "models/problem_list_model.h"

#include "problem/problem_loader.h"

#include <QtCore/QThread>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

#include <limits>

namespace kw::ui {
namespace {

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

ProblemRow loadRow(const std::filesystem::path& root, const std::filesystem::path& dir) {
    ProblemRow row;
    row.id = QString::fromStdString(std::filesystem::relative(dir, root).generic_string());
    row.dir = QString::fromStdString(dir.string());
    auto spec = problem::loadProblem(dir);
    if (!spec) {
        row.error = QString::fromStdString(spec.error().message);
        return row;
    }
    for (const auto& seed : spec->seeds) row.configurations = saturatingAdd(row.configurations, seed.params.size());
    row.spec = std::make_shared<const problem::ProblemSpec>(std::move(spec).value());
    return row;
}

} // namespace

QString ProblemRow::errorWithoutDir() const {
    auto text = error;
    return text.replace(dir + QLatin1Char('/'), QString());
}

ProblemListModel::ProblemListModel(QObject* parent)
    : RowTableModel({tr("Name"), tr("Status"), tr("Backend"), tr("Seeds"), tr("Configurations"), tr("Title")}, parent) {}

std::vector<ProblemRow> ProblemListModel::loadRows(const std::filesystem::path& root) {
    std::vector<ProblemRow> rows;
    for (const auto& dir : problem::findProblemDirs(root)) rows.push_back(loadRow(root, dir));
    return rows;
}

void ProblemListModel::reload(const std::filesystem::path& root) {
    auto rows = loadRows(root);
    root_ = root;
    setRows(std::move(rows));
}

QVariant ProblemListModel::display(const ProblemRow& row, int column) const {
    switch (column) {
    case Name:
        return row.valid() ? QString::fromStdString(row.spec->name) : row.id;
    case Status:
        return row.valid() ? tr("ok") : tr("invalid");
    case Backend:
        return row.valid() ? QString::fromUtf8(problem::backendName(row.spec->backend)) : QString();
    case Seeds:
        return row.valid() ? QVariant(static_cast<qulonglong>(row.spec->seeds.size())) : QVariant();
    case Configurations:
        return row.valid() ? QVariant(static_cast<qulonglong>(row.configurations)) : QVariant();
    case Title: {
        if (row.valid()) return QString::fromStdString(row.spec->title);
        return row.errorWithoutDir().section(QLatin1Char('\n'), 0, 0); // the first problem the loader found
    }
    default:
        return {};
    }
}

QVariant ProblemListModel::cell(const ProblemRow& row, int column, int role) const {
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case Qt::ToolTipRole:
        if (!row.valid()) return tr("%1: invalid problem\n%2").arg(row.dir, row.error);
        return row.dir;
    case Qt::DecorationRole:
        // The style's own icon, so it matches the light or dark theme.
        if (!row.valid() && column == Name && qobject_cast<QApplication*>(QCoreApplication::instance()))
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::TextAlignmentRole:
        if (column == Seeds || column == Configurations) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

} // namespace kw::ui
