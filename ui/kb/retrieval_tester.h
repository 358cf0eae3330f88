#pragma once
// Asks the index what a search would be given: a query, the node's signals
// and a platform; shows the ranked documents with their scores, the section
// chosen, the triggers that matched and why. The same call the synthesizer
// makes (kb::KbIndex::search), so what shows here is what a prompt gets.
#include "kb/kb_index.h"

#include <QtWidgets/QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QTableWidget;

namespace ks::ui {

class RetrievalTester : public QWidget {
    Q_OBJECT
public:
    RetrievalTester(const kb::KbIndex& index, QWidget* parent = nullptr);

    void setQuery(const QString& text, const QStringList& signalNames, const QString& platform);
    kb::RetrievalQuery query() const;
    // Runs the query; the table shows the ranking.
    void run();
    // The platform choices again (a new platform may have joined).
    void updatePlatforms();

    QTableWidget* results() const { return results_; }

signals:
    void openDocument(const QString& id);

private:
    const kb::KbIndex& index_;
    QLineEdit* text_;
    QListWidget* signals_;
    QComboBox* platform_;
    QSpinBox* limit_;
    QCheckBox* pending_;
    QTableWidget* results_;
    QLabel* message_;
};

} // namespace ks::ui
