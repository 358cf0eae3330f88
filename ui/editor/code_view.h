#pragma once
// Source view (QScintilla): C++, CUDA, Python and Markdown highlighting, line
// numbers, and markers for a diff's added and removed lines. Read-only unless
// made an editor (the knowledge base's documents are edited in one).
#include "editor/line_diff.h"

#include <Qsci/qsciscintilla.h>

namespace kw::ui {

class CodeView : public QsciScintilla {
    Q_OBJECT
  public:
    enum class Language { Cpp, Cuda, Python, Markdown };
    explicit CodeView(QWidget* parent = nullptr);

    void showCode(const QString& text, Language language = Language::Cpp);
    // Editable text (markdown wraps at words); showCode keeps it editable.
    void setEditable(bool editable);
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
    bool editable_ = false;
};

} // namespace kw::ui
