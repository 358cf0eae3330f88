// Every bundled problem is valid, its reference passes against itself, and
// every seed is correct on every check shape for every value of every param
// (each value at least once, the others at their defaults).
#include "eval_fixture.h"

#include <QtTest/QtTest>

using namespace ks;

class TestBundledProblems : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(fixture_.ready()); }

    void everyProblemIsValidAndItsSeedsCorrect() {
        const auto dirs = problem::findProblemDirs(test::bundledProblemsDir() / "cpu");
        QVERIFY2(dirs.size() >= 2, "expected the bundled CPU problems");
        eval::EvalOptions options;
        options.checkOnly = true;
        options.useCache = false;
        struct Job {
            std::string label;
            const problem::ProblemSpec* spec;
            eval::PreparedJob job;
            std::future<eval::JobOutcome> outcome;
        };
        std::vector<problem::ProblemSpec> specs;
        specs.reserve(dirs.size());
        for (const auto& dir : dirs) {
            auto spec = problem::loadProblem(dir);
            QVERIFY2(spec.ok(), spec.ok() ? "" : spec.error().message.c_str());
            QVERIFY2(!spec->seeds.empty(), (spec->name + " has no seed").c_str());
            specs.push_back(*spec);
        }
        std::vector<Job> jobs;
        auto submit = [&](const problem::ProblemSpec& spec, eval::Candidate c) {
            auto job = fixture_.evaluator().prepare(spec, c, options);
            QVERIFY2(job.ok(), job.ok() ? "" : job.error().message.c_str());
            Job j{spec.name + "/" + c.name + " " + problem::formatAssignment(c.params), &spec, std::move(*job), {}};
            if (!j.job.finished) j.outcome = fixture_.executor().submit(j.job.request);
            jobs.push_back(std::move(j));
        };
        for (const auto& spec : specs) {
            submit(spec, eval::Candidate{"reference", spec.reference.text, {}});
            for (const auto& seed : spec.seeds) {
                submit(spec, eval::Candidate{seed.name, seed.text, {}});
                for (const auto& param : seed.params.params)
                    for (const auto& value : param.values())
                        if (value != param.defaultValue) submit(spec, eval::Candidate{seed.name, seed.text, {{param.name, value}}});
            }
        }
        for (auto& j : jobs) {
            eval::JobOutcome outcome;
            if (j.outcome.valid()) outcome = j.outcome.get();
            const auto r = fixture_.evaluator().finish(*j.spec, j.job, outcome);
            QVERIFY2(r.correct(), (j.label + ": " + eval::statusName(r.status) + " — " + r.message + "\n" + r.buildLog).c_str());
        }
        qInfo("%zu evaluations, all correct", jobs.size());
    }

private:
    test::EvalFixture fixture_{2};
};

QTEST_GUILESS_MAIN(TestBundledProblems)
#include "tst_bundled_problems.moc"
