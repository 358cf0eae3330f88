#pragma once
// One document being edited: the front-matter form, the markdown body in a
// QScintilla editor, and a live preview. Checks run as you type (core's
// rules, debounced); saving refuses invalid front matter and says why, so
// nothing typed is lost on bad input.
#include "kb/kb_writer.h"

#include <QtWidgets/QWidget>

#include <filesystem>

class QLabel;
class QPushButton;
class QTextBrowser;
class QTimer;

namespace kw::ui {

class CodeView;
class FrontMatterForm;

class DocumentEditor : public QWidget {
    Q_OBJECT
  public:
    DocumentEditor(const kb::KbWriter& writer, QWidget* parent = nullptr);

    // A document of the index (its file is read again: the file is the truth).
    void open(const kb::KbDocument& doc);
    // A blank document with starter front matter, saved into the user KB.
    void startNew();
    // Writes the document when it is valid; shows why not otherwise.
    Result<std::filesystem::path> save();
    // Runs the checks now (they also run shortly after each edit).
    void validateNow();

    kb::KbDocument current() const;
    const std::filesystem::path& file() const { return file_; }
    bool isModified() const { return modified_; }
    bool isWritable() const;

    FrontMatterForm* form() const { return form_; }
    CodeView* editor() const { return editor_; }
    QTextBrowser* preview() const { return preview_; }
    QPushButton* saveButton() const { return save_; }
    QLabel* statusLabel() const { return status_; }

  signals:
    void saved(const QString& id);
    // Another document (or a new one: empty id) is in the editor.
    void opened(const QString& id);

  private:
    void edited();
    void load(const kb::KbDocument& doc, std::filesystem::path file);

    const kb::KbWriter& writer_;
    kb::KbDocument base_; // what was opened: status and fields the form does not show
    std::filesystem::path file_;
    bool modified_ = false;
    FrontMatterForm* form_;
    CodeView* editor_;
    QTextBrowser* preview_;
    QPushButton* save_;
    QLabel* status_;
    QTimer* debounce_;
};

} // namespace kw::ui
