#include "session/search_follower.h"

#include "store/database.h"
#include "store/search_store.h"

#include <nlohmann/json.hpp>

#include <QtCore/QTimer>

#include <set>

namespace kw::ui {
namespace {

using Intervals = std::map<std::int64_t, std::pair<double, double>>;

NodeSnapshot snapshotOf(const store::NodeRecord& r, const Intervals& intervals) {
    NodeSnapshot n;
    n.id = r.id;
    n.parentId = r.parentId;
    n.seq = r.seq;
    n.evaluationId = r.evaluationId;
    n.origin = QString::fromStdString(r.origin);
    n.sourceName = QString::fromStdString(r.sourceName);
    n.params = QString::fromStdString(r.paramsJson);
    n.status = r.status ? eval::parseStatus(*r.status) : std::nullopt;
    n.message = QString::fromStdString(r.message);
    n.hint = QString::fromStdString(r.hint);
    n.pinned = r.pinned;
    n.pinOnce = r.pinOnce;
    n.boost = r.boost;
    n.createdAt = QDateTime::fromString(QString::fromStdString(r.createdAt), Qt::ISODateWithMs);
    if (!r.finishedAt.empty()) n.finishedAt = QDateTime::fromString(QString::fromStdString(r.finishedAt), Qt::ISODateWithMs);
    n.pruned = r.pruned;
    n.glyph = report::glyphOf(report::nodeStateOf(r.state), n.status, r.pruned);
    n.speedup = n.glyph == NodeGlyph::Correct ? r.speedup.value_or(0) : 0;
    if (const auto it = intervals.find(r.id); n.glyph == NodeGlyph::Correct && it != intervals.end())
        std::tie(n.intervalLow, n.intervalHigh) = it->second;
    return n;
}

} // namespace

SearchFollower::SearchFollower(std::filesystem::path database, qint64 searchId, int pollMs)
    : database_(std::move(database)), searchId_(searchId), pollMs_(pollMs) {}

SearchFollower::~SearchFollower() = default;

void SearchFollower::start() {
    auto db = store::Database::open(database_, store::Database::Mode::ReadOnly);
    if (!db) {
        emit failed(QString::fromStdString(db.error().message));
        return;
    }
    db_ = std::make_unique<store::Database>(std::move(*db));
    store::SearchStore store(*db_);
    // The event id first: a node that changes while the nodes load is reloaded on the next poll.
    auto last = store.lastEventId(searchId_);
    auto all = store.loadNodes(searchId_);
    auto intervals = store.speedupIntervals(searchId_);
    if (!last || !all || !intervals) {
        emit failed(QString::fromStdString(!last  ? last.error().message
                                           : !all ? all.error().message
                                                  : intervals.error().message));
        return;
    }
    lastEvent_ = *last;
    NodeBatch batch;
    batch.reserve(static_cast<qsizetype>(all->size()));
    for (const auto& n : *all) batch.push_back(snapshotOf(n, *intervals));
    emit nodes(batch);
    // A search that ended before it was opened: its search_ended event is behind lastEvent_.
    if (auto search = store.loadSearch(searchId_); search && (search->status == "finished" || search->status == "stopped"))
        emit ended(QString::fromStdString(search->stopReason.empty() ? search->status : search->stopReason));
    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, &SearchFollower::poll);
    timer_->start(pollMs_);
}

void SearchFollower::stop() {
    if (timer_) timer_->stop();
}

void SearchFollower::poll() {
    if (!db_) return;
    store::SearchStore store(*db_);
    std::set<std::int64_t> changed;
    QString endReason;
    bool ended = false;
    for (;;) {
        auto events = store.eventsAfter(searchId_, lastEvent_, 2000);
        if (!events) {
            timer_->stop();
            emit failed(QString::fromStdString(events.error().message));
            return;
        }
        for (const auto& e : *events) {
            lastEvent_ = e.id;
            auto payload = nlohmann::json::parse(e.payload, nullptr, false);
            if (e.kind == "search_ended") {
                ended = true;
                if (payload.is_object()) endReason = QString::fromStdString(payload.value("reason", std::string()));
            } else if (payload.is_object() && payload.contains("node") && payload["node"].is_number_integer()) {
                changed.insert(payload["node"].get<std::int64_t>());
            }
        }
        if (events->size() < 2000) break;
    }
    if (!changed.empty()) {
        const std::vector<std::int64_t> ids(changed.begin(), changed.end());
        auto loaded = store.loadNodesById(searchId_, ids);
        auto intervals = store.speedupIntervals(searchId_, ids);
        if (!loaded || !intervals) {
            timer_->stop();
            emit failed(QString::fromStdString(!loaded ? loaded.error().message : intervals.error().message));
            return;
        }
        NodeBatch batch;
        batch.reserve(static_cast<qsizetype>(loaded->size()));
        for (const auto& n : *loaded) batch.push_back(snapshotOf(n, *intervals));
        emit nodes(batch);
    }
    if (ended) emit this->ended(endReason);
}

} // namespace kw::ui
