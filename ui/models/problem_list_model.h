#pragma once
// The problems found under a root folder (the bundled ones, by default), one
// row per problem folder. Invalid problems stay in the list, marked "invalid"
// with the loader's message as a tooltip: hiding them would hide the reason a
// problem someone just edited has vanished.
#include "problem/problem_spec.h"

#include "models/row_table_model.h"

#include <QtCore/QString>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

namespace kw::ui {

// One problem folder, loaded once and never changed afterwards. The spec is
// shared, not copied, so that the details panel (and later a search) can use
// it without the model owning a second copy.
struct ProblemRow {
    QString id;                                       // folder relative to the root, e.g. "cpu/rmsnorm_fwd"
    QString dir;                                      // absolute folder
    std::shared_ptr<const problem::ProblemSpec> spec; // null when invalid
    QString error;                                    // the loader's message when invalid
    std::uint64_t configurations = 0;                 // sum over seeds of their param-space sizes (saturating)

    bool valid() const { return spec != nullptr; }
    // The error with the folder left out of each file name: the row names the folder already.
    QString errorWithoutDir() const;
};

class ProblemListModel : public RowTableModel<ProblemRow> {
    Q_OBJECT
  public:
    enum Column { Name, Status, Backend, Seeds, Configurations, Title, ColumnCount };

    explicit ProblemListModel(QObject* parent = nullptr);

    // Loads every problem folder below root on the calling thread (there are
    // few, and each loads in milliseconds). Replaces the previous rows.
    void reload(const std::filesystem::path& root);
    // Loads the rows without touching a model: the part of reload() that a
    // worker thread can run once problem sets grow.
    static std::vector<ProblemRow> loadRows(const std::filesystem::path& root);

    const ProblemRow& problemAt(int row) const { return rowAt(row); }
    const std::filesystem::path& root() const { return root_; }

  protected:
    QVariant cell(const ProblemRow& row, int column, int role) const override;

  private:
    QVariant display(const ProblemRow& row, int column) const;

    std::filesystem::path root_;
};

} // namespace kw::ui
