#include "kb/new_platform_wizard.h"

#include "kb/front_matter.h"
#include "kb/platform_starter.h"

#include <QtGui/QFontDatabase>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QVBoxLayout>
#include <QtWidgets/QWizardPage>

namespace kw::ui {
namespace {

// The first page is complete only when core would accept the name.
class NamePage : public QWizardPage {
  public:
    NamePage(const kb::KbWriter& writer, QLineEdit* platform) : writer_(writer), platform_(platform) {}
    bool isComplete() const override { return writer_.platformProblem(platform_->text().trimmed().toStdString()).empty(); }

  private:
    const kb::KbWriter& writer_;
    QLineEdit* platform_;
};

} // namespace

NewPlatformWizard::NewPlatformWizard(const kb::KbWriter& writer, QWidget* parent) : QWizard(parent), writer_(writer) {
    setWindowTitle(tr("New Platform"));
    setOption(QWizard::NoBackButtonOnStartPage);
    platform_ = new QLineEdit;
    platform_->setObjectName(QStringLiteral("platformName"));
    platform_->setPlaceholderText(tr("e.g. mi400 (lowercase letters, digits and '-')"));
    chip_ = new QLineEdit;
    chip_->setObjectName(QStringLiteral("chipName"));
    chip_->setPlaceholderText(tr("e.g. AMD Instinct MI400"));
    problem_ = new QLabel;
    problem_->setObjectName(QStringLiteral("platformProblem"));
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #c62828;"));

    auto* names = new NamePage(writer_, platform_);
    names->setTitle(tr("Name the platform"));
    names->setSubTitle(tr("Documents name it in their platforms list; retrieval filters by it."));
    auto* form = new QFormLayout(names);
    form->addRow(tr("&Platform"), platform_);
    form->addRow(QString(), problem_);
    form->addRow(tr("&Chip"), chip_);
    addPage(names);

    auto* summary = new QWizardPage;
    summary->setTitle(tr("Starter documents"));
    summary->setSubTitle(
        tr("These folders and documents are written into your KB, each with valid front matter and the questions to answer."));
    auto* column = new QVBoxLayout(summary);
    plan_ = new QPlainTextEdit;
    plan_->setObjectName(QStringLiteral("platformPlan"));
    plan_->setReadOnly(true);
    plan_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    column->addWidget(plan_);
    result_ = new QLabel;
    result_->setWordWrap(true);
    column->addWidget(result_);
    addPage(summary);

    connect(platform_, &QLineEdit::textChanged, this, &NewPlatformWizard::updatePlan);
    connect(platform_, &QLineEdit::textChanged, names, &QWizardPage::completeChanged);
    connect(chip_, &QLineEdit::textChanged, this, &NewPlatformWizard::updatePlan);
    resize(640, 480);
    updatePlan();
}

void NewPlatformWizard::updatePlan() {
    const std::string platform = platform_->text().trimmed().toStdString();
    const std::string problem = platform.empty() ? std::string() : writer_.platformProblem(platform);
    problem_->setText(QString::fromStdString(problem));
    problem_->setVisible(!problem.empty());
    QString plan;
    if (!platform.empty() && problem.empty())
        for (const auto& s : kb::platformStarterDocs(platform, chip_->text().trimmed().toStdString()))
            plan += QString::fromStdString((writer_.userRoot() / s.relativePath).string()) + QStringLiteral("\n    ") +
                    QString::fromStdString(s.doc.title) + QLatin1Char('\n');
    plan_->setPlainText(plan);
}

void NewPlatformWizard::accept() {
    auto files = writer_.createPlatform(platform_->text().trimmed().toStdString(), chip_->text().trimmed().toStdString());
    if (!files) {
        result_->setText(QString::fromStdString(files.error().message));
        return; // stays open: the reason shows, nothing is lost
    }
    created_ = *files;
    QWizard::accept();
}

} // namespace kw::ui
