#pragma once
// The searches of a workspace, newest first: name, problem, status (and why
// it ended), evaluations, best speedup, tags. Values handed over by the
// window, as in EvaluationListModel; the model never touches the database.
// Archived searches are held but shown only when asked for.
#include "store/search_store.h"

#include "models/row_table_model.h"

#include <QtCore/QString>
#include <QtCore/QStringList>

#include <optional>
#include <vector>

namespace kw::ui {

struct SearchRow {
    qint64 id = 0;
    QString problem, status, stopReason, created, policy, synth;
    QString label, notes;
    QStringList tags;
    bool archived = false;
    qint64 evaluations = 0, budget = 0;
    std::optional<double> bestSpeedup;
    bool interrupted = false; // marked running, its process gone

    static SearchRow fromRecord(const store::SearchRecord& record);
};

class SearchListModel : public RowTableModel<SearchRow> {
    Q_OBJECT
  public:
    enum Column { Id, Name, Problem, Status, Evaluations, Best, Policy, Tags, Created, ColumnCount };

    explicit SearchListModel(QObject* parent = nullptr);

    // Every search of the workspace; the archived ones are shown only after setShowArchived(true).
    void setSearches(std::vector<SearchRow> rows);
    void setShowArchived(bool show);
    bool showsArchived() const { return showArchived_; }
    int archivedHidden() const { return archivedHidden_; }
    const SearchRow& searchAt(int row) const { return rowAt(row); }

  protected:
    QVariant cell(const SearchRow& row, int column, int role) const override;

  private:
    void showRows();

    std::vector<SearchRow> all_;
    bool showArchived_ = false;
    int archivedHidden_ = 0;
};

} // namespace kw::ui
