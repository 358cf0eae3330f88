#pragma once
// Brings a new chip into the knowledge base: its platform name and the name
// people use, its roofline figures (typed, or imported from a probe's JSON),
// then the folders and starter documents that will be written
// (hardware/<platform>/{arch,debug,optimization} in the user KB, the
// figures as the architecture document's peak numbers), then writes them
// through kb::KbWriter::createPlatform.
#include "kb/kb_writer.h"

#include <QtWidgets/QWizard>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
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
    // The figures as entered; importFigures fills them from a probe's JSON file ("" or why not).
    kb::PlatformFigures figures() const;
    QString importFigures(const QString& file);
    // The files written by the last accept(); empty before.
    const std::vector<std::filesystem::path>& created() const { return created_; }

    void accept() override;

  private:
    void updatePlan();

    const kb::KbWriter& writer_;
    QLineEdit *platform_, *chip_;
    QLabel *problem_, *result_, *figuresSource_;
    QDoubleSpinBox *memoryGBs_, *fp32Tflops_, *matrixTflops_, *cacheMiB_;
    QSpinBox* computeUnits_;
    QString source_ = QStringLiteral("entered by hand in the New Platform wizard");
    QPlainTextEdit* plan_;
    std::vector<std::filesystem::path> created_;
};

} // namespace kw::ui
