#pragma once
// Brings a new chip into the knowledge base: its platform name and the name
// people use, then the folders and starter documents that will be written
// (hardware/<platform>/{arch,debug,optimization} in the user KB), then
// writes them through kb::KbWriter::createPlatform.
#include "kb/kb_writer.h"

#include <QtWidgets/QWizard>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace kw::ui {

class NewPlatformWizard : public QWizard {
    Q_OBJECT
  public:
    NewPlatformWizard(const kb::KbWriter& writer, QWidget* parent = nullptr);

    QLineEdit* platformEdit() const { return platform_; }
    QLineEdit* chipEdit() const { return chip_; }
    QLabel* problemLabel() const { return problem_; }
    QPlainTextEdit* plan() const { return plan_; }
    // The files written by the last accept(); empty before.
    const std::vector<std::filesystem::path>& created() const { return created_; }

    void accept() override;

  private:
    void updatePlan();

    const kb::KbWriter& writer_;
    QLineEdit *platform_, *chip_;
    QLabel *problem_, *result_;
    QPlainTextEdit* plan_;
    std::vector<std::filesystem::path> created_;
};

} // namespace kw::ui
