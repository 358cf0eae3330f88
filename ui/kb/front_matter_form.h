#pragma once
// The front matter of one document as a form: id, title, category,
// platforms, triggers, tags. Core's checks (kb::KbWriter::check) decide what
// is wrong; the form shows each message under its field.
#include "kb/front_matter.h"

#include <QtWidgets/QWidget>

#include <map>

class QComboBox;
class QLabel;
class QLineEdit;

namespace kw::ui {

class FrontMatterForm : public QWidget {
    Q_OBJECT
  public:
    explicit FrontMatterForm(QWidget* parent = nullptr);

    // Fills the fields without emitting edited().
    void setDocument(const kb::KbDocument& doc);
    // base (body, status, path) with the fields' values.
    kb::KbDocument apply(kb::KbDocument base) const;
    // Each problem under its field; those of no field (or of a key the form
    // does not show) under the form.
    void showProblems(const std::vector<kb::FieldError>& problems);
    void setReadOnly(bool readOnly);

    QLineEdit* field(const QString& key) const; // id, title, platforms, triggers, tags
    QComboBox* categoryBox() const { return category_; }
    QLabel* problemLabel(const QString& key) const; // "" for the form's own

  signals:
    void edited();

  private:
    QLineEdit *id_, *title_, *platforms_, *triggers_, *tags_;
    QComboBox* category_;
    std::map<QString, QLabel*> problems_;
};

} // namespace kw::ui
