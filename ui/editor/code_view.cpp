#include "editor/code_view.h"

#include <Qsci/qscilexercpp.h>
#include <Qsci/qscilexerpython.h>

#include <QtGui/QFontDatabase>

namespace ks::ui {

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

CodeView::Language CodeView::languageFor(const QString& fileName) {
    if (fileName.endsWith(QStringLiteral(".py"))) return Language::Python;
    if (fileName.endsWith(QStringLiteral(".cu")) || fileName.endsWith(QStringLiteral(".cuh"))) return Language::Cuda;
    return Language::Cpp;
}

void CodeView::setLanguage(Language language) {
    QsciLexer* lexer = nullptr;
    if (language == Language::Python) lexer = new QsciLexerPython(this);
    else lexer = new QsciLexerCPP(this); // CUDA is C++ with a few keywords more
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    lexer->setDefaultFont(mono);
    lexer->setFont(mono);
    setLexer(lexer);
    setMarginsFont(mono);
}

void CodeView::showCode(const QString& text, Language language) {
    setLanguage(language);
    setReadOnly(false);
    setText(text);
    setReadOnly(true);
    markerDeleteAll();
}

void CodeView::showDiff(const std::vector<DiffLine>& diff, Language language) {
    QString text;
    for (const auto& l : diff) text += l.text + QLatin1Char('\n');
    showCode(text, language);
    // Background indicators would fight the lexer's colours; the margin markers say it plainly.
    for (int i = 0; i < static_cast<int>(diff.size()); ++i) {
        if (diff[static_cast<std::size_t>(i)].kind == DiffLine::Added) markerAdd(i, addedMarker_);
        else if (diff[static_cast<std::size_t>(i)].kind == DiffLine::Removed) markerAdd(i, removedMarker_);
    }
}

} // namespace ks::ui
