#pragma once
// The read-only description of one problem: what the kernel must compute, its
// signature, arguments, shapes and the seeds' tunable parameters.
#include "models/problem_list_model.h"

#include <QtGui/QPalette>
#include <QtWidgets/QTextBrowser>

#include <optional>

namespace kw::ui {

// Rich text for a problem (valid or not). Colours come from the palette only,
// so the text reads well in light and dark themes alike.
QString problemDetailsHtml(const ProblemRow& row, const QPalette& palette);

class ProblemDetailsView : public QTextBrowser {
    Q_OBJECT
  public:
    explicit ProblemDetailsView(QWidget* parent = nullptr);

    // Shows the row (a copy is kept to re-render when the palette changes); none clears the view.
    void showProblem(const std::optional<ProblemRow>& row);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void render();

    std::optional<ProblemRow> row_;
};

} // namespace kw::ui
