#include "kb/new_platform_wizard.h"

#include "kb/front_matter.h"
#include "kb/platform_starter.h"

#include "util/files.h"
#include "widgets/file_dialogs.h"

#include <QtGui/QFontDatabase>
#include <QtWidgets/QDoubleSpinBox>
#include <QtWidgets/QFormLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
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

    // The chip's roofline figures: typed, or imported from a probe of it.
    auto* figures = new QWizardPage;
    figures->setTitle(tr("Roofline figures"));
    figures->setSubTitle(tr("What the chip can move and compute; they become the architecture document's peak numbers. "
                            "Leave a figure at 0 when it is not known yet."));
    auto* figureForm = new QFormLayout(figures);
    const auto number = [](const char* name, double max, const QString& suffix) {
        auto* box = new QDoubleSpinBox;
        box->setObjectName(QString::fromLatin1(name));
        box->setRange(0, max);
        box->setDecimals(1);
        box->setSuffix(suffix);
        box->setSpecialValueText(tr("not known"));
        return box;
    };
    memoryGBs_ = number("memoryGBs", 1e6, tr(" GB/s"));
    fp32Tflops_ = number("fp32Tflops", 1e5, tr(" TFLOP/s"));
    matrixTflops_ = number("matrixTflops", 1e6, tr(" TFLOP/s"));
    cacheMiB_ = number("cacheMiB", 1e6, tr(" MiB"));
    computeUnits_ = new QSpinBox;
    computeUnits_->setObjectName(QStringLiteral("computeUnits"));
    computeUnits_->setRange(0, 1000000);
    computeUnits_->setSpecialValueText(tr("not known"));
    figuresSource_ = new QLabel(source_);
    figuresSource_->setObjectName(QStringLiteral("figuresSource"));
    figuresSource_->setWordWrap(true);
    auto* importButton = new QPushButton(tr("Import from a Probe…"));
    importButton->setToolTip(tr("A GPU probe's output (resources/probe/gpu_probe.cu) or a machine model "
                                "(kernelwright-cli machine --json, run on the chip's host)"));
    connect(importButton, &QPushButton::clicked, this, [this] {
        const QString file = file_dialogs::openFileName(this, tr("Probe output"), {}, tr("JSON (*.json);;All files (*)"),
                                                        writer_.index().databasePath());
        if (file.isEmpty()) return;
        // The fields and the source line show the import; a refusal shows why instead.
        if (const QString refused = importFigures(file); !refused.isEmpty()) figuresSource_->setText(refused);
    });
    figureForm->addRow(tr("Memory bandwidth"), memoryGBs_);
    figureForm->addRow(tr("FP32 FMA peak"), fp32Tflops_);
    figureForm->addRow(tr("BF16 matrix peak"), matrixTflops_);
    figureForm->addRow(tr("Last-level cache"), cacheMiB_);
    figureForm->addRow(tr("Compute units"), computeUnits_);
    figureForm->addRow(importButton, figuresSource_);
    addPage(figures);
    for (auto* box : {memoryGBs_, fp32Tflops_, matrixTflops_, cacheMiB_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &NewPlatformWizard::updatePlan);
    connect(computeUnits_, &QSpinBox::valueChanged, this, &NewPlatformWizard::updatePlan);

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

kb::PlatformFigures NewPlatformWizard::figures() const {
    kb::PlatformFigures f;
    f.memoryGBs = memoryGBs_->value();
    f.fp32Tflops = fp32Tflops_->value();
    f.matrixTflops = matrixTflops_->value();
    f.cacheMiB = cacheMiB_->value();
    f.computeUnits = computeUnits_->value();
    f.source = source_.toStdString();
    return f;
}

QString NewPlatformWizard::importFigures(const QString& file) {
    auto text = readTextFile(file.toStdString());
    if (!text) return tr("Not imported: %1").arg(QString::fromStdString(text.error().message));
    auto f = kb::figuresFromProbe(*text);
    if (!f) return tr("Not imported from %1: %2").arg(file, QString::fromStdString(f.error().message));
    source_ = QString::fromStdString(f->source);
    memoryGBs_->setValue(f->memoryGBs);
    fp32Tflops_->setValue(f->fp32Tflops);
    matrixTflops_->setValue(f->matrixTflops);
    cacheMiB_->setValue(f->cacheMiB);
    computeUnits_->setValue(f->computeUnits);
    figuresSource_->setText(tr("From %1").arg(source_));
    return {};
}

void NewPlatformWizard::updatePlan() {
    const std::string platform = platform_->text().trimmed().toStdString();
    const std::string problem = platform.empty() ? std::string() : writer_.platformProblem(platform);
    problem_->setText(QString::fromStdString(problem));
    problem_->setVisible(!problem.empty());
    QString plan;
    if (!platform.empty() && problem.empty())
        for (const auto& s : kb::platformStarterDocs(platform, chip_->text().trimmed().toStdString(), figures()))
            plan += QString::fromStdString((writer_.userRoot() / s.relativePath).string()) + QStringLiteral("\n    ") +
                    QString::fromStdString(s.doc.title) + QLatin1Char('\n');
    plan_->setPlainText(plan);
}

void NewPlatformWizard::accept() {
    auto files =
        writer_.createPlatform(platform_->text().trimmed().toStdString(), chip_->text().trimmed().toStdString(), figures());
    if (!files) {
        result_->setText(QString::fromStdString(files.error().message));
        return; // stays open: the reason shows, nothing is lost
    }
    created_ = *files;
    QWizard::accept();
}

} // namespace kw::ui
