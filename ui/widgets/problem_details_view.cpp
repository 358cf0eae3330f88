#include "widgets/problem_details_view.h"
#include "widgets/html_escape.h"

#include "util/text.h"

#include <QtCore/QEvent>
#include <QtCore/QStringList>

namespace kw::ui {
namespace {

using problem::FillSpec;

QString num(double value) {
    return QString::number(value, 'g', 6);
}

QString describeFill(const FillSpec& f) {
    const auto minMax = [&] {
        return QStringLiteral("%1..%2").arg(f.minLength ? htmlEscaped(f.minLength->text()) : QStringLiteral("?"),
                                            f.maxLength ? htmlEscaped(f.maxLength->text()) : QStringLiteral("?"));
    };
    switch (f.kind) {
    case FillSpec::Kind::Uniform:
        return QStringLiteral("uniform [%1, %2)").arg(num(f.low), num(f.high));
    case FillSpec::Kind::Normal:
        return QStringLiteral("normal (mean %1, std %2)").arg(num(f.mean), num(f.stddev));
    case FillSpec::Kind::IntRange:
        return QStringLiteral("integers [%1, %2]").arg(num(f.low), num(f.high));
    case FillSpec::Kind::SortedUniform:
        return QStringLiteral("sorted uniform [%1, %2)").arg(num(f.low), num(f.high));
    case FillSpec::Kind::SortedIntRange:
        return QStringLiteral("sorted integers [%1, %2]%3").arg(num(f.low), num(f.high), f.distinct ? ", distinct" : "");
    case FillSpec::Kind::Lengths:
        return QStringLiteral("lengths %1, sum = %2").arg(minMax(), htmlEscaped(f.total));
    case FillSpec::Kind::Offsets:
        return QStringLiteral("offsets of lengths %1, last = %2").arg(minMax(), htmlEscaped(f.total));
    case FillSpec::Kind::SampleFrom:
        return QStringLiteral("%1% from <code>%2</code>, else [%3, %4]")
            .arg(num(f.fraction * 100), htmlEscaped(f.from), num(f.low), num(f.high));
    case FillSpec::Kind::Constant:
        return QStringLiteral("constant %1").arg(num(f.value));
    case FillSpec::Kind::Function:
        return QStringLiteral("function <code>%1</code>").arg(htmlEscaped(f.function));
    }
    return {};
}

QString configurationsText(std::uint64_t count) {
    return count == 1 ? QObject::tr("1 configuration") : QObject::tr("%1 configurations").arg(static_cast<qulonglong>(count));
}

QString shapeText(const std::vector<problem::Expression>& shape) {
    QStringList dims;
    for (const auto& d : shape) dims << htmlEscaped(d.text());
    return QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
}

QString sizesText(const problem::ShapeCase& c) {
    QStringList parts;
    for (const auto& [name, value] : c.sizes) parts << QStringLiteral("%1 = %2").arg(htmlEscaped(name)).arg(value);
    return parts.join(QStringLiteral(", "));
}

// A small table writer: one place decides how every table in the panel looks.
// No cell borders (Qt's rich text draws collapsed borders unevenly); the header
// row is shaded with the palette's alternate base instead, in any theme.
class Table {
  public:
    Table(const QPalette& palette, const QStringList& headers) {
        html_ = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" style=\"margin-bottom: 6px\">"
                               "<tr style=\"background-color: %1\">")
                    .arg(palette.color(QPalette::AlternateBase).name());
        for (const auto& h : headers) html_ += QStringLiteral("<th align=\"left\">%1&nbsp;&nbsp;</th>").arg(h);
        html_ += QStringLiteral("</tr>");
    }
    // Cells are rich text already escaped by the caller.
    void row(const QStringList& cells) {
        html_ += QStringLiteral("<tr>");
        for (const auto& c : cells) html_ += QStringLiteral("<td>%1&nbsp;&nbsp;</td>").arg(c);
        html_ += QStringLiteral("</tr>");
    }
    QString html() const { return html_ + QStringLiteral("</table>"); }

