#include "widgets/search_notes_actions.h"

#include "search/search_notes.h"

#include <QtCore/QRegularExpression>
#include <QtCore/QSet>
#include <QtWidgets/QInputDialog>
#include <QtWidgets/QMessageBox>

namespace kw::ui {
namespace {

NotesOutcome apply(const std::filesystem::path& database, qint64 id, const search::NotesChange& change, const QString& done) {
    auto stored = search::changeNotes(database, id, change);
    if (!stored) return {false, QString::fromStdString(stored.error().message)};
    return {true, done};
}

} // namespace

NotesOutcome renameSearch(QWidget* parent, const std::filesystem::path& database, const SearchRow& row) {
    bool ok = false;
    const QString name =
        QInputDialog::getText(parent, QObject::tr("Rename search %1").arg(row.id),
                              QObject::tr("Name (empty: none, the list shows its problem):"), QLineEdit::Normal, row.label, &ok);
    if (!ok || name == row.label) return {};
    search::NotesChange change;
    change.label = name.trimmed().toStdString();
    return apply(database, row.id, change,
                 name.trimmed().isEmpty() ? QObject::tr("Search %1's name cleared").arg(row.id)
                                          : QObject::tr("Search %1 is now “%2”").arg(row.id).arg(name.trimmed()));
}

NotesOutcome editSearchNotes(QWidget* parent, const std::filesystem::path& database, const SearchRow& row) {
    bool ok = false;
    const QString notes = QInputDialog::getMultiLineText(parent, QObject::tr("Notes on search %1").arg(row.id),
                                                         QObject::tr("What to remember about this search (the list shows "
                                                                     "them as its name's tool tip):"),
                                                         row.notes, &ok);
    if (!ok || notes == row.notes) return {};
    search::NotesChange change;
    change.notes = notes.toStdString();
    return apply(database, row.id, change, QObject::tr("Notes on search %1 kept").arg(row.id));
}

NotesOutcome editSearchTags(QWidget* parent, const std::filesystem::path& database, const SearchRow& row) {
    bool ok = false;
    const QString text = QInputDialog::getText(parent, QObject::tr("Tags of search %1").arg(row.id),
                                               QObject::tr("Tags, separated by spaces (letters, digits and - _ . : + =):"),
                                               QLineEdit::Normal, row.tags.join(QLatin1Char(' ')), &ok);
    if (!ok) return {};
    const QStringList wanted = text.split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
    search::NotesChange change;
    for (const auto& t : wanted)
        if (!row.tags.contains(t)) change.addTags.push_back(t.toStdString());
    for (const auto& t : row.tags)
        if (!wanted.contains(t)) change.removeTags.push_back(t.toStdString());
    if (change.addTags.empty() && change.removeTags.empty()) return {};
    return apply(database, row.id, change,
                 QObject::tr("Search %1's tags: %2").arg(row.id).arg(wanted.isEmpty() ? QObject::tr("none") : wanted.join(", ")));
}

NotesOutcome archiveSearches(const std::filesystem::path& database, const std::vector<SearchRow>& rows, bool archived) {
    NotesOutcome outcome;
    QStringList done;
    for (const auto& row : rows) {
        search::NotesChange change;
        change.archived = archived;
        if (auto one = apply(database, row.id, change, {}); !one.changed) return {outcome.changed, one.message};
        outcome.changed = true;
        done << QString::number(row.id);
    }
    outcome.message = archived ? QObject::tr("Archived search %1 (View > Show Archived Searches lists it)").arg(done.join(", "))
                               : QObject::tr("Search %1 back in the list").arg(done.join(", "));
    return outcome;
}

NotesOutcome deleteSearchAsked(QWidget* parent, const std::filesystem::path& database, const SearchRow& row) {
    const QString name = row.label.isEmpty() ? row.problem : QStringLiteral("%1 (%2)").arg(row.label, row.problem);
    const auto answer = QMessageBox::question(
        parent, QObject::tr("Delete search %1?").arg(row.id),
        QObject::tr("Delete search %1, %2, with its %3 evaluated nodes, its steering and its LLM calls? This cannot be "
                    "undone; its evaluations stay in the workspace's cache.\n\nArchive keeps it, out of the list.")
            .arg(row.id)
            .arg(name)
            .arg(row.evaluations),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes) return {};
    auto gone = search::deleteSearch(database, row.id);
    if (!gone) return {false, QString::fromStdString(gone.error().message)};
    return {true, QObject::tr("Search %1 deleted: %2 nodes, %3 LLM calls").arg(row.id).arg(gone->nodes).arg(gone->llmCalls)};
}

} // namespace kw::ui
