// The cuda backend without a GPU: the bundled CUDA problem loads, its job dir
// holds the CUDA harness with the candidate's params baked into run.sh, the
// CUDA rules allow PTX but not the device's controls, and — wherever nvcc is
// installed — the compile-only stage turns a build error into a compile_error
// before the job reaches a (here unreachable) GPU host, while the full harness
// builds with nvcc and says plainly that this host has no GPU to run it.
#include "eval_fixture.h"

#include "eval/cuda_compile_check.h"
#include "eval/ncu_metrics.h"
#include "eval/ssh_executor.h"
#include "eval/static_rules.h"
#include "problem/problem_loader.h"
#include "util/files.h"

#include <QtTest/QtTest>

using namespace kw;

namespace {

problem::ProblemSpec loadCudaProblem() {
    auto spec = problem::loadProblem(test::bundledProblemsDir() / "gpu" / "cuda_rmsnorm_fwd");
    if (!spec) qFatal("cuda_rmsnorm_fwd: %s", spec.error().message.c_str());
    return *spec;
}

const char* const kSyntaxError = R"(
__global__ void k(float* y) { y[threadIdx.x] = 1.0f }   // missing ';'
void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) { k<<<1, 1>>>(y); }
)";

// Host code called from a kernel: only nvcc's device pass rejects it.
const char* const kDeviceError = R"(
#include <cstdlib>
__global__ void k(float* y) { y[threadIdx.x] = static_cast<float>(std::rand()); }
void rmsnorm_fwd(const float* x, const float* w, float* y, int64_t M, int64_t N, float eps) { k<<<1, 1>>>(y); }
)";

} // namespace

