#include "kb/skill_review_view.h"

#include "editor/code_view.h"
#include "kb/skill_distiller.h"
#include "util/files.h"

#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSplitter>
#include <QtWidgets/QStackedWidget>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QVBoxLayout>

namespace kw::ui {

SkillReviewView::SkillReviewView(const kb::KbWriter& writer, QWidget* parent) : QWidget(parent), writer_(writer) {
    auto* layout = new QHBoxLayout(this);
    auto* split = new QSplitter(this);
    queue_ = new QListWidget(split);
    queue_->setObjectName(QStringLiteral("skillQueue"));
    auto* right = new QWidget(split);
    auto* column = new QVBoxLayout(right);
    title_ = new QLabel(right);
    title_->setWordWrap(true);
    QFont big = title_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    title_->setFont(big);
    column->addWidget(title_);
    stack_ = new QStackedWidget(right);
    evidence_ = new QTextBrowser(stack_);
    evidence_->setObjectName(QStringLiteral("skillEvidence"));
    editor_ = new CodeView(stack_);
    editor_->setObjectName(QStringLiteral("skillEditor"));
    editor_->setEditable(true);
    stack_->addWidget(evidence_);
    stack_->addWidget(editor_);
    column->addWidget(stack_, 1);
    message_ = new QLabel(right);
    message_->setObjectName(QStringLiteral("skillMessage"));
    message_->setWordWrap(true);
    column->addWidget(message_);
    auto* buttons = new QHBoxLayout;
    approve_ = new QPushButton(tr("&Approve"), right);
    reject_ = new QPushButton(tr("&Reject"), right);
    edit_ = new QPushButton(tr("&Edit…"), right);
    saveEdit_ = new QPushButton(tr("&Save Edit"), right);
    cancelEdit_ = new QPushButton(tr("Cancel Edit"), right);
    approve_->setToolTip(tr("Retrieved for later searches from now on"));
    reject_->setToolTip(tr("Kept in its file but never retrieved"));
    for (auto* b : {edit_, saveEdit_, cancelEdit_}) buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(reject_);
    buttons->addWidget(approve_);
    column->addLayout(buttons);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    layout->addWidget(split);

    connect(queue_, &QListWidget::currentRowChanged, this, &SkillReviewView::showCurrent);
    connect(approve_, &QPushButton::clicked, this, [this] { (void)approveCurrent(); });
    connect(reject_, &QPushButton::clicked, this, [this] { (void)rejectCurrent(); });
    connect(edit_, &QPushButton::clicked, this, &SkillReviewView::editCurrent);
    connect(saveEdit_, &QPushButton::clicked, this, [this] { (void)saveEdit(); });
    connect(cancelEdit_, &QPushButton::clicked, this, &SkillReviewView::showCurrent);
    reload();
}

void SkillReviewView::reload() {
    const QString keep = currentId();
    pending_.clear();
    if (auto docs = writer_.index().list()) {
        for (const auto& d : *docs)
            if (d.category == "skills" && d.status == "pending") pending_.push_back(d);
    } else {
        message_->setText(QString::fromStdString(docs.error().message));
    }
    const QSignalBlocker block(queue_);
    queue_->clear();
    for (const auto& d : pending_) {
        auto* item = new QListWidgetItem(QString::fromStdString(d.title), queue_);
        item->setData(Qt::UserRole, QString::fromStdString(d.id));
        item->setToolTip(QString::fromStdString(d.path));
    }
    if (!select(keep) && !pending_.empty()) queue_->setCurrentRow(0);
    showCurrent();
}

bool SkillReviewView::select(const QString& id) {
    for (int i = 0; i < queue_->count(); ++i)
        if (queue_->item(i)->data(Qt::UserRole).toString() == id) {
            queue_->setCurrentRow(i);
            return true;
        }
    return false;
}

QString SkillReviewView::currentId() const {
    const auto* item = queue_->currentItem();
    return item ? item->data(Qt::UserRole).toString() : QString();
}

void SkillReviewView::showCurrent() {
    stack_->setCurrentWidget(evidence_);
    const int row = queue_->currentRow();
    const bool any = row >= 0 && row < static_cast<int>(pending_.size());
    for (auto* b : {approve_, reject_, edit_}) b->setEnabled(any);
    saveEdit_->setVisible(false);
    cancelEdit_->setVisible(false);
    if (!any) {
        title_->setText(tr("No skills wait for review"));
        evidence_->setMarkdown(tr("Skills are distilled from finished searches (`kernelwright-cli kb distill SEARCH_ID`, or "
                                  "`search start --distill`) and wait here until someone approves or rejects them."));
        return;
    }
    const auto& d = pending_[static_cast<std::size_t>(row)];
    title_->setText(QString::fromStdString(d.title));
    // The body is the evidence: the distiller writes the search, each step's node and speedup, and the failures into it.
    evidence_->setMarkdown(QString::fromStdString(d.body));
}

void SkillReviewView::report(const Status& s, const QString& done) {
    message_->setText(s ? done : QString::fromStdString(s.error().message));
}

Status SkillReviewView::decide(const std::string& status) {
    const QString id = currentId();
    const int row = queue_->currentRow();
    if (id.isEmpty()) return makeError(ErrorCode::InvalidArgument, "no skill is selected");
    const auto& d = pending_[static_cast<std::size_t>(row)];
    Status s = kb::setSkillStatus(d.path, status);
    if (s) {
        if (auto r = writer_.reindex(); !r) s = r.error();
    }
    report(s, status == "approved" ? tr("%1 approved: retrieved from now on.").arg(id)
                                   : tr("%1 rejected: never retrieved.").arg(id));
    if (s) {
        reload();
        emit changed();
    }
    return s;
}

Status SkillReviewView::approveCurrent() {
    return decide("approved");
}
Status SkillReviewView::rejectCurrent() {
    return decide("rejected");
}

void SkillReviewView::editCurrent() {
    const int row = queue_->currentRow();
    if (row < 0 || row >= static_cast<int>(pending_.size())) return;
    editor_->showCode(QString::fromStdString(pending_[static_cast<std::size_t>(row)].body), CodeView::Language::Markdown);
    stack_->setCurrentWidget(editor_);
    saveEdit_->setVisible(true);
    cancelEdit_->setVisible(true);
    for (auto* b : {approve_, reject_, edit_}) b->setEnabled(false);
}

Status SkillReviewView::saveEdit() {
    const int row = queue_->currentRow();
    if (row < 0 || row >= static_cast<int>(pending_.size()) || stack_->currentWidget() != editor_)
        return makeError(ErrorCode::InvalidArgument, "no skill is being edited");
    kb::KbDocument d = pending_[static_cast<std::size_t>(row)];
    d.body = editor_->text().toStdString();
    auto file = writer_.save(d, d.path);
    const Status s = file ? Status() : Status(file.error());
    report(s, tr("%1 saved; still pending review.").arg(QString::fromStdString(d.id)));
    if (s) {
        reload();
        emit changed();
    }
    return s;
}

} // namespace kw::ui
