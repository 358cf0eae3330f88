#pragma once
// The review queue of distilled skills: each pending skill with the evidence
// the distiller wrote into it (the search, the nodes of the winning path and
// their measured speedups, the best configuration, the failures seen).
// Approve makes it retrievable, reject keeps it out for good, edit changes
// its text before a decision.
#include "kb/kb_writer.h"

#include <QtWidgets/QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTextBrowser;

namespace kw::ui {

class CodeView;

class SkillReviewView : public QWidget {
    Q_OBJECT
  public:
    SkillReviewView(const kb::KbWriter& writer, QWidget* parent = nullptr);

    // The pending skills of the index.
    void reload();
    bool select(const QString& id);
    QString currentId() const;

    Status approveCurrent();
    Status rejectCurrent();
    // Starts editing the current skill's text; saveEdit writes it (still pending).
    void editCurrent();
    Status saveEdit();

    QListWidget* queue() const { return queue_; }
    QTextBrowser* evidence() const { return evidence_; }
    CodeView* editor() const { return editor_; }

  signals:
    // The index changed (a decision or an edit).
    void changed();

  private:
    void showCurrent();
    Status decide(const std::string& status);
    void report(const Status& s, const QString& done);

    const kb::KbWriter& writer_;
    std::vector<kb::KbDocument> pending_;
    QListWidget* queue_;
    QLabel *title_, *message_;
    QStackedWidget* stack_;
    QTextBrowser* evidence_;
    CodeView* editor_;
    QPushButton *approve_, *reject_, *edit_, *saveEdit_, *cancelEdit_;
};

} // namespace kw::ui
