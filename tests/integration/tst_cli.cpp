// kernelwright-cli as a user runs it: exit codes, messages, JSON.
#include "cli_runner.h"
#include "store/database.h"
#include "store/search_store.h"

#include <QtCore/QDir>
#include <QtCore/QElapsedTimer>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QProcess>
#include <QtCore/QRegularExpression>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

namespace {
using Run = kw::test::CliRun;

QString data(const std::string& rel) {
    return QString::fromStdString((kw::test::dataDir() / rel).string());
}
} // namespace

class TestCli : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;

    Run cli(const QStringList& args, int timeoutMs = 120000) {
        return kw::test::runCli(QStringList{"--db", dir_.path() + "/ws.db"} + args, timeoutMs);
    }

  private slots:
    void versionAndHelp() {
        auto v = cli({"--version"});
        QCOMPARE(v.code, 0);
        QVERIFY(v.out.startsWith("kernelwright-cli "));
        auto h = cli({"--help"});
        QCOMPARE(h.code, 0);
        QVERIFY(h.out.contains("problem check"));
        QCOMPARE(cli({"frobnicate"}).code, 2);
        QCOMPARE(cli({}).code, 2);
        auto eh = cli({"eval", "--help"});
        QCOMPARE(eh.code, 0);
        QVERIFY(eh.out.contains("Exit codes"));
    }

    void problemCheck() {
        auto ok = cli({"problem", "check", data("problems/saxpy")});
        QCOMPARE(ok.code, 0);
        QVERIFY2(ok.out.contains("extern \"C\" void saxpy(const float* x, const float* z, float* y, int64_t N, float a)"),
                 qPrintable(ok.out));
        QVERIFY(ok.out.contains("UNROLL: 1 | 2 | 4 | 8 = 4"));
        auto bad = cli({"problem", "check", data("problems/bad_schema")});
        QCOMPARE(bad.code, 10);
        QVERIFY2(bad.err.contains("problem.json: /backend:"), qPrintable(bad.err));
        auto missing = cli({"problem", "check", data("problems/nowhere")});
        QCOMPARE(missing.code, 10);
        QVERIFY(missing.err.contains("not a directory"));
    }

    void problemListShowsTheBundledProblems() {
        auto r = cli({"problem", "list"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("cpu/mbdt"), qPrintable(r.out));
        QVERIFY(r.out.contains("cpu/rmsnorm_fwd"));
        QVERIFY(!r.out.contains("INVALID"));
    }

    void evalUsageErrors() {
        const QString saxpy = data("problems/saxpy");
        QCOMPARE(cli({"eval"}).code, 2);
        QCOMPARE(cli({"eval", "--problem", saxpy}).code, 2);
        QCOMPARE(cli({"eval", "--problem", saxpy, "--reference", "--bogus"}).code, 2);
        auto missingFile = cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/nope.cpp")});
        QCOMPARE(missingFile.code, 2);
        QVERIFY(missingFile.err.contains("nope.cpp: no such file"));
        auto badParam = cli({"eval", "--problem", saxpy, "--seed", "unrolled", "--param", "UNROLL=3"});
        QCOMPARE(badParam.code, 2);
        QVERIFY2(badParam.err.contains("UNROLL=3 is outside its domain 1 | 2 | 4 | 8"), qPrintable(badParam.err));
        auto badSeed = cli({"eval", "--problem", saxpy, "--seed", "fast"});
        QCOMPARE(badSeed.code, 2);
        QVERIFY(badSeed.err.contains("seeds: unrolled"));
        auto badProblem = cli({"eval", "--problem", data("problems/bad_json"), "--reference"});
        QCOMPARE(badProblem.code, 10);
        QVERIFY(badProblem.err.contains("not valid JSON"));
    }

    void anAvx2CapBuildsCandidatesWithoutAvx512() {
        // KW_MAX_ISA=avx2: what an AVX2-only CPU would build, on any host. The
        // candidate does not compile where AVX-512 is on.
        QFile seed(data("problems/saxpy/unrolled.cpp"));
        QVERIFY(seed.open(QIODevice::ReadOnly));
        QFile guarded(dir_.path() + "/no_avx512.cpp");
        QVERIFY(guarded.open(QIODevice::WriteOnly));
        guarded.write("#ifdef __AVX512F__\n#error built with AVX-512 under KW_MAX_ISA=avx2\n#endif\n" + seed.readAll());
        guarded.close();
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("KW_MAX_ISA", "avx2");
        // Jobs may run as another user (root drops to a per-worker uid).
        QFile::setPermissions(dir_.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                               QFileDevice::ExeGroup | QFileDevice::ExeOther);
        const QString jobs = dir_.path() + "/avx2-jobs";
        const auto run =
            kw::test::runCli({"--db", dir_.path() + "/avx2.db", "eval", "--problem", data("problems/saxpy"), "--candidate",
                              guarded.fileName(), "--check-only", "--keep-job", "--jobs-dir", jobs, "--json"},
                             300000, env);
        const auto result = QJsonDocument::fromJson(run.out.toUtf8()).object();
        QVERIFY2(run.code == 0, qPrintable(result["message"].toString() + result["build_log"].toString() + run.err));
        QCOMPARE(result["status"].toString(), QString("ok"));
        const auto dirs = QDir(jobs).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(dirs.size(), 1);
        QFile script(jobs + "/" + dirs[0] + "/run.sh");
        QVERIFY(script.open(QIODevice::ReadOnly));
        QVERIFY(script.readAll().contains("-mno-avx512f"));
    }

    void referenceAgainstItselfIsCorrectAndEvenlyMatched() {
        auto r =
            cli({"eval", "--problem", data("problems/saxpy"), "--reference", "--json", "--no-cache", "--time-budget", "0.3"});
        QCOMPARE(r.code, 0);
        const auto j = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(j["status"].toString(), QString("ok"));
        QCOMPARE(j["checks"].toArray().size(), 9);
        const double speedup = j["speedup"].toDouble();
        const auto timing = j["timing"].toArray()[0].toObject();
        // A sanity bound only (the 0.95-1.05 target is measured by the
        // benchmark, on a quiet machine), and one the run sets itself: the
        // margin grows with the spread of its own samples. On a quiet machine
        // (CVs of a few %) it is about 0.7-1.4; with both cores busy, a
        // microsecond kernel's samples are preempted at random and a fixed
        // bound failed (2.14 once); the run's CVs then say how far to trust it.
        const double cv = std::max(timing["candidate"].toObject()["cv"].toDouble(),
                                   timing["baselines"].toArray()[0].toObject()["cv"].toDouble());
        const double margin = 0.3 + 2 * cv;
        QVERIFY2(speedup > 0 && std::abs(std::log(speedup)) < margin,
                 qPrintable(QStringLiteral("%1 (CV %2, margin %3)").arg(speedup).arg(cv).arg(margin)));
        QVERIFY(timing["reps"].toInt() >= 10);
        QCOMPARE(timing["baselines"].toArray()[0].toObject()["name"].toString(), QString("reference"));
        QVERIFY(timing["candidate"].toObject()["samples"].toArray().size() == timing["reps"].toInt());
    }

    // Bytes that are not UTF-8 in a candidate's file name reach the JSON as
    // U+FFFD: they used to abort the CLI through nlohmann's exception.
    void namesThatAreNotUtf8StillGiveJson() {
        const std::string name = dir_.path().toStdString() + "/k\xff\xfe.cpp";
        QVERIFY(std::filesystem::copy_file(kw::test::dataDir() / "candidates" / "saxpy" / "one_seed.cpp", name));
        QProcess p;
        p.start("/bin/bash",
                {"-c",
                 "\"$0\" --db \"$1\" eval --problem \"$2\" --candidate \"$3\"$'k\\xff\\xfe.cpp' --check-only --json --no-cache",
                 kw::test::cliPath(), dir_.path() + "/ws.db", data("problems/saxpy"), dir_.path() + "/"});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        const auto j = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QVERIFY2(!j.isEmpty(), qPrintable(QString::fromUtf8(p.readAllStandardError())));
        QVERIFY2(j["candidate"].toString().contains(QChar(0xFFFD)), qPrintable(j["candidate"].toString()));
    }

    // A result names its input secret; given back, it reproduces the inputs
    // (the same errors on every check case), and says they were given.
    void anInputSecretReproducesTheInputs() {
        const auto run = [&](const QString& secret) {
            QStringList args{"eval",   "--problem", data("problems/saxpy"), "--seed", "unrolled", "--check-only",
                             "--json", "--no-cache"};
            if (!secret.isEmpty()) args << "--input-secret" << secret;
            return cli(args).json().object();
        };
        const auto drawn = run({});
        QCOMPARE(drawn["env"].toObject()["isolation"].toObject()["input_seed"].toString(), QString("secret"));
        const QString secret = drawn["input_secret"].toString();
        QVERIFY(!secret.isEmpty());
        const auto again = run(secret);
        QCOMPARE(again["input_secret"].toString(), secret);
        QCOMPARE(again["env"].toObject()["isolation"].toObject()["input_seed"].toString(), QString("given"));
        QCOMPARE(again["checks"].toArray(), drawn["checks"].toArray());
        QCOMPARE(cli({"eval", "--problem", data("problems/saxpy"), "--reference", "--input-secret", "-3"}).code, 2);
    }

    void verdictAndExitCodes() {
        const QString saxpy = data("problems/saxpy");
        auto compile =
            cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/compile_error.cpp"), "--check-only"});
        QCOMPARE(compile.code, 4);
        QVERIFY(compile.out.contains("status    compile_error"));
        QVERIFY2(compile.out.contains("error:"), qPrintable(compile.out)); // the compiler's own words
        auto wrong =
            cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/leaves_unwritten.cpp"), "--check-only"});
        QCOMPARE(wrong.code, 3);
        QVERIFY2(wrong.out.contains("FAIL    one [N=1] seed 1, y: unwritten"), qPrintable(wrong.out));
        auto violation = cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/fork_bomb.cpp")});
        QCOMPARE(violation.code, 8);
        auto crash = cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/segfault.cpp"), "--check-only"});
        QCOMPARE(crash.code, 5);
        // The same evaluation again comes from the cache.
        auto again = cli({"eval", "--problem", saxpy, "--candidate", data("candidates/saxpy/segfault.cpp"), "--check-only"});
        QCOMPARE(again.code, 5);
        QVERIFY(again.out.contains("cached result"));
    }

    void benchPrintsItsTableAndJson() {
        const QString json = dir_.path() + "/bench.json";
        auto r =
            cli({"bench", "--problems", data("problems/saxpy"), "--budget", "3", "--time-budget", "0.1", "--json", json}, 600000);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("geometric-mean speedup"), qPrintable(r.out));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto j = QJsonDocument::fromJson(f.readAll()).object();
        const auto levels = j["machine"].toObject()["bandwidth"].toArray();
        QVERIFY(!levels.isEmpty());
        QCOMPARE(levels.last().toObject()["level"].toString(), QString("DRAM"));
        QVERIFY(levels.last().toObject()["gbs_1"].toDouble() > 0);
        const auto row = j["problems"].toArray()[0].toObject();
        QCOMPARE(row["problem"].toString(), QString("saxpy"));
        QCOMPARE(row["evaluations"].toInt(), 3);
        QVERIFY(row["speedup"].toDouble() > 0);
        QVERIFY(row["roofline_fraction"].toDouble() > 0);
        QCOMPARE(row["bound"].toString(), QString("memory")); // saxpy moves 12 bytes per 2 flops
        QVERIFY(j["complete"].toBool());
        QCOMPARE(j["problems_asked"].toInt(), 1);
        // The row's kernel was timed again alone: stderr names each finalist.
        QVERIFY2(r.err.contains("saxpy: finalist node") && r.err.contains("alone"), qPrintable(r.err));
        auto none = cli({"bench", "--problems", data("problems/saxpy"), "--finalists", "0"});
        QCOMPARE(none.code, 2);
        QVERIFY2(none.err.contains("--finalists expects"), qPrintable(none.err));
    }

    // --gpus naming two GPUs: two problems benched at once, one on each GPU
    // (the second's search starts before the first's ends); rows keep the
    // order the problems were asked in.
    void benchSpreadsProblemsOverGpus() {
        const QString json = dir_.path() + "/lanes.json";
        const QString db = dir_.path() + "/lanes.db";
        auto r = cli({"--db", db, "bench", "--problems", data("problems/saxpy") + "," + data("problems/poly_eval"), "--budget",
                      "2", "--finalists", "1", "--time-budget", "0.05", "--gpus", "0,1", "--json", json},
                     600000);
        QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
        QVERIFY2(r.err.contains("2 problems at once, one on each GPU (1 workers each)"), qPrintable(r.err));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto rows = QJsonDocument::fromJson(f.readAll()).object()["problems"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["problem"].toString(), QString("saxpy"));
        QCOMPARE(rows[1].toObject()["problem"].toString(), QString("poly_eval"));
        auto opened = kw::store::Database::open(db.toStdString());
        QVERIFY(opened.ok());
        auto searches = kw::store::SearchStore(*opened).listSearches();
        QVERIFY(searches.ok());
        QCOMPARE(searches->size(), std::size_t{2});
        const auto& a = (*searches)[0];
        const auto& b = (*searches)[1];
        // ISO times with milliseconds compare as text.
        QVERIFY2(b.createdAt < a.updatedAt && a.createdAt < b.updatedAt,
                 (a.createdAt + " - " + a.updatedAt + " / " + b.createdAt + " - " + b.updatedAt).c_str());
    }

    // The JSON is written after every problem: a bench killed after its first
    // problem keeps that row, marked incomplete.
    void benchKeepsWhatFinishedWhenKilled() {
        const QString json = dir_.path() + "/partial.json";
        QFile::remove(json);
        QProcess p;
        p.start(kw::test::cliPath(), {"--db", dir_.path() + "/partial.db", "bench", "--problems",
                                      data("problems/saxpy") + "," + data("problems/poly_eval"), "--budget", "3", "--time-budget",
                                      "0.1", "--json", json});
        QVERIFY(p.waitForStarted());
        QJsonObject seen;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 600000 && p.state() == QProcess::Running) {
            p.waitForFinished(50);
            QFile f(json);
            if (!f.open(QIODevice::ReadOnly)) continue;
            seen = QJsonDocument::fromJson(f.readAll()).object();
            if (!seen.isEmpty()) break;
        }
        // The first write comes after saxpy, while poly_eval's search runs.
        QVERIFY2(!seen.isEmpty(), "no JSON was written while the bench ran");
        QCOMPARE(seen["problems"].toArray().size(), 1);
        QCOMPARE(seen["problems"].toArray()[0].toObject()["problem"].toString(), QString("saxpy"));
        QCOMPARE(seen["complete"].toBool(), false);
        QCOMPARE(seen["problems_asked"].toInt(), 2);
        p.kill();
        p.waitForFinished(10000);
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto kept = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!kept["problems"].toArray().isEmpty()); // whole: written atomically, never half
        f.close();

        // --resume goes on with it: saxpy's row is kept as it was, only poly_eval runs.
        const QStringList again{"--db",
                                dir_.path() + "/partial.db",
                                "bench",
                                "--problems",
                                data("problems/saxpy") + "," + data("problems/poly_eval"),
                                "--budget",
                                "3",
                                "--time-budget",
                                "0.1",
                                "--json",
                                json,
                                "--resume"};
        const auto resumed = cli(again, 600000);
        QVERIFY2(resumed.code == 0, qPrintable(resumed.out + resumed.err));
        QVERIFY2(resumed.err.contains("bench: saxpy: kept from " + json), qPrintable(resumed.err));
        QVERIFY2(!resumed.err.contains("saxpy: finalist node") && resumed.err.contains("poly_eval: finalist node"),
                 qPrintable(resumed.err));
        QVERIFY2(resumed.out.contains("saxpy") && resumed.out.contains("poly_eval"), qPrintable(resumed.out)); // one table
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto whole = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QVERIFY(whole["complete"].toBool());
        const auto rows = whole["problems"].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()["problem"].toString(), QString("saxpy"));
        QCOMPARE(rows[0].toObject()["wall_s"].toDouble(), seen["problems"].toArray()[0].toObject()["wall_s"].toDouble());
        QCOMPARE(rows[0].toObject()["best_s"].toDouble(), seen["problems"].toArray()[0].toObject()["best_s"].toDouble());

        // A call that names only some of the run's problems keeps the others' rows.
        QStringList some = again;
        some[some.indexOf("--problems") + 1] = data("problems/poly_eval");
        const auto partly = cli(some, 600000);
        QVERIFY2(partly.code == 0, qPrintable(partly.out + partly.err));
        QVERIFY2(partly.err.contains("bench: saxpy: kept from " + json + " (not named this time"), qPrintable(partly.err));
        QVERIFY2(!partly.err.contains("finalist node"), qPrintable(partly.err)); // nothing searched again
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto still = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QCOMPARE(still["problems"].toArray().size(), 2);
        QCOMPARE(still["problems_asked"].toInt(), 2);
        QVERIFY(still["complete"].toBool());
        QCOMPARE(still["problems"].toArray()[0].toObject()["best_s"].toDouble(), rows[0].toObject()["best_s"].toDouble());

        // Other settings: refused, saying which, and the file is left as it was.
        QStringList other = again;
        other[other.indexOf("--budget") + 1] = "4";
        const auto refused = cli(other, 600000);
        QCOMPARE(refused.code, 2);
        QVERIFY2(refused.err.contains("other settings (config:"), qPrintable(refused.err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QJsonDocument::fromJson(f.readAll()).object()["problems"].toArray().size(), 2);
        QCOMPARE(cli({"bench", "--problems", data("problems/saxpy"), "--resume"}).code, 2); // no --json to go on with
        // A file that is not a bench's: refused with what to do, before any search.
        const QString garbage = dir_.path() + "/garbage.json";
        QFile g(garbage);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(R"({"problems": 3, "machine": {"cpu": 5}})");
        g.close();
        QStringList onGarbage = again;
        onGarbage[onGarbage.indexOf(json)] = garbage;
        const auto notBench = cli(onGarbage, 600000);
        QCOMPARE(notBench.code, 2);
        QVERIFY2(notBench.err.contains("is not a bench's JSON; run without --resume"), qPrintable(notBench.err));
    }

    void unusableWorkspaceIsReported() {
        QFile garbage(dir_.path() + "/garbage.db");
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write(QByteArray(200, 'x'));
        garbage.close();
        QProcess p;
        p.start(kw::test::cliPath(), {"--db", garbage.fileName(), "eval", "--problem", data("problems/saxpy"), "--reference"});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 1);
        QVERIFY(QString::fromUtf8(p.readAllStandardError()).contains("garbage.db"));
        QCOMPARE(garbage.size(), 200); // untouched
    }

    // Run management from the CLI: a name, tags and notes on a real search,
    // the list's archive filter, refusals that say what to fix, and delete
    // only when asked twice over (--yes).
    void searchesKeepNamesTagsNotesAndGoAway() {
        const QString db = dir_.path() + "/notes.db";
        const auto run = [&](const QStringList& args) { return kw::test::runCli(QStringList{"--db", db} + args, 300000); };
        const auto started =
            run({"search", "start", "--problem", data("problems/saxpy"), "--budget", "2", "--check-only", "--workers", "1"});
        QVERIFY2(started.code == 0, qPrintable(started.err));
        QCOMPARE(run({"search", "rename", "1", "unroll sweep"}).code, 0);
        const auto tagged = run({"search", "tag", "1", "VEC=8", "sweep:v2"});
        QVERIFY2(tagged.out.contains("tags: VEC=8 sweep:v2"), qPrintable(tagged.out + tagged.err));
        QCOMPARE(run({"search", "note", "1", "check-only first\nthen timed"}).code, 0);
        auto list = run({"search", "list"});
        QVERIFY2(list.out.contains("unroll sweep [VEC=8, sweep:v2]"), qPrintable(list.out));
        const auto show = run({"search", "show", "1"});
        QVERIFY2(show.out.contains("name   unroll sweep") && show.out.contains("tags   VEC=8 sweep:v2"), qPrintable(show.out));

        const auto badTag = run({"search", "tag", "1", "two words"});
        QCOMPARE(badTag.code, 2);
        QVERIFY2(badTag.err.contains("no spaces or commas") && badTag.err.contains("nothing changed"), qPrintable(badTag.err));
        QCOMPARE(run({"search", "rename", "7", "x"}).code, 2);

        // Nodes timed again alone: a check-only node gets its first speedup there.
        const auto retimed = run({"search", "retime", "1", "#1", "--time-budget", "0.2"});
        QVERIFY2(retimed.code == 0 && retimed.out.contains(QRegularExpression("#1  -\\s+[0-9.]+x \\([0-9.]+-[0-9.]+\\)\\s+ok")),
                 qPrintable(retimed.out + retimed.err));
        const auto noNode = run({"search", "retime", "1", "#9"});
        QVERIFY2(noNode.code == 2 && noNode.err.contains("has no node #9"), qPrintable(noNode.err));

        QCOMPARE(run({"search", "archive", "1"}).code, 0);
        list = run({"search", "list"});
        QVERIFY2(!list.out.contains("unroll sweep") && list.out.contains("(1 archived; search list --all lists them too)"),
                 qPrintable(list.out));
        QVERIFY(run({"search", "list", "--all"}).out.contains("unroll sweep [VEC=8, sweep:v2] (archived)"));

        const auto unasked = run({"search", "delete", "1"});
        QCOMPARE(unasked.code, 2);
        QVERIFY2(unasked.err.contains("add --yes to delete it"), qPrintable(unasked.err));
        const auto deleted = run({"search", "delete", "1", "--yes"});
        QVERIFY2(deleted.code == 0 && deleted.out.contains("search 1 deleted: 2 nodes"), qPrintable(deleted.out + deleted.err));
        QVERIFY(run({"search", "show", "1"}).code != 0);
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
