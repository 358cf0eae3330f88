#pragma once
// A kernel's tunable params as a form: one choice per @kw-param the source
// declares, its values from the declared domain, prefilled from a node's
// assignment (the parent's, for a manual child or a fork). The source can
// change under it (the user editing the fork): the form follows, keeping
// each value that the new domain still holds.
#include <nlohmann/json.hpp>

#include <QtWidgets/QWidget>

class QComboBox;
class QFormLayout;
class QLabel;

namespace kw::ui {

class ParamsForm : public QWidget {
    Q_OBJECT
  public:
    explicit ParamsForm(QWidget* parent = nullptr);
    // The declarations of `source`; `preferred` (NAME -> value, a node's
    // params) picks each value where the domain holds it, else the default.
    void setSource(const std::string& source, const nlohmann::json& preferred);
    // The chosen values (NAME -> value) of the last source that parsed.
    nlohmann::json assignment() const;
    // Why the last source's declarations do not parse ("" when they do).
    const QString& problem() const { return problem_; }
    QComboBox* choice(const QString& name) const;

  private:
    QFormLayout* form_ = nullptr;
    QLabel* note_ = nullptr;
    QString problem_;
    std::vector<std::pair<QString, QComboBox*>> choices_;
};

} // namespace kw::ui
