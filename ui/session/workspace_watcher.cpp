#include "session/workspace_watcher.h"

#include "inspect/workspace_reader.h"

#include <QtCore/QTimer>

#include <algorithm>

namespace kw::ui {

WorkspaceWatcher::WorkspaceWatcher(std::filesystem::path database, int evaluationLimit, int pollMs)
    : database_(std::move(database)), evaluationLimit_(evaluationLimit), pollMs_(pollMs) {
    qRegisterMetaType<std::shared_ptr<const kw::ui::WorkspaceLists>>();
}

WorkspaceWatcher::~WorkspaceWatcher() = default;

void WorkspaceWatcher::start() {
    auto reader = inspect::WorkspaceReader::open(database_);
    if (!reader) {
        emit failed(QString::fromStdString(reader.error().message));
        return;
    }
    reader_ = std::make_unique<inspect::WorkspaceReader>(std::move(*reader));
    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, &WorkspaceWatcher::poll);
    timer_->start(pollMs_);
    poll();
}

void WorkspaceWatcher::stop() {
    if (timer_) timer_->stop();
    reader_.reset();
}

void WorkspaceWatcher::poll() {
    if (!reader_) return;
    if (reader_->walReplaced()) {
        stop();
        emit filesReplaced();
        return;
    }
    auto counter = reader_->changeCounter();
    if (!counter) {
        stop();
        emit failed(QString::fromStdString(counter.error().message));
        return;
    }
    if (*counter == lastCounter_) return;
    // The counter first: a commit that lands while the lists load is read on the next poll.
    lastCounter_ = *counter;
    auto searches = reader_->searches();
    auto evaluations = reader_->recentEvaluations(evaluationLimit_);
    if (!searches || !evaluations) {
        // Busy or mid-migration: try again on the next poll rather than show half.
        lastCounter_ = -1;
        return;
    }
    auto lists = std::make_shared<WorkspaceLists>();
    for (const auto& r : *searches) lists->searches.push_back(SearchRow::fromRecord(r));
    std::sort(lists->searches.begin(), lists->searches.end(), [](const SearchRow& a, const SearchRow& b) { return a.id > b.id; });
    for (const auto& r : *evaluations) lists->evaluations.push_back(EvaluationRow::fromRecord(r));
    emit changed(std::move(lists));
}

} // namespace kw::ui
