#include "editor/code_view.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexermarkdown.h>
#include <Qsci/qscilexerpython.h>

#include <QtCore/QEvent>
#include <QtGui/QFontDatabase>

namespace kw::ui {

CodeView::CodeView(QWidget* parent) : QsciScintilla(parent) {
    setReadOnly(true);
    setUtf8(true);
    setMarginType(0, QsciScintilla::NumberMargin);
    setMarginWidth(0, QStringLiteral("00000"));
    setMarginLineNumbers(0, true);
    setMarginWidth(1, 14);
    setMarginSensitivity(1, false);
    setWrapMode(QsciScintilla::WrapNone);
    setCaretLineVisible(false);
    setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
    markerDefine(QsciScintilla::Plus, addedMarker_);
    markerDefine(QsciScintilla::Minus, removedMarker_);
    setMarkerBackgroundColor(QColor(0x2e, 0x7d, 0x32), addedMarker_);
    setMarkerBackgroundColor(QColor(0xc6, 0x28, 0x28), removedMarker_);
    setLanguage(Language::Cpp);
}

CodeView::Language CodeView::languageFor(const QString& fileName, const QString& text) {
    if (fileName.endsWith(QStringLiteral(".py"))) return Language::Python;
    if (fileName.endsWith(QStringLiteral(".cu")) || fileName.endsWith(QStringLiteral(".cuh"))) return Language::Cuda;
    // Node sources are named by origin ("triton", "llm"), not by file: a torch candidate shows itself.
    if (text.contains(QStringLiteral("class ModelNew")) || text.startsWith(QStringLiteral("import ")) ||
        text.contains(QStringLiteral("\nimport torch")))
        return Language::Python;
    return Language::Cpp;
}

void CodeView::setLanguage(Language language) {
    QsciLexer* lexer = nullptr;
    if (language == Language::Python)
        lexer = new QsciLexerPython(this);
    else if (language == Language::Markdown)
        lexer = new QsciLexerMarkdown(this);
    else
        lexer = new QsciLexerCPP(this); // CUDA is C++ with a few keywords more
    setWrapMode(language == Language::Markdown ? QsciScintilla::WrapWord : QsciScintilla::WrapNone);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono);
    setLexer(lexer);
    setMarginsFont(mono);
    language_ = language;
    followPalette();
}

void CodeView::followPalette() {
    QsciLexer* l = lexer();
    if (!l) return;
    const QPalette pal = palette();
    const QColor paper = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    l->setDefaultPaper(paper);
    l->setPaper(paper, -1);
    setMarginsBackgroundColor(pal.color(QPalette::Window));
    setMarginsForegroundColor(pal.color(QPalette::PlaceholderText));
    setCaretForegroundColor(text);
    setFoldMarginColors(pal.color(QPalette::Window), pal.color(QPalette::Window));
    if (paper.lightness() >= 128) return; // a light palette: the lexer's own colours are made for it
    l->setDefaultColor(text);
    l->setColor(text, -1);
    const QColor comment(0x7c, 0xa6, 0x68), keyword(0x6c, 0xb6, 0xff), string(0xe6, 0xa4, 0x7e), number(0xb5, 0xce, 0xa8),
        preprocessor(0xd0, 0x9c, 0xe0), type(0x4e, 0xc9, 0xb0);
    if (language_ == Language::Markdown) {
        for (int style :
             {QsciLexerMarkdown::Header1, QsciLexerMarkdown::Header2, QsciLexerMarkdown::Header3, QsciLexerMarkdown::Header4})
            l->setColor(keyword, style);
        for (int style : {QsciLexerMarkdown::CodeBackticks, QsciLexerMarkdown::CodeDoubleBackticks, QsciLexerMarkdown::CodeBlock})
            l->setColor(string, style);
        for (int style : {QsciLexerMarkdown::UnorderedListItem, QsciLexerMarkdown::OrderedListItem, QsciLexerMarkdown::Prechar})
            l->setColor(type, style);
        l->setColor(comment, QsciLexerMarkdown::BlockQuote);
        l->setColor(number, QsciLexerMarkdown::Link);
    } else if (language_ == Language::Python) {
        for (int style : {QsciLexerPython::Comment, QsciLexerPython::CommentBlock}) l->setColor(comment, style);
        l->setColor(keyword, QsciLexerPython::Keyword);
        for (int style : {QsciLexerPython::DoubleQuotedString, QsciLexerPython::SingleQuotedString,
                          QsciLexerPython::TripleSingleQuotedString, QsciLexerPython::TripleDoubleQuotedString,
                          QsciLexerPython::DoubleQuotedFString, QsciLexerPython::SingleQuotedFString})
            l->setColor(string, style);
        l->setColor(number, QsciLexerPython::Number);
        for (int style : {QsciLexerPython::ClassName, QsciLexerPython::FunctionMethodName}) l->setColor(type, style);
        l->setColor(preprocessor, QsciLexerPython::Decorator);
    } else {
        for (int style :
             {QsciLexerCPP::Comment, QsciLexerCPP::CommentLine, QsciLexerCPP::CommentDoc, QsciLexerCPP::CommentLineDoc})
            l->setColor(comment, style);
        l->setColor(keyword, QsciLexerCPP::Keyword);
        l->setColor(type, QsciLexerCPP::KeywordSet2);
        for (int style : {QsciLexerCPP::DoubleQuotedString, QsciLexerCPP::SingleQuotedString, QsciLexerCPP::RawString})
            l->setColor(string, style);
        l->setColor(number, QsciLexerCPP::Number);
        l->setColor(preprocessor, QsciLexerCPP::PreProcessor);
    }
}

void CodeView::changeEvent(QEvent* event) {
    QsciScintilla::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) followPalette();
}

void CodeView::showCode(const QString& text, Language language) {
    setLanguage(language);
    setReadOnly(false);
    setText(text);
    setReadOnly(!editable_);
    markerDeleteAll();
}

void CodeView::setEditable(bool editable) {
    editable_ = editable;
    setReadOnly(!editable);
}

void CodeView::showDiff(const std::vector<DiffLine>& diff, Language language) {
    QString text;
    for (const auto& l : diff) text += l.text + QLatin1Char('\n');
    showCode(text, language);
    // Background indicators would fight the lexer's colours; the margin markers say it plainly.
    for (int i = 0; i < static_cast<int>(diff.size()); ++i) {
        if (diff[static_cast<std::size_t>(i)].kind == DiffLine::Added)
            markerAdd(i, addedMarker_);
        else if (diff[static_cast<std::size_t>(i)].kind == DiffLine::Removed)
            markerAdd(i, removedMarker_);
    }
}

} // namespace kw::ui
