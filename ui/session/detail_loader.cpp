#include "session/detail_loader.h"

#include "inspect/workspace_reader.h"

#include <optional>

namespace kw::ui {

// Lives on the loader's thread with its own read-only connection.
class DetailWorker : public QObject {
  public:
    DetailWorker(std::filesystem::path database, qint64 searchId, DetailLoader* loader)
        : database_(std::move(database)), searchId_(searchId), loader_(loader) {}

    void loadNode(quint64 request, qint64 nodeId, const std::shared_ptr<std::atomic<quint64>>& latest) {
        if (request != latest->load()) return; // a newer request is queued behind this one
        const auto* reader = open();
        auto details = reader ? reader->nodeDetails(searchId_, nodeId) : Result<inspect::NodeDetails>(openError_);
        if (!details) {
            const QString message = QString::fromStdString(details.error().message);
            QMetaObject::invokeMethod(
                loader_, [l = loader_, request, nodeId, message] { l->deliverNodeFailure(request, nodeId, message); },
                Qt::QueuedConnection);
            return;
        }
        auto value = std::make_shared<const inspect::NodeDetails>(std::move(*details));
        QMetaObject::invokeMethod(
            loader_, [l = loader_, request, value] { l->deliverNode(request, value); }, Qt::QueuedConnection);
    }

    void loadSpend(quint64 request, const std::shared_ptr<std::atomic<quint64>>& latest) {
        if (request != latest->load()) return;
        const auto* reader = open();
        SpendTimeline spend;
        if (reader)
            if (auto timeline = reader->spendTimeline(searchId_)) spend = std::move(*timeline);
        QMetaObject::invokeMethod(
            loader_, [l = loader_, request, spend = std::move(spend)] { l->deliverSpend(request, spend); }, Qt::QueuedConnection);
    }

    void loadSteering(quint64 request, const std::shared_ptr<std::atomic<quint64>>& latest) {
        if (request != latest->load()) return;
        const auto* reader = open();
        SteeringTimeline steering;
        if (reader)
            if (auto timeline = reader->steeringTimeline(searchId_)) steering = std::move(*timeline);
        QMetaObject::invokeMethod(
            loader_, [l = loader_, request, steering = std::move(steering)] { l->deliverSteering(request, steering); },
            Qt::QueuedConnection);
    }

  private:
    const inspect::WorkspaceReader* open() {
        if (!reader_) {
            auto r = inspect::WorkspaceReader::open(database_);
            if (!r) {
                openError_ = r.error();
                return nullptr;
            }
            reader_.emplace(std::move(*r));
        }
        return &*reader_;
    }

    std::filesystem::path database_;
    qint64 searchId_;
    // Safe to post to: the loader outlives this worker's thread (its destructor waits for it).
    DetailLoader* loader_;
    std::optional<inspect::WorkspaceReader> reader_;
    Error openError_{ErrorCode::Io, "the workspace is not open"};
};

DetailLoader::DetailLoader(std::filesystem::path database, qint64 searchId, QObject* parent)
    : QObject(parent), latestNode_(std::make_shared<std::atomic<quint64>>(0)),
      latestSpend_(std::make_shared<std::atomic<quint64>>(0)), latestSteering_(std::make_shared<std::atomic<quint64>>(0)) {
    qRegisterMetaType<NodeDetailsPtr>();
    qRegisterMetaType<SpendTimeline>();
    qRegisterMetaType<SteeringTimeline>();
    worker_ = new DetailWorker(std::move(database), searchId, this);
    worker_->moveToThread(&thread_);
    thread_.setObjectName(QStringLiteral("detail-loader"));
    thread_.start();
}

DetailLoader::~DetailLoader() {
    thread_.quit();
    thread_.wait();
    delete worker_; // its thread has ended: nothing of it runs any more
}

quint64 DetailLoader::requestNode(qint64 nodeId) {
    const quint64 id = ++next_;
    latestNode_->store(id);
    QMetaObject::invokeMethod(
        worker_, [w = worker_, id, nodeId, latest = latestNode_] { w->loadNode(id, nodeId, latest); }, Qt::QueuedConnection);
    return id;
}

quint64 DetailLoader::requestSpend() {
    const quint64 id = ++next_;
    latestSpend_->store(id);
    QMetaObject::invokeMethod(
        worker_, [w = worker_, id, latest = latestSpend_] { w->loadSpend(id, latest); }, Qt::QueuedConnection);
    return id;
}

quint64 DetailLoader::requestSteering() {
    const quint64 id = ++next_;
    latestSteering_->store(id);
    QMetaObject::invokeMethod(
        worker_, [w = worker_, id, latest = latestSteering_] { w->loadSteering(id, latest); }, Qt::QueuedConnection);
    return id;
}

void DetailLoader::deliverNode(quint64 request, NodeDetailsPtr details) {
    if (request == latestNode_->load()) emit nodeReady(request, std::move(details));
}

void DetailLoader::deliverNodeFailure(quint64 request, qint64 nodeId, const QString& message) {
    if (request == latestNode_->load()) emit nodeFailed(request, nodeId, message);
}

void DetailLoader::deliverSpend(quint64 request, const SpendTimeline& spend) {
    if (request == latestSpend_->load()) emit spendReady(request, spend);
}

void DetailLoader::deliverSteering(quint64 request, const SteeringTimeline& steering) {
    if (request == latestSteering_->load()) emit steeringReady(request, steering);
}

} // namespace kw::ui
