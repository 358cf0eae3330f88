#pragma once
// Runs candidates of a test problem through the real evaluator, executor and
// sandbox, with a throw-away workspace and jobs folder.
#include "eval/evaluator.h"
#include "eval/local_executor.h"
#include "problem/problem_loader.h"
#include "store/database.h"
#include "test_support.h"
#include "util/files.h"

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>

#include <memory>

namespace kw::test {

class EvalFixture {
  public:
    // timingLock: a lock file of the test's own (default: the machine-wide one,
    // which concurrently running test programs share).
    explicit EvalFixture(std::size_t workers = 2, eval::SandboxPolicy policy = eval::SandboxPolicy::Preferred,
                         std::filesystem::path timingLock = {}) {
        // Jobs may run as another user (root drops to a per-worker uid).
        QFile::setPermissions(dir_.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                               QFileDevice::ExeGroup | QFileDevice::ExeOther);
        eval::LocalExecutorConfig config;
        config.workers = workers;
        config.sandbox = policy;
        config.timingLockFile = std::move(timingLock);
        auto executor = eval::LocalExecutor::create(config);
        if (executor) executor_ = std::move(*executor);
        auto db = store::Database::open(root() / "ws.db");
        if (db) db_ = std::make_unique<store::Database>(std::move(*db));
        eval::EvaluatorConfig ec;
        ec.jobsRoot = jobsRoot();
        if (executor_) evaluator_ = std::make_unique<eval::Evaluator>(*executor_, db_.get(), ec);
    }

    bool ready() const { return evaluator_ != nullptr && db_ != nullptr; }
    std::filesystem::path root() const { return dir_.path().toStdString(); }
    std::filesystem::path jobsRoot() const { return root() / "kernelwright-jobs"; }
    eval::Evaluator& evaluator() { return *evaluator_; }
    eval::LocalExecutor& executor() { return *executor_; }
    store::Database& database() { return *db_; }

    static eval::Candidate candidate(const std::string& problem, const std::string& name, problem::ParamAssignment params = {}) {
        eval::Candidate c;
        c.name = name;
        auto text = readTextFile(candidateFile(problem, name));
        c.source = text ? *text : std::string("// missing fixture ") + name;
        c.params = std::move(params);
        return c;
    }

  private:
    QTemporaryDir dir_;
    std::unique_ptr<eval::LocalExecutor> executor_;
    std::unique_ptr<store::Database> db_;
    std::unique_ptr<eval::Evaluator> evaluator_;
};

} // namespace kw::test
