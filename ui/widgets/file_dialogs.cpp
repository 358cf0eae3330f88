#include "widgets/file_dialogs.h"

#include "store/workspace_files.h"

#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtWidgets/QFileIconProvider>
#include <QtWidgets/QMessageBox>

namespace kw::ui::file_dialogs {
namespace {

// Icons and type names from what stat() says (folder or file), never from the
// file's contents or a MIME guess that may read them.
class StatOnlyIconProvider : public QFileIconProvider {
  public:
    QIcon icon(const QFileInfo& info) const override {
        return QFileIconProvider::icon(info.isDir() ? QAbstractFileIconProvider::Folder : QAbstractFileIconProvider::File);
    }
    QString type(const QFileInfo& info) const override {
        if (info.isDir()) return QFileDialog::tr("Folder");
        const QString suffix = info.suffix();
        return suffix.isEmpty() ? QFileDialog::tr("File") : QFileDialog::tr("%1 File").arg(suffix);
    }
};

QAbstractFileIconProvider* statOnlyIcons() {
    static StatOnlyIconProvider provider; // the dialogs borrow it; it outlives them
    return &provider;
}

QStringList run(QWidget* parent, const QString& caption, const QString& dir, const QString& filter, QFileDialog::FileMode mode,
                QFileDialog::AcceptMode accept, QFileDialog::Options options, const std::filesystem::path& workspace = {}) {
    QFileDialog dialog(parent, caption, dir, filter);
    // Qt's widget dialog, so that the icon provider below is the one used: a
    // native dialog lists the folder in this process with its own sniffing.
    dialog.setOptions(options | QFileDialog::DontUseNativeDialog);
    dialog.setIconProvider(statOnlyIcons());
    dialog.setFileMode(mode);
    dialog.setAcceptMode(accept);
    if (dialog.exec() != QDialog::Accepted) return {};
    const QStringList files = dialog.selectedFiles();
    for (const auto& f : files)
        if (store::isWorkspaceFile(f.toStdString(), workspace)) {
            QMessageBox::warning(parent, caption,
                                 QFileDialog::tr("%1 is a file of the open workspace's database. Choose another file.")
                                     .arg(QDir::toNativeSeparators(f)));
            return {};
        }
    return files;
}

} // namespace

QString openFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
                     const std::filesystem::path& workspace) {
    return run(parent, caption, dir, filter, QFileDialog::ExistingFile, QFileDialog::AcceptOpen, {}, workspace).value(0);
}

QStringList openFileNames(QWidget* parent, const QString& caption, const QString& dir, const QString& filter) {
    return run(parent, caption, dir, filter, QFileDialog::ExistingFiles, QFileDialog::AcceptOpen, {});
}

QString saveFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
                     QFileDialog::Options options, const std::filesystem::path& workspace) {
    return run(parent, caption, dir, filter, QFileDialog::AnyFile, QFileDialog::AcceptSave, options, workspace).value(0);
}

QString existingDirectory(QWidget* parent, const QString& caption, const QString& dir) {
    return run(parent, caption, dir, {}, QFileDialog::Directory, QFileDialog::AcceptOpen, QFileDialog::ShowDirsOnly).value(0);
}

} // namespace kw::ui::file_dialogs
