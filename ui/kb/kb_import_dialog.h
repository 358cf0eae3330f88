#pragma once
// Import of markdown, text and PDF files (or whole folders) into the user KB:
// each file's proposed split into sections and front matter is shown first,
// and nothing is written until the import is confirmed. Files are read and
// split on a thread of their own (pdftotext takes seconds on a long PDF); the
// proposals come back as values.
#include "kb/kb_writer.h"

#include <QtWidgets/QDialog>

#include <filesystem>

class QCheckBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace kw::ui {

class KbImportDialog : public QDialog {
    Q_OBJECT
  public:
    KbImportDialog(const kb::KbWriter& writer, QWidget* parent = nullptr);

    // Proposes documents for these files or folders (added to what is shown
    // once read; isReading() until then).
    void addSources(const std::vector<std::filesystem::path>& paths);
    bool isReading() const { return reading_ > 0; }
    // Writes the checked proposals; the dialog closes when it worked.
    Result<std::vector<std::filesystem::path>> importChecked();

    const std::vector<kb::ImportedDocument>& proposals() const { return proposals_; }
    QListWidget* proposalList() const { return list_; }
    QPlainTextEdit* frontMatterView() const { return frontMatter_; }
    QTreeWidget* sectionView() const { return sections_; }
    QLabel* messageLabel() const { return message_; }

  private:
    using Proposals = std::vector<Result<std::vector<kb::ImportedDocument>>>;
    void takeProposals(const Proposals& results);
    void showProposal(int row);
    void updateButton();

    const kb::KbWriter& writer_;
    std::vector<kb::ImportedDocument> proposals_;
    int reading_ = 0; // source batches still being read
    QListWidget* list_;
    QPlainTextEdit* frontMatter_;
    QTreeWidget* sections_;
    QLabel* message_;
    QCheckBox* replace_;
    QPushButton* import_;
};

} // namespace kw::ui
