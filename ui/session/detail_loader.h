#pragma once
// Reads what the inspector shows (a node's details, a search's LLM spend)
// off the UI thread, through the workspace's typed read API. Every request
// gets an id; only the newest request of each kind is answered, so a click
// on node 12 after node 7 never shows 7's details late, and a request that
// is already stale when its turn comes is skipped. Results arrive queued on
// the UI thread as immutable values.
#include "inspect/node_details.h"
#include "inspect/steering_timeline.h"
#include "store/llm_call_store.h"

#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QThread>

#include <atomic>
#include <filesystem>
#include <memory>
#include <vector>

namespace kw::ui {

class DetailWorker;

using NodeDetailsPtr = std::shared_ptr<const inspect::NodeDetails>;
using SpendTimeline = std::vector<store::LlmSpendPoint>;
using SteeringTimeline = std::vector<inspect::SteeringEntry>;

class DetailLoader : public QObject {
    Q_OBJECT
  public:
    DetailLoader(std::filesystem::path database, qint64 searchId, QObject* parent = nullptr);
    ~DetailLoader() override; // waits for a read in progress

    // Returns the request's id; nodeReady or nodeFailed follow unless a newer request came first.
    quint64 requestNode(qint64 nodeId);
    quint64 requestSpend();
    quint64 requestSteering();

  signals:
    void nodeReady(quint64 request, kw::ui::NodeDetailsPtr details);
    void nodeFailed(quint64 request, qint64 nodeId, const QString& message);
    void spendReady(quint64 request, const kw::ui::SpendTimeline& spend);
    void steeringReady(quint64 request, const kw::ui::SteeringTimeline& steering);

  private:
    friend class DetailWorker;
    void deliverNode(quint64 request, NodeDetailsPtr details);
    void deliverNodeFailure(quint64 request, qint64 nodeId, const QString& message);
    void deliverSpend(quint64 request, const SpendTimeline& spend);
    void deliverSteering(quint64 request, const SteeringTimeline& steering);

    QThread thread_;
    DetailWorker* worker_ = nullptr;
    // Shared with the worker, which skips requests that are stale when their turn comes.
    std::shared_ptr<std::atomic<quint64>> latestNode_, latestSpend_, latestSteering_;
    quint64 next_ = 0;
};

} // namespace kw::ui

Q_DECLARE_METATYPE(kw::ui::NodeDetailsPtr)
Q_DECLARE_METATYPE(kw::ui::SpendTimeline)
Q_DECLARE_METATYPE(kw::ui::SteeringTimeline)
