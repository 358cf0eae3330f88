// The knowledge-base window, offscreen: front matter checked as you type
// (an invalid id is said under the field and the save refused), save and
// reload (the file on disk and the index), rename and delete, the shipped KB
// read-only, the import preview (nothing written before the confirmation),
// the skill review queue (approve, reject, edit) and the retrieval tester's
// ranking. Each view is saved as a picture into KW_SCREENSHOT_DIR.
#include "editor/code_view.h"
#include "kb/document_editor.h"
#include "kb/front_matter_form.h"
#include "kb/kb_import_dialog.h"
#include "kb/kb_tree_model.h"
#include "kb/kb_window.h"
#include "kb/new_platform_wizard.h"
#include "kb/node_query.h"
#include "kb/retrieval_tester.h"
#include "kb/skill_review_view.h"
#include "store/evaluation_store.h"
#include "store/profile_store.h"
#include "store/search_store.h"
#include "store_records.h"
#include "test_support.h"
#include "tiny_pdf.h"
#include "util/files.h"
#include "util/text.h"
#include "windows/main_window.h"

#include <QtCore/QDir>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QPlainTextEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QSpinBox>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableWidget>
#include <QtWidgets/QTextBrowser>
#include <QtWidgets/QTreeView>
#include <QtWidgets/QTreeWidget>
#include <QtWidgets/QWizard>
#include <iterator>

#include <algorithm>
#include <fstream>
#include <memory>

using namespace kw;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
    auto t = readTextFile(p);
    return t ? *t : std::string();
}

// A pending skill as kb::distillSkill writes it: the account of the winning path is its evidence.
std::string pendingSkill(const std::string& id, const std::string& problem, const std::string& speedup) {
    return "---\nid: " + id + "\ntitle: Skill: what worked for " + problem +
           "\ncategory: skills\nplatforms: [x86-64]\ntriggers: []\ntags: [" + problem +
           ", skill]\nstatus: pending\n---\n# What worked for " + problem + "\n\n## Outcome\nSearch 3 on " + problem +
           " reached " + speedup +
           "x over the reference in 24 evaluations on x86-64.\n\n## Winning path\n"
           "- step 0 (seed, node 1): start from seed -> 1x\n- step 1 (tuner, node 7): params BLOCK 64 -> 256 -> 2.4x\n"
           "- step 2 (llm, node 15): source rewritten (42 lines) -> " +
           speedup +
           "x; reason given: vectorized exp\n\n"
           "## Best configuration\n- BLOCK = 256\n\n## Failures seen\n- 3 x wrong_answer\n";
}

} // namespace

class TestKbWindow : public QObject {
    Q_OBJECT
  private:
    QTemporaryDir dir_;
    std::unique_ptr<ui::KbWindow> window_;

    fs::path base() const { return dir_.path().toStdString(); }
    fs::path userKb() const { return base() / "data/kernelwright/kb"; }

    void screenshot(QWidget* w, const QString& name) {
        const QString shots = qEnvironmentVariable("KW_SCREENSHOT_DIR");
        if (shots.isEmpty()) return;
        QDir().mkpath(shots);
        const QString file = shots + QLatin1Char('/') + name;
        QVERIFY2(w->grab().save(file), qPrintable(file));
        qInfo("saved %s", qPrintable(file));
    }

    ui::DocumentEditor* editor() const { return window_->editor(); }
    QLineEdit* field(const char* key) const { return editor()->form()->field(QString::fromLatin1(key)); }