class TestCudaBackend : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QVERIFY(fixture_.ready()); }

    void bundledProblemLoadsWithItsArch() {
        const auto spec = loadCudaProblem();
        QVERIFY(spec.backend == problem::Backend::Cuda);
        QCOMPARE(spec.cudaArch, std::string("sm_90"));
        QCOMPARE(spec.compileFlags, std::vector<std::string>{"-O3"});
        QVERIFY(spec.seeds.size() >= 1);
        QVERIFY(spec.seeds.front().params.size() >= 48);
    }

    void aBadArchIsRefusedWithTheFix() {
        QTemporaryDir dir;
        const auto src = test::bundledProblemsDir() / "gpu" / "cuda_rmsnorm_fwd";
        std::filesystem::copy(src, dir.path().toStdString(), std::filesystem::copy_options::recursive);
        const auto json = std::filesystem::path(dir.path().toStdString()) / "problem.json";
        auto text = readTextFile(json);
        QVERIFY(text.ok());
        const auto at = text->find("\"sm_90\"");
        QVERIFY(at != std::string::npos);
        QVERIFY(writeFileAtomic(json, text->replace(at, 7, "\"hopper\"")).ok());
        auto spec = problem::loadProblem(dir.path().toStdString());
        QVERIFY(!spec.ok());
        QVERIFY2(spec.error().message.find("/compile/arch") != std::string::npos, spec.error().message.c_str());
        QVERIFY2(spec.error().message.find("sm_90") != std::string::npos, spec.error().message.c_str());
    }

    void jobDirHoldsTheCudaHarnessAndTheParams() {
        const auto spec = loadCudaProblem();
        const auto& seed = spec.seeds.front();
        eval::EvalOptions options;
        options.useCache = false;
        // Never submitted: only the files are looked at.
        auto job = fixture_.evaluator().prepare(spec, eval::Candidate{seed.name, seed.text, {{"VEC", "4"}, {"STREAM_Y", "true"}}},
                                                options);
        QVERIFY2(job.ok(), job.ok() ? "" : job.error().message.c_str());
        QVERIFY(!job->finished);
        const auto dir = job->request.dir;
        for (const char* f : {"src/judge_main.cpp", "src/kernel_runner.cpp", "src/judge_protocol.h", "src/runner_seccomp.h",
                              "src/runner_call.inc", "src/device_mirror.cu", "src/device_mirror.h", "src/driver_api.h",
                              "src/reference.cu", "src/candidate.cu", "src/kernel.h", "src/harness_problem.inc", "job.json"})
            QVERIFY2(std::filesystem::exists(dir / f), f);
        auto run = readTextFile(dir / "run.sh");
        QVERIFY(run.ok());
        QVERIFY2(run->find("ARCH=\"${KW_CUDA_ARCH:-sm_90}\"") != std::string::npos, run->c_str());
        QVERIFY2(run->find("'-DVEC=4'") != std::string::npos && run->find("'-DSTREAM_Y=1'") != std::string::npos, run->c_str());
        QVERIFY(run->find("-DKW_CUDA") != std::string::npos);
        // The judge and the runner each built for the device: kernels never run in the judge's process.
        QVERIFY2(run->find("-DKW_CUDA -o build/harness \"${CUPTI_JUDGE[@]}\" src/judge_main.cpp") != std::string::npos,
                 run->c_str());
        QVERIFY2(run->find("-DKW_CUDA -o build/runner src/kernel_runner.cpp \"${CUPTI[@]}\"") != std::string::npos, run->c_str());
        // The runner traces its breakdown with the toolkit's CUPTI, named from its own header.
        QVERIFY2(run->find("cupti_activity.h") != std::string::npos && run->find("-DKW_CUPTI_KERNEL=") != std::string::npos,
                 run->c_str());
        QVERIFY(run->find("compile-only") != std::string::npos);
        auto inc = readTextFile(dir / "src" / "harness_problem.inc");
        QVERIFY(inc.ok());
        // The runner calls the launcher with the pointers it opened: every buffer argument comes from kw_data.
        auto call = readTextFile(dir / "src" / "runner_call.inc");
        QVERIFY(call.ok());
        QVERIFY2(call->find("kw_data[0]") != std::string::npos && call->find("kw_data[2]") != std::string::npos, call->c_str());
        auto manifest = readTextFile(dir / "job.json");
        QVERIFY(manifest.ok() && manifest->find("\"backend\": \"cuda\"") != std::string::npos);
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    // At the ncu level the judge gets Nsight Compute's command line and the
    // metrics (it profiles one call after the timed rounds); a host without
    // ncu gets a note instead. Other levels pass the judge nothing.
    void theNcuLevelHandsTheJudgeNcu() {
        const auto spec = loadCudaProblem();
        const auto& seed = spec.seeds.front();
        const auto runScript = [&](eval::ProfileLevel level) {
            eval::EvalOptions options;
            options.useCache = false;
            options.profile = level;
            auto job = fixture_.evaluator().prepare(spec, eval::Candidate{seed.name, seed.text, {}}, options);
            if (!job.ok()) return std::string("not prepared: ") + job.error().message;
            auto run = readTextFile(job->request.dir / "run.sh");
            std::error_code ec;
            std::filesystem::remove_all(job->request.dir, ec);
            return run.ok() ? *run : std::string("no run.sh");
        };
        const std::string ncu = runScript(eval::ProfileLevel::Ncu), plain = runScript(eval::ProfileLevel::None);
        QVERIFY2(ncu.find("JUDGE_PROFILE=(--ncu \"$NCU\" '" + eval::ncuMetricList() + "')") != std::string::npos, ncu.c_str());
        QVERIFY2(ncu.find("profile/unavailable-ncu.txt") != std::string::npos, ncu.c_str());
        QVERIFY2(ncu.find("./build/harness run \"${JUDGE_PROFILE[@]}\"") != std::string::npos, ncu.c_str());
        QVERIFY2(plain.find("JUDGE_PROFILE=()\n") != std::string::npos && plain.find("--ncu") == std::string::npos,
                 plain.c_str());
    }

    // Both GPU judges take ncu from one lookup in run.sh: KW_NCU, PATH, then
    // the bin/ of CUDA_HOME, of the toolkit of nvcc and of /usr/local/cuda.
    void ncuIsLookedForInOnePlaceForBothJudges() {
        QTemporaryDir root;
        QVERIFY(root.isValid());
        const QString home = root.filePath("toolkit");
        QVERIFY(QDir().mkpath(home + "/bin"));
        QFile fake(home + "/bin/ncu");
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\n");
        fake.close();
        fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const auto found = [&](const QStringList& env) {
            QProcess sh;
            QProcessEnvironment e;
            e.insert("PATH", "/usr/bin:/bin"); // no ncu here
            for (const auto& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
            sh.setProcessEnvironment(e);
            sh.start("bash", {"-c", QString::fromStdString(eval::ncuLookupScript()) + "printf %s \"$NCU\""});
            sh.waitForFinished(10000);
            return QString::fromUtf8(sh.readAllStandardOutput());
        };
        QCOMPARE(found({"KW_NCU=/opt/ncu"}), QString("/opt/ncu"));
        QCOMPARE(found({"CUDA_HOME=" + home}), home + "/bin/ncu");
        QCOMPARE(found({"CUDA_ROOT=" + home}), home + "/bin/ncu");
        if (!QFile::exists("/usr/local/cuda/bin/ncu")) QCOMPARE(found({}), QString());
        // The torch judge reads what run.sh found; the cuda judge gets it as --ncu.
        problem::ProblemSpec torch;
        for (const auto& dir : problem::findProblemDirs(test::bundledProblemsDir() / "gpu"))
            if (auto spec = problem::loadProblem(dir); spec && spec->backend == problem::Backend::Torch) torch = *spec;
        QVERIFY(!torch.seeds.empty());
        eval::EvalOptions options;
        options.useCache = false;
        options.profile = eval::ProfileLevel::Ncu;
        auto job = fixture_.evaluator().prepare(torch, eval::Candidate{"s", torch.seeds.front().text, {}}, options);
        QVERIFY2(job.ok(), job.ok() ? "" : job.error().message.c_str());
        auto run = readTextFile(job->request.dir / "run.sh");
        QVERIFY(run.ok());
        QVERIFY2(run->find(eval::ncuLookupScript() + "export KW_NCU=\"$NCU\"\n") != std::string::npos, run->c_str());
        std::error_code ec;
        std::filesystem::remove_all(job->request.dir, ec);
    }

    void cudaRulesAllowPtxButNotTheDevice() {
        const std::string ptx =
            "__device__ unsigned lane() { unsigned r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r; }\n";
        QVERIFY(eval::checkCudaRules(ptx, {}).empty());
        QVERIFY(!eval::checkStaticRules(ptx).empty()); // the CPU rules refuse inline assembly
        const auto reset = eval::checkCudaRules("void f() { cudaDeviceReset(); }\n", {});
        QCOMPARE(reset.size(), std::size_t(1));
        QCOMPARE(reset.front().rule, std::string("device-control"));
        QCOMPARE(eval::checkCudaRules("void f() { system(\"x\"); }\n", {}).front().rule, std::string("processes"));
        QCOMPARE(eval::checkCudaRules("void f() { cublasSgemm(0); }\n", {"cublas"}).front().rule, std::string("reference-op"));
        // Streams are fine: the harness synchronizes the whole device before its end event.
        QVERIFY(eval::checkCudaRules("cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);\n", {}).empty());
    }

    void compileOnlyStageKeepsBuildErrorsHere() {
        if (eval::findNvcc().empty()) QSKIP("no nvcc on this machine: the compile-only stage has nothing to run");
        // Port 1 on loopback: nothing listens, so any job that reached the executor would fail as an infra error.
        eval::SshExecutorConfig sshConfig;
        eval::SshHost host;
        host.host = "127.0.0.1";
        host.port = 1;
        sshConfig.hosts = {host};
        sshConfig.connectAttempts = 1;
        auto ssh = eval::SshExecutor::create(sshConfig);
        QVERIFY2(ssh.ok(), ssh.ok() ? "" : ssh.error().message.c_str());
        eval::EvaluatorConfig config;
        config.jobsRoot = fixture_.root() / "remote-jobs";
        eval::Evaluator evaluator(**ssh, nullptr, config);
        const auto spec = loadCudaProblem();
        eval::EvalOptions options;
        options.useCache = false;

        for (const char* source : {kSyntaxError, kDeviceError}) {
            auto job = evaluator.prepare(spec, eval::Candidate{"broken", source, {}}, options);
            QVERIFY2(job.ok(), job.ok() ? "" : job.error().message.c_str());
            QVERIFY2(job->finished.has_value(), "a candidate that does not build must not travel");
            QCOMPARE(job->finished->status, eval::EvalStatus::CompileError);
            QVERIFY2(job->finished->message.find("compile-only") != std::string::npos, job->finished->message.c_str());
            QVERIFY2(job->finished->buildLog.find("error") != std::string::npos, job->finished->buildLog.c_str());
        }
        // The seed builds, so its job is ready to go to the host.
        const auto& seed = spec.seeds.front();
        auto good = evaluator.prepare(spec, eval::Candidate{seed.name, seed.text, {{"VEC", "4"}, {"THREADS", "256"}}}, options);
        QVERIFY2(good.ok(), good.ok() ? "" : good.error().message.c_str());
        QVERIFY2(!good->finished, good->finished ? good->finished->buildLog.c_str() : "");
        QVERIFY(std::filesystem::exists(good->request.dir / "run.sh"));
        QVERIFY2(!std::filesystem::exists(good->request.dir / "build" / "candidate_check.so"), "the check's build stays here");
    }

    void harnessBuildsWithNvccAndNeedsAGpu() {
        if (eval::findNvcc().empty()) QSKIP("no nvcc on this machine");
        const auto spec = loadCudaProblem();
        const auto& seed = spec.seeds.front();
        eval::EvalOptions options;
        options.useCache = false;
        options.checkOnly = true;
        auto r = fixture_.evaluator().evaluate(spec, eval::Candidate{seed.name, seed.text, {}}, options);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        if (r->correct()) return; // a host with a GPU ran it for real
        QVERIFY2(r->status == eval::EvalStatus::InfraError,
                 (eval::statusName(r->status) + ": " + r->message + "\n" + r->buildLog).c_str());
        QVERIFY2(r->message.find("the judge cannot use the GPU") != std::string::npos, r->message.c_str());
    }

  private:
    test::EvalFixture fixture_{2};
};

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cuda_backend.moc"
