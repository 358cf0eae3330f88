#include "widgets/llm_call_html.h"
#include "widgets/html_escape.h"

#include "theme/app_theme.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QStringList>

namespace kw::ui {
namespace {

// Wrapped, monospace, in the page's own colours.
QString block(const QString& escaped, const QString& background) {
    return QStringLiteral("<pre style='white-space: pre-wrap; background: %2; padding: 4px'>%1</pre>").arg(escaped, background);
}

// A light colouring of code: comments muted, keywords in the link colour.
QString colourCode(const QString& code, const QPalette& palette) {
    static const QRegularExpression keywords(
        QStringLiteral("\\b(def|class|return|import|from|for|while|if|elif|else|in|with|as|lambda|const|constexpr|void|int|"
                       "float|double|auto|struct|template|typename|static|inline|__global__|__device__|__shared__|"
                       "extern|unsigned|long|bool|True|False|None|self|tl|triton|torch)\\b"));
    const QString muted = palette.color(QPalette::Disabled, QPalette::Text).name();
    const QString key = palette.color(QPalette::Link).name();
    QStringList out;
    for (const QString& line : code.split(QLatin1Char('\n'))) {
        int comment = line.indexOf(QStringLiteral("//"));
        const int hash = line.indexOf(QLatin1Char('#'));
        if (hash >= 0 && (comment < 0 || hash < comment) && !line.trimmed().startsWith(QStringLiteral("#include")) &&
            !line.trimmed().startsWith(QStringLiteral("#define")) && !line.trimmed().startsWith(QStringLiteral("#pragma")))
            comment = hash;
        const QString body = comment >= 0 ? line.left(comment) : line;
        QString html = body.toHtmlEscaped();
        html.replace(keywords, QStringLiteral("<span style='color:%1'><b>\\1</b></span>").arg(key));
        if (comment >= 0)
            html += QStringLiteral("<span style='color:%1'>%2</span>").arg(muted, line.mid(comment).toHtmlEscaped());
        out << html;
    }
    return out.join(QLatin1Char('\n'));
}

// The reply: prose wrapped, fenced code blocks coloured.
QString replyHtml(const QString& reply, const QPalette& palette, const QString& background) {
    QString html;
    const QStringList parts = reply.split(QStringLiteral("```"));
    for (int i = 0; i < parts.size(); ++i) {
        if (i % 2 == 0) {
            if (!parts[i].trimmed().isEmpty())
                html += QStringLiteral("<p style='white-space: pre-wrap'>%1</p>").arg(parts[i].trimmed().toHtmlEscaped());
            continue;
        }
        QString code = parts[i];
        const int nl = code.indexOf(QLatin1Char('\n'));
        if (nl >= 0 && !code.left(nl).contains(QLatin1Char(' '))) code = code.mid(nl + 1); // the fence's language tag
        html += QStringLiteral("<pre style='white-space: pre-wrap; background: %2; padding: 4px'>%1</pre>")
                    .arg(colourCode(code, palette), background);
    }
    return html;
}

} // namespace

std::vector<PromptSection> promptSections(const QString& prompt) {
    std::vector<PromptSection> out;
    PromptSection current;
    for (const QString& line : prompt.split(QLatin1Char('\n'))) {
        if (line.startsWith(QStringLiteral("## "))) {
            if (!current.title.isEmpty() || !current.text.trimmed().isEmpty()) out.push_back(current);
            current = {line.mid(3).trimmed(), {}};
            continue;
        }
        current.text += line + QLatin1Char('\n');
    }
    if (!current.title.isEmpty() || !current.text.trimmed().isEmpty()) out.push_back(current);
    return out;
}

QString llmCallHtml(const store::LlmCallRecord& c, const std::vector<store::RetrievedDoc>& docs, const std::set<int>& expanded,
                    const QPalette& palette) {
    const QString background = palette.color(QPalette::AlternateBase).name();
    QString html = QObject::tr("<h3>%1 (%2)</h3><p>%3 in + %4 out tokens%5 · $%6 · %7 s · %8 attempt(s) · %9</p>")
                       .arg(htmlEscaped(c.modelName), htmlEscaped(c.provider))
                       .arg(c.inputTokens)
                       .arg(c.outputTokens)
                       .arg(c.usageEstimated ? QObject::tr(" (estimated)") : QString())
                       .arg(c.costUsd, 0, 'f', 4)
                       .arg(c.latencyS, 0, 'f', 1)
                       .arg(c.attempts)
                       .arg(htmlEscaped(c.status));
    if (!c.error.empty())
        html += QStringLiteral("<p style='color:%2; white-space: pre-wrap'>%1</p>")
                    .arg(htmlEscaped(c.error), errorColorName(palette));
    if (!docs.empty()) {
        html += QObject::tr("<h4>Knowledge-base documents in the prompt</h4><ul>");
        // By title (the id when the document is no longer indexed), the
        // section, and why retrieval picked it.
        for (const auto& d : docs) {
            QString item = QStringLiteral("<b>%1</b>").arg(htmlEscaped(d.title.empty() ? d.docId : d.title));
            if (!d.section.empty()) item += QStringLiteral(" — %1").arg(htmlEscaped(d.section));
            item += QStringLiteral(" <span style='color:%1'>(%2; score %3%4)</span>")
                        .arg(palette.color(QPalette::PlaceholderText).name(), htmlEscaped(d.docId))
                        .arg(d.score, 0, 'g', 3)
                        .arg(d.reason.empty() ? QString() : QStringLiteral("; ") + htmlEscaped(d.reason));
            html += QStringLiteral("<li>%1</li>").arg(item);
        }
        html += QStringLiteral("</ul>");
    }
    if (!c.reasoning.empty()) html += QObject::tr("<h4>Reasoning</h4>") + block(htmlEscaped(c.reasoning), background);
    html += QObject::tr("<h4>Reply</h4>") + replyHtml(QString::fromStdString(c.reply), palette, background);
    html += QObject::tr("<h4>Prompt</h4><p><i>Click a section to unfold it.</i></p>");
    const auto sections = promptSections(QString::fromStdString(c.prompt));
    for (int i = 0; i < static_cast<int>(sections.size()); ++i) {
        const auto& s = sections[static_cast<std::size_t>(i)];
        const bool open = expanded.count(i) > 0;
        const QString title = s.title.isEmpty() ? QObject::tr("Instructions") : s.title;
        html += QStringLiteral("<p><a href='section:%1'>%2 %3</a> <small>(%4 characters)</small></p>")
                    .arg(i)
                    .arg(open ? QStringLiteral("▾") : QStringLiteral("▸"), title.toHtmlEscaped())
                    .arg(s.text.size());
        if (open) html += block(s.text.toHtmlEscaped(), background);
    }
    return html;
}

} // namespace kw::ui
