#include "models/problem_list_model.h"

#include "problem/problem_loader.h"

#include <QtCore/QThread>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyle>

#include <limits>

namespace ks::ui {
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

ProblemListModel::ProblemListModel(QObject* parent) : QAbstractTableModel(parent) {}

std::vector<ProblemRow> ProblemListModel::loadRows(const std::filesystem::path& root) {
    std::vector<ProblemRow> rows;
    for (const auto& dir : problem::findProblemDirs(root)) rows.push_back(loadRow(root, dir));
    return rows;
}

void ProblemListModel::reload(const std::filesystem::path& root) {
    Q_ASSERT(QThread::currentThread() == thread());
    auto rows = loadRows(root);
    beginResetModel();
    root_ = root;
    rows_ = std::move(rows);
    endResetModel();
}

const ProblemRow& ProblemListModel::problemAt(int row) const {
    Q_ASSERT(row >= 0 && static_cast<std::size_t>(row) < rows_.size());
    return rows_[static_cast<std::size_t>(row)];
}

int ProblemListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int ProblemListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
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

QVariant ProblemListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    const auto& row = rows_[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        if (!row.valid()) return tr("%1: invalid problem\n%2").arg(row.dir, row.error);
        return row.dir;
    case Qt::DecorationRole:
        // The style's own icon, so it matches the light or dark theme.
        if (!row.valid() && index.column() == Name && qobject_cast<QApplication*>(QCoreApplication::instance()))
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Seeds || index.column() == Configurations)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant ProblemListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Status:
        return tr("Status");
    case Backend:
        return tr("Backend");
    case Seeds:
        return tr("Seeds");
    case Configurations:
        return tr("Configurations");
    case Title:
        return tr("Title");
    default:
        return {};
    }
}

} // namespace ks::ui