  private:
    QString html_;
};

QString argumentsSection(const problem::ProblemSpec& p, const QPalette& palette) {
    Table table(palette,
                {QObject::tr("Name"), QObject::tr("Type"), QObject::tr("Shape"), QObject::tr("Role"), QObject::tr("Fill")});
    for (const auto& a : p.arguments)
        table.row({QStringLiteral("<code>%1</code>").arg(htmlEscaped(a.name)),
                   htmlEscaped(std::string(problem::dtypeName(a.dtype))), shapeText(a.shape),
                   a.output ? QObject::tr("output") : QObject::tr("input"), a.output ? QString() : describeFill(a.fill)});
    for (const auto& s : p.scalars)
        table.row({QStringLiteral("<code>%1</code>").arg(htmlEscaped(s.name)),
                   htmlEscaped(std::string(problem::dtypeName(s.dtype))), QObject::tr("scalar"), QObject::tr("input"),
                   QStringLiteral("= %1").arg(num(s.value))});
    return QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Arguments")) + table.html();
}

QString shapesSection(const problem::ProblemSpec& p, const QPalette& palette) {
    Table table(palette, {QObject::tr("Used for"), QObject::tr("Name"), QObject::tr("Sizes")});
    for (const auto& c : p.checkShapes) table.row({QObject::tr("correctness"), htmlEscaped(c.name), sizesText(c)});
    for (const auto& c : p.timeShapes) table.row({QObject::tr("timing"), htmlEscaped(c.name), sizesText(c)});
    return QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Shapes")) + table.html();
}

QString seedsSection(const problem::ProblemSpec& p, const QPalette& palette) {
    QString html = QStringLiteral("<h3>%1</h3>").arg(QObject::tr("Seeds"));
    if (p.seeds.empty())
        return html + QStringLiteral("<p>%1</p>").arg(QObject::tr("None: the search starts from the reference."));
    for (const auto& seed : p.seeds) {
        html += QStringLiteral("<p><b>%1</b> — %2</p>").arg(htmlEscaped(seed.name), configurationsText(seed.params.size()));
        if (seed.params.params.empty()) continue;
        Table table(palette, {QObject::tr("Parameter"), QObject::tr("Domain"), QObject::tr("Default")});
        for (const auto& d : seed.params.params)
            table.row({QStringLiteral("<code>%1</code>").arg(htmlEscaped(d.name)), htmlEscaped(d.describe()),
                       htmlEscaped(d.defaultValue)});
        html += table.html();
    }
    return html;
}

QString validProblemHtml(const ProblemRow& row, const QPalette& palette) {
    const auto& p = *row.spec;
    QString html = QStringLiteral("<h2>%1</h2>").arg(htmlEscaped(p.title.empty() ? p.name : p.title));
    html +=
        QStringLiteral("<p><code>%1</code> · %2 · %3</p>")
            .arg(htmlEscaped(p.name), QObject::tr("%1 backend").arg(htmlEscaped(std::string(problem::backendName(p.backend)))),
                 row.dir.toHtmlEscaped());
    if (!p.description.empty()) html += QStringLiteral("<p>%1</p>").arg(htmlEscaped(p.description));
    if (p.backend == problem::Backend::Torch) {
        // The interface is a PyTorch module: show the reference that candidates replace.
        html += QStringLiteral("<h3>%1</h3><p>%2</p><pre>%3</pre>")
                    .arg(QObject::tr("Module"),
                         QObject::tr(
                             "Candidates define <code>class ModelNew(torch.nn.Module)</code> with the constructor and forward of "
                             "<code>%1</code>'s <code>Model</code>; sizes %2.")
                             .arg(htmlEscaped(p.reference.path.filename().string()), htmlEscaped(joinComma(p.sizes))),
                         htmlEscaped(p.reference.text));
        if (!p.forbidden.empty()) {
            QStringList forbidden;
            for (const auto& f : p.forbidden) forbidden << QStringLiteral("<code>%1</code>").arg(htmlEscaped(f));
            html +=
                QStringLiteral("<p>%1 %2</p>").arg(QObject::tr("Refused in candidates:"), forbidden.join(QStringLiteral(", ")));
        }
    } else {
        html += QStringLiteral("<h3>%1</h3><pre style=\"white-space: pre-wrap\">extern \"C\" %2;</pre>")
                    .arg(QObject::tr("Kernel"), htmlEscaped(p.prototype()));
        if (p.backend == problem::Backend::Cuda)
            html +=
                QStringLiteral("<p>%1</p>")
                    .arg(QObject::tr("A launcher: it receives device pointers and launches its kernels; built by nvcc for %1.")
                             .arg(htmlEscaped(p.cudaArch)));
        html += argumentsSection(p, palette);
    }
    if (p.bytes || p.flops)
        html += QStringLiteral("<p>%1 <code>%2</code>, %3 <code>%4</code></p>")
                    .arg(QObject::tr("Bytes moved:"), p.bytes ? htmlEscaped(p.bytes->text()) : QStringLiteral("?"),
                         QObject::tr("flops:"), p.flops ? htmlEscaped(p.flops->text()) : QStringLiteral("?"));
    html += shapesSection(p, palette);
    html += seedsSection(p, palette);
    QStringList baselines{p.backend == problem::Backend::Torch ? QObject::tr("reference (eager PyTorch), torch.compile of it")
                                                               : QObject::tr("reference")};
    for (const auto& b : p.baselines) baselines << htmlEscaped(b.name);
    html += QStringLiteral("<h3>%1</h3><p>%2</p>").arg(QObject::tr("Baselines"), baselines.join(QStringLiteral(", ")));
    return html;
}

} // namespace

QString problemDetailsHtml(const ProblemRow& row, const QPalette& palette) {
    if (row.valid()) return validProblemHtml(row, palette);
    // pre-wrap: a loader message can be one long line; it should wrap, not scroll.
    return QStringLiteral("<h2>%1</h2><p>%2</p><pre style=\"white-space: pre-wrap\">%3</pre>")
        .arg(row.id.toHtmlEscaped(), QObject::tr("This problem folder is invalid (%1):").arg(row.dir.toHtmlEscaped()),
             row.errorWithoutDir().toHtmlEscaped());
}

ProblemDetailsView::ProblemDetailsView(QWidget* parent) : QTextBrowser(parent) {
    setOpenLinks(false);
    setPlaceholderText(tr("Select a problem to see its kernel, arguments, shapes and seeds."));
}

void ProblemDetailsView::showProblem(const std::optional<ProblemRow>& row) {
    row_ = row;
    render();
}

void ProblemDetailsView::changeEvent(QEvent* event) {
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) render(); // table rules follow a theme switch
}

void ProblemDetailsView::render() {
    if (row_)
        setHtml(problemDetailsHtml(*row_, palette()));
    else
        clear();
}

} // namespace kw::ui
