#pragma once
// Read-only source view (QScintilla): C++, CUDA and Python highlighting, line
// numbers, and markers for a diff's added and removed lines.
#include "editor/line_diff.h"

#include <Qsci/qsciscintilla.h>

namespace ks::ui {

class CodeView : public QsciScintilla {
    Q_OBJECT
public:
    enum class Language { Cpp, Cuda, Python };
    explicit CodeView(QWidget* parent = nullptr);

    void showCode(const QString& text, Language language = Language::Cpp);
    // The diff as one text with +/- markers in the margin and coloured lines.
    void showDiff(const std::vector<DiffLine>& diff, Language language = Language::Cpp);

    // By the file name's extension, else by the text itself.
    static Language languageFor(const QString& fileName, const QString& text = {});

protected:
    void changeEvent(QEvent* event) override;

private:
    void setLanguage(Language language);
    // Paper and text from the palette; on a dark palette, token colours that
    // read on it (the lexers' own are made for white paper).
    void followPalette();
    Language language_ = Language::Cpp;
    int addedMarker_ = 0, removedMarker_ = 1;
};

} // namespace ks::ui