    // Types into a field as a person would (textEdited fires), then waits for the debounced check.
    void type(const char* key, const QString& text) {
        field(key)->selectAll();
        field(key)->del();
        QTest::keyClicks(field(key), text);
        QTest::qWait(200); // past the 150 ms debounce: the checks ran by themselves
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // Nothing of the user's: the user KB, the workspace and settings all live in the temporary folder.
        qputenv("XDG_DATA_HOME", QByteArray(dir_.path().toUtf8() + "/data"));
        qputenv("XDG_CONFIG_HOME", QByteArray(dir_.path().toUtf8() + "/config"));
        qunsetenv("KW_KB_DIRS");
        QVERIFY(qEnvironmentVariableIsSet("KW_RESOURCES_DIR"));
        auto opened = ui::KbWindow::open(base() / "ws.db");
        QVERIFY2(opened.ok(), opened.ok() ? "" : opened.error().message.c_str());
        window_.reset(*opened);
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanupTestCase() { window_.reset(); }

    void treeListsTheShippedKbByCategoryAndPlatform() {
        auto* model = window_->treeModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto hopper = model->indexOfId(QStringLiteral("hopper-tma"));
        const auto anyHopper = model->match(model->index(0, 0), Qt::DisplayRole, QStringLiteral("hopper"), 1,
                                            Qt::MatchStartsWith | Qt::MatchRecursive);
        QVERIFY(!anyHopper.isEmpty());
        QVERIFY(anyHopper.front().parent().data().toString().startsWith(QStringLiteral("hardware")));
        QVERIFY(hopper.isValid());
        QCOMPARE(hopper.parent(), anyHopper.front());
        // Shipped documents open read-only: no save, and the editor says where the source is.
        const auto shipped = anyHopper.front().model()->index(0, 0, anyHopper.front());
        QVERIFY(!shipped.data(ui::KbTreeModel::WritableRole).toBool());
        QVERIFY(window_->openDocument(shipped.data(ui::KbTreeModel::IdRole).toString()));
        QVERIFY(!editor()->isWritable());
        QVERIFY(!editor()->saveButton()->isEnabled());
        QVERIFY(editor()->editor()->isReadOnly());
        QVERIFY(editor()->statusLabel()->text().contains(QStringLiteral("read-only")));
        QVERIFY(!editor()->preview()->toPlainText().isEmpty());
        screenshot(window_.get(), QStringLiteral("kb-documents-shipped.png"));
    }

    void frontMatterIsCheckedAsYouType() {
        editor()->startNew();
        QVERIFY(!window_->tree()->currentIndex().isValid()); // the tree no longer points at the shipped document
        type("id", QStringLiteral("Bad Id"));
        QLabel* idProblem = editor()->form()->problemLabel(QStringLiteral("id"));
        QTRY_VERIFY(idProblem->isVisible());
        QVERIFY2(idProblem->text().contains(QStringLiteral("lowercase letters, digits and '-'")), qPrintable(idProblem->text()));
        QVERIFY(!editor()->saveButton()->isEnabled());
        type("triggers", QStringLiteral("memory_bound, very_slow"));
        QLabel* triggerProblem = editor()->form()->problemLabel(QStringLiteral("triggers"));
        QTRY_VERIFY(triggerProblem->isVisible());
        QVERIFY(triggerProblem->text().contains(QStringLiteral("unknown trigger 'very_slow'")));
        type("title", QStringLiteral("Prefetch distance on Hopper"));
        editor()->editor()->setText(
            QStringLiteral("# Prefetch distance\n\n## When it helps\nIssue cp.async bulk copies two stages ahead of use.\n"));
        QTRY_VERIFY(editor()->preview()->toPlainText().contains(QStringLiteral("two stages ahead")));
        screenshot(window_.get(), QStringLiteral("kb-documents-invalid.png"));
        // Saving is refused and says why; the typed text stays.
        auto refused = editor()->save();
        QVERIFY(!refused.ok());
        QVERIFY(refused.error().message.find("id:") != std::string::npos);
        QVERIFY(editor()->statusLabel()->text().contains(QStringLiteral("fix the front matter")));
        QVERIFY(editor()->editor()->text().contains(QStringLiteral("two stages ahead")));
        QVERIFY(!fs::exists(userKb()));

        type("id", QStringLiteral("hopper-prefetch-distance"));
        QTRY_VERIFY(!idProblem->isVisible());
        type("triggers", QStringLiteral("memory_bound, latency_bound"));
        type("platforms", QStringLiteral("hopper"));
        editor()->form()->categoryBox()->setCurrentText(QStringLiteral("hardware"));
        editor()->validateNow();
        QVERIFY2(editor()->saveButton()->isEnabled(), qPrintable(editor()->statusLabel()->text()));
        auto saved = editor()->save();
        QVERIFY2(saved.ok(), saved.ok() ? "" : saved.error().message.c_str());
        QCOMPARE(*saved, userKb() / "hardware/hopper/hopper-prefetch-distance.md");
        QVERIFY(window_->treeModel()->indexOfId(QStringLiteral("hopper-prefetch-distance")).isValid());
        screenshot(window_.get(), QStringLiteral("kb-documents-saved.png"));
    }

    void saveAndReloadRoundTrip() {
        QVERIFY(window_->openDocument(QStringLiteral("hopper-prefetch-distance")));
        QVERIFY(editor()->isWritable());
        type("tags", QStringLiteral("prefetch, tma"));
        editor()->editor()->setText(
            editor()->editor()->text() +
            QStringLiteral("\n## When it does not\nA kernel bound by tensor-core issue gains nothing.\n"));
        QVERIFY(editor()->save().ok());
        const auto file = userKb() / "hardware/hopper/hopper-prefetch-distance.md";
        const std::string text = read(file);
        QVERIFY2(
            text.rfind(
                "---\nid: hopper-prefetch-distance\ntitle: Prefetch distance on Hopper\ncategory: hardware\nplatforms: [hopper]\n"
                "triggers: [memory_bound, latency_bound]\ntags: [prefetch, tma]\n---\n# Prefetch distance\n",
                0) == 0,
            text.c_str());
        QVERIFY(text.find("tensor-core issue gains nothing") != std::string::npos);
        // The index follows: the new section is retrievable, by its words and by its trigger.
        kb::RetrievalQuery q;
        q.text = "tensor-core issue gains";
        q.diagnosis = {"latency_bound"};
        q.platform = "hopper";
        auto hits = window_->writer().index().search(q);
        QVERIFY(hits.ok() && !hits->empty());
        QCOMPARE(hits->front().docId, std::string("hopper-prefetch-distance"));
        QCOMPARE(hits->front().heading, std::string("When it does not"));

        // A fresh window on the same workspace reads back exactly what was saved.
        auto other = ui::KbWindow::open(base() / "ws.db");
        QVERIFY(other.ok());
        std::unique_ptr<ui::KbWindow> second(*other);
        QVERIFY(second->openDocument(QStringLiteral("hopper-prefetch-distance")));
        QCOMPARE(second->editor()->form()->field(QStringLiteral("tags"))->text(), QStringLiteral("prefetch, tma"));
        QCOMPARE(second->editor()->form()->field(QStringLiteral("platforms"))->text(), QStringLiteral("hopper"));
        QCOMPARE(second->editor()->editor()->text(), editor()->editor()->text());
        QVERIFY(!second->editor()->isModified());
    }

    void renameAndDelete() {
        QVERIFY(window_->openDocument(QStringLiteral("hopper-prefetch-distance")));
        QVERIFY(!window_->renameCurrent(QStringLiteral("Has Spaces")).ok());
        const auto status = window_->renameCurrent(QStringLiteral("hopper-bulk-prefetch"));
        QVERIFY2(status.ok(), status.ok() ? "" : status.error().message.c_str());
        QVERIFY(!fs::exists(userKb() / "hardware/hopper/hopper-prefetch-distance.md"));
        QVERIFY(read(userKb() / "hardware/hopper/hopper-bulk-prefetch.md").find("id: hopper-bulk-prefetch\n") !=
                std::string::npos);
        QCOMPARE(editor()->current().id, std::string("hopper-bulk-prefetch"));
        QVERIFY(!window_->treeModel()->indexOfId(QStringLiteral("hopper-prefetch-distance")).isValid());
        QVERIFY(window_->deleteCurrent().ok());
        QVERIFY(!fs::exists(userKb() / "hardware/hopper/hopper-bulk-prefetch.md"));
        QVERIFY(!window_->writer().index().find("hopper-bulk-prefetch")->has_value());
        QVERIFY(!window_->treeModel()->indexOfId(QStringLiteral("hopper-bulk-prefetch")).isValid());
    }

    void importShowsTheProposalBeforeWriting() {
        const fs::path in = base() / "incoming";
        write(in / "l2-notes.txt",
              "Hopper L2 partitions\n\nThe 50 MB L2 is split in two partitions; bandwidth drops when a kernel's "
              "working set straddles both.\n");
        write(in / "softmax.md", "# Row softmax on H100\n\n## Exp throughput\nThe SFU issues 16 exp per SM per clock.\n\n"
                                 "## Reductions\nUse warp shuffles for the row max and sum.\n");
        const bool havePdf = !QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty();
        if (havePdf) write(in / "tma.pdf", test::tinyPdf("TMA bulk copies on H100", "Bandwidth needs many bytes in flight."));
        ui::KbImportDialog dialog(window_->writer());
        dialog.addSources({in});
        QVERIFY(dialog.isReading());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog.isReading(), 10000);
        QVERIFY2(dialog.messageLabel()->text().isEmpty(), qPrintable(dialog.messageLabel()->text()));
        QCOMPARE(dialog.proposalList()->count(), havePdf ? 3 : 2);
        // The markdown file's split and proposed front matter, before anything is written.
        int md = -1;
        for (int i = 0; i < dialog.proposalList()->count(); ++i)
            if (dialog.proposalList()->item(i)->text().contains(QStringLiteral("softmax.md"))) md = i;
        QVERIFY(md >= 0);
        dialog.proposalList()->setCurrentRow(md);
        const QString fm = dialog.frontMatterView()->toPlainText();
        QVERIFY2(fm.contains(QStringLiteral("id: imported-softmax")) && fm.contains(QStringLiteral("platforms: [hopper]")) &&
                     fm.contains(QStringLiteral("op:softmax")),
                 qPrintable(fm));
        QStringList headings;
        for (int i = 0; i < dialog.sectionView()->topLevelItemCount(); ++i)
            headings << dialog.sectionView()->topLevelItem(i)->text(0);
        QVERIFY2(headings.contains(QStringLiteral("Exp throughput")) && headings.contains(QStringLiteral("Reductions")),
                 qPrintable(headings.join(", ")));
        if (havePdf) {
            const auto& pdf = dialog.proposals()[0].source.extension() == ".pdf" ? dialog.proposals()[0] : dialog.proposals()[2];
            QVERIFY(pdf.text.find("TMA bulk copies") != std::string::npos);
        }
        dialog.resize(900, 560);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        screenshot(&dialog, QStringLiteral("kb-import-preview.png"));
        QVERIFY(!fs::exists(userKb() / "imported"));
        // Unchecked proposals stay out; the rest are written and indexed.
        for (int i = 0; i < dialog.proposalList()->count(); ++i)
            if (i != md) dialog.proposalList()->item(i)->setCheckState(Qt::Unchecked);
        auto files = dialog.importChecked();
        QVERIFY2(files.ok(), files.ok() ? "" : files.error().message.c_str());
        QCOMPARE(files->size(), std::size_t{1});
        QCOMPARE(files->front(), userKb() / "imported/imported-softmax.md");
        QVERIFY(!fs::exists(userKb() / "imported/imported-l2-notes.md"));
        QVERIFY(window_->writer().index().find("imported-softmax")->has_value());
        QVERIFY(kb::validateTree(userKb()).empty());
    }

