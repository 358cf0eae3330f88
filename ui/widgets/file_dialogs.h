#pragma once
// The workbench's file dialogs. Every one lists folders without opening the
// files in them: Qt's own dialog (and a desktop's native one) guesses each
// file's type from its first bytes, and opening and closing a workspace's
// database, its write-ahead log or its shared-memory index in this process
// drops every POSIX lock SQLite holds on it (locks belong to the process, and
// any close releases them). Another process then takes the workspace for
// unused and checkpoints or removes files under the workbench.
#include <QtCore/QString>
#include <QtCore/QStringList>
#include <QtWidgets/QFileDialog>

#include <filesystem>

class QWidget;

namespace kw::ui::file_dialogs {

// Given the open workspace's database, a file picker refuses its files (with a
// message): reading one in this process would drop the locks, writing one
// would replace the workspace.

QString openFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
                     const std::filesystem::path& workspace = {});
QStringList openFileNames(QWidget* parent, const QString& caption, const QString& dir, const QString& filter);
QString saveFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
                     QFileDialog::Options options = {}, const std::filesystem::path& workspace = {});
QString existingDirectory(QWidget* parent, const QString& caption, const QString& dir = {});

} // namespace kw::ui::file_dialogs