    void skillReviewApprovesRejectsAndEdits() {
        write(userKb() / "skills/skill-softmax-s3.md", pendingSkill("skill-softmax-s3", "softmax", "3.1"));
        write(userKb() / "skills/skill-layernorm-s4.md", pendingSkill("skill-layernorm-s4", "layernorm", "1.8"));
        write(userKb() / "skills/skill-saxpy-s5.md", pendingSkill("skill-saxpy-s5", "saxpy", "1.2"));
        window_->reload();
        auto* review = window_->skillReview();
        QCOMPARE(review->queue()->count(), 3);
        QVERIFY(review->select(QStringLiteral("skill-softmax-s3")));
        const QString evidence = review->evidence()->toPlainText();
        QVERIFY2(evidence.contains(QStringLiteral("node 15")) && evidence.contains(QStringLiteral("BLOCK 64 -> 256 -> 2.4x")) &&
                     evidence.contains(QStringLiteral("3 x wrong_answer")),
                 qPrintable(evidence));
        window_->tabs()->setCurrentWidget(review);
        screenshot(window_.get(), QStringLiteral("kb-skill-review.png"));

        QVERIFY(review->approveCurrent().ok());
        QVERIFY(read(userKb() / "skills/skill-softmax-s3.md").find("status: approved\n") != std::string::npos);
        QCOMPARE(review->queue()->count(), 2);
        QCOMPARE((*window_->writer().index().find("skill-softmax-s3"))->status, std::string("approved"));

        QVERIFY(review->select(QStringLiteral("skill-layernorm-s4")));
        QVERIFY(review->rejectCurrent().ok());
        QVERIFY(read(userKb() / "skills/skill-layernorm-s4.md").find("status: rejected\n") != std::string::npos);
        QCOMPARE(review->queue()->count(), 1);
        kb::RetrievalQuery q;
        q.text = "layernorm";
        q.includePending = true;
        auto hits = window_->writer().index().search(q);
        QVERIFY(hits.ok());
        for (const auto& hit : *hits) QVERIFY(hit.docId != "skill-layernorm-s4");

        QVERIFY(review->select(QStringLiteral("skill-saxpy-s5")));
        review->editCurrent();
        QVERIFY(review->editor()->isVisible());
        review->editor()->setText(review->editor()->text() +
                                  QStringLiteral("\n## Reviewer's note\nThe gain comes from the wider stores alone.\n"));
        screenshot(window_.get(), QStringLiteral("kb-skill-edit.png"));
        QVERIFY(review->saveEdit().ok());
        const std::string saxpy = read(userKb() / "skills/skill-saxpy-s5.md");
        QVERIFY(saxpy.find("wider stores alone") != std::string::npos);
        QVERIFY(saxpy.find("status: pending\n") != std::string::npos);
        QCOMPARE(review->queue()->count(), 1);
        QVERIFY(review->evidence()->toPlainText().contains(QStringLiteral("wider stores alone")));
    }

    void retrievalTesterRanksAsTheIndexDoes() {
        auto* tester = window_->retrievalTester();
        window_->tabs()->setCurrentWidget(tester);
        tester->setQuery(QStringLiteral("row softmax, exp dominates"),
                         {QStringLiteral("op:softmax"), QStringLiteral("memory_bound")}, QStringLiteral("x86-64"));
        tester->run();
        auto* table = tester->results();
        QVERIFY(table->rowCount() >= 3);
        auto expected = window_->writer().index().search(tester->query());
        QVERIFY(expected.ok());
        QCOMPARE(table->rowCount(), static_cast<int>(expected->size()));
        double last = 1e300;
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(table->item(row, 1)->data(Qt::UserRole).toString().toStdString(),
                     (*expected)[static_cast<std::size_t>(row)].docId);
            const double score = table->item(row, 3)->text().toDouble();
            QVERIFY(score <= last);
            last = score;
        }
        // The top document is a softmax one that lists the trigger, and the table says so.
        QVERIFY(table->item(0, 4)->text().contains(QStringLiteral("op:softmax")));
        QVERIFY(table->item(0, 5)->text().contains(QStringLiteral("triggers")));
        // The platform filters: nothing only for Hopper shows for x86-64.
        for (const auto& hit : *expected) {
            auto doc = window_->writer().index().find(hit.docId);
            QVERIFY(kb::contains((*doc)->platforms, "x86-64") || kb::contains((*doc)->platforms, "any"));
        }
        screenshot(window_.get(), QStringLiteral("kb-retrieval.png"));
    }

    // A node picked by search and id: the query is what kb::retrievalQueryForNode
    // builds (the problem's words, the node's status and stored diagnosis), and
    // the ranking is the index's for that query.
    void retrievalTesterTakesANode() {
        auto db = store::Database::open(base() / "ws.db");
        QVERIFY(db.ok());
        auto search = test::searchRecord("softmax", "done", (test::bundledProblemsDir() / "cpu" / "softmax").string());
        auto searchId = store::SearchStore(*db).createSearch(search);
        QVERIFY(searchId.ok());
        search.id = *searchId;
        QVERIFY(store::SearchStore(*db).putSource("src", "void softmax() {}").ok());
        store::EvaluationRecord evaluation;
        evaluation.cacheKey = "k1";
        evaluation.problem = "softmax";
        evaluation.status = "ok";
        evaluation.resultJson = "{}";
        auto evaluationId = store::EvaluationStore(*db).insert(evaluation);
        QVERIFY(evaluationId.ok());
        store::ProfileRecord profile;
        profile.evaluationId = *evaluationId;
        profile.level = "roofline";
        profile.reportJson =
            R"({"signals": [{"signal": "memory_bound", "evidence": "55% of DRAM bandwidth", "source": "roofline"}]})";
        QVERIFY(store::ProfileStore(*db).save(profile).ok());
        store::NodeRecord node;
        node.searchId = *searchId;
        node.seq = 1;
        node.origin = "seed";
        node.sourceName = "vectorized";
        node.sourceHash = "src";
        node.paramsJson = "{}";
        node.state = "pending";
        auto nodeId = store::SearchStore(*db).insertNode(node);
        QVERIFY(nodeId.ok());
        node.id = *nodeId;
        node.state = "done";
        node.status = "ok";
        node.speedup = 4.0;
        node.evaluationId = *evaluationId;
        QVERIFY(store::SearchStore(*db).finishNode(node, search).ok());

        auto* tester = window_->retrievalTester();
        tester->updateSearches();
        auto used = tester->useNode(*searchId, *nodeId);
        QVERIFY2(used.ok(), used.ok() ? "" : used.error().message.c_str());
        // The node is shown by its number in the search (#1), never the workspace's id.
        auto* number = tester->findChild<QSpinBox*>(QStringLiteral("retrievalNode"));
        QVERIFY(number);
        QCOMPARE(number->value(), 1);
        QCOMPARE(*store::SearchStore(*db).nodeIdOfNumber(*searchId, 1), *nodeId);
        auto missing = store::SearchStore(*db).nodeIdOfNumber(*searchId, 42);
        QVERIFY(!missing.ok() && missing.error().message.find("no node #42") != std::string::npos);
        const auto q = tester->query();
        const auto expected = kb::retrievalQueryForNode(*db, *searchId, *nodeId);
        QVERIFY(expected.ok());
        QCOMPARE(q.text, expected->text);
        QVERIFY(q.text.find("softmax") != std::string::npos);
        // The same signals (the list shows them in its own order).
        auto signalNames = q.diagnosis;
        std::sort(signalNames.begin(), signalNames.end());
        QCOMPARE(QString::fromStdString(joinComma(signalNames)), QStringLiteral("memory_bound,ok"));
        QCOMPARE(q.platform, kb::hostPlatform());
        auto ranked = window_->writer().index().search(q);
        QVERIFY(ranked.ok() && !ranked->empty());
        QCOMPARE(tester->results()->rowCount(), static_cast<int>(ranked->size()));
        QCOMPARE(tester->results()->item(0, 1)->data(Qt::UserRole).toString().toStdString(), ranked->front().docId);
        screenshot(window_.get(), QStringLiteral("kb-retrieval-node.png"));

        // A node that is not there, or a search whose problem moved, is said, not guessed.
        QVERIFY(!tester->useNode(*searchId, 9999).ok());
        search.problemDir = (base() / "moved").string();
        search.problem = "moved";
        auto moved = store::SearchStore(*db).createSearch(search);
        QVERIFY(moved.ok());
        node.searchId = *moved;
        auto orphan = store::SearchStore(*db).insertNode(node);
        QVERIFY(orphan.ok());
        const auto error = tester->useNode(*moved, *orphan);
        QVERIFY(!error.ok());
        QVERIFY2(error.error().message.find("moved") != std::string::npos, error.error().message.c_str());
    }

    void newPlatformWizardWritesStarterDocs() {
        ui::NewPlatformWizard wizard(window_->writer());
        wizard.show();
        QVERIFY(QTest::qWaitForWindowExposed(&wizard));
        QTest::keyClicks(wizard.platformEdit(), QStringLiteral("MI 400"));
        QVERIFY(wizard.problemLabel()->isVisible());
        QVERIFY(wizard.problemLabel()->text().contains(QStringLiteral("lowercase")));
        QVERIFY(!wizard.button(QWizard::NextButton)->isEnabled());
        wizard.platformEdit()->setText(QStringLiteral("hopper"));
        QVERIFY(wizard.problemLabel()->text().contains(QStringLiteral("exists already")));
        wizard.platformEdit()->setText(QStringLiteral("mi400"));
        QTest::keyClicks(wizard.chipEdit(), QStringLiteral("AMD Instinct MI400"));
        QVERIFY(!wizard.problemLabel()->isVisible());
        QVERIFY(wizard.button(QWizard::NextButton)->isEnabled());
        wizard.next();
        // The roofline figures: a file that is no probe is refused with why;
        // an H100's GPU probe fills them (as a stand-in for the new chip's).
        const auto notProbe = fs::path(dir_.path().toStdString()) / "not-a-probe.json";
        std::ofstream(notProbe) << R"({"hello": 1})";
        QVERIFY(wizard.importFigures(QString::fromStdString(notProbe.string())).contains(QStringLiteral("Not imported")));
        QCOMPARE(wizard.figures().memoryGBs, 0.0);
        const auto probe = test::dataDir() / "machine/h100_gpu_probe.json";
        QCOMPARE(wizard.importFigures(QString::fromStdString(probe.string())), QString());
        QCOMPARE(wizard.figures().memoryGBs, 2995.5);
        QCOMPARE(wizard.figures().computeUnits, 132);
        QVERIFY(wizard.figures().source.find("NVIDIA H100") != std::string::npos);
        screenshot(&wizard, QStringLiteral("kb-new-platform-figures.png"));
        wizard.next();
        const QString plan = wizard.plan()->toPlainText();
        for (const char* f : {"hardware/mi400/arch/mi400-arch-overview.md", "hardware/mi400/debug/mi400-debug-failures.md",
                              "hardware/mi400/optimization/mi400-optimization-playbook.md"})
            QVERIFY2(plan.contains(QString::fromLatin1(f)), qPrintable(plan));
        QVERIFY(!fs::exists(userKb() / "hardware/mi400")); // the plan is only shown
        screenshot(&wizard, QStringLiteral("kb-new-platform.png"));
        wizard.accept();
        QCOMPARE(wizard.created().size(), std::size_t{3});
        for (const auto& f : wizard.created()) QVERIFY(fs::exists(f));
        const auto errors = kb::validateTree(userKb());
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        window_->reload();
        QVERIFY(window_->treeModel()->indexOfId(QStringLiteral("mi400-debug-failures")).isValid());
        QCOMPARE(window_->treeModel()->indexOfId(QStringLiteral("mi400-debug-failures")).parent().data().toString(),
                 QStringLiteral("mi400 (3)"));
        // The architecture starter gives the figures as its peak numbers, with the ridge point.
        std::ifstream arch(userKb() / "hardware/mi400/arch/mi400-arch-overview.md");
        const std::string archText((std::istreambuf_iterator<char>(arch)), std::istreambuf_iterator<char>());
        QVERIFY2(archText.find("| memory bandwidth | 2996 GB/s |") != std::string::npos &&
                     archText.find("| compute units | 132 |") != std::string::npos &&
                     archText.find("ridge: 20.3 FLOP per byte") != std::string::npos,
                 archText.c_str());
        // A starter document opens writable and valid, ready to fill in.
        QVERIFY(window_->openDocument(QStringLiteral("mi400-arch-overview")));
        QVERIFY(editor()->isWritable());
        QVERIFY(editor()->saveButton()->isEnabled());
        QVERIFY(editor()->current().title.find("AMD Instinct MI400") != std::string::npos);
        window_->tabs()->setCurrentIndex(0);
        screenshot(window_.get(), QStringLiteral("kb-documents-new-platform.png"));
    }

    void mainWindowOpensItFromTheToolsMenu() {
        ui::MainWindow main(test::bundledProblemsDir());
        QAction* action = nullptr;
        for (auto* a : main.findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Knowledge Base…")) action = a;
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_K));
        action->trigger();
        QVERIFY(main.findChild<ui::KbWindow*>());
        QVERIFY(main.findChild<ui::KbWindow*>()->isVisible());
        action->trigger(); // one window, brought forward
        QCOMPARE(main.findChildren<ui::KbWindow*>().size(), 1);
    }
};

QTEST_MAIN(TestKbWindow)
#include "tst_kb_window.moc"
