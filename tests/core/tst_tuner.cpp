#include "search/search_tree.h"
#include "synth/tuner.h"
#include "util/hash.h"

#include <QtTest/QtTest>

#include <set>

using namespace kw;
using tree::Node;

namespace {
const char* kSource = R"(// @kw-param A: 1 | 2 | 4 | 8 = 2
// @kw-param B: 1..3 = 1
// @kw-param C: bool = false
// @kw-param D: enum(x, y) = x
void k() {}
)";

Node rootNode() {
    Node n;
    n.id = 1;
    n.seq = 1;
    n.sourceName = "seed";
    n.sourceHash = sha256Hex(kSource);
    n.params = {{"A", "2"}, {"B", "1"}, {"C", "false"}, {"D", "x"}};
    n.state = tree::NodeState::Done;
    n.status = eval::EvalStatus::Ok;
    n.speedup = 1.5;
    return n;
}

synth::ExpansionRequest request(const Node& node, synth::Operator op) {
    synth::ExpansionRequest r;
    r.op = op;
    r.context.node = &node;
    r.context.source = kSource;
    return r;
}
} // namespace

class TestTuner : public QObject {
    Q_OBJECT
  private slots:
    void enumerateVisitsEveryConfigurationOnce() {
        synth::Tuner tuner;
        search::SearchTree tree;
        const Node root = rootNode();
        tree.add(root);
        std::mt19937_64 rng(1);
        int made = 0;
        for (;;) {
            auto p = tuner.propose(
                request(root, synth::Operator::Enumerate),
                [&](const std::string& h, const problem::ParamAssignment& a) { return tree.contains(h, a); }, rng);
            QVERIFY(p.ok());
            if (!*p) break;
            Node n = root;
            n.id = 100 + made;
            n.params = (*p)->params;
            tree.add(n);
            ++made;
        }
        QCOMPARE(made, 4 * 3 * 2 * 2 - 1); // the root's own configuration is already there
    }

    // A hint's NAME=value terms the space allows make the node's next child,
    // once; prose, unknown names and values outside a domain are not read.
    void aHintsTermsMakeTheNextChild() {
        QCOMPARE(synth::hintTerms("try A=8, D=y; and wider vectors (B=3)."),
                 (std::vector<std::pair<std::string, std::string>>{{"A", "8"}, {"D", "y"}, {"B", "3"}}));
        QVERIFY(synth::hintTerms("try wider vectors").empty());
        synth::Tuner tuner;
        search::SearchTree tree;
        const Node root = rootNode();
        tree.add(root);
        const auto known = [&](const std::string& h, const problem::ParamAssignment& a) { return tree.contains(h, a); };
        std::mt19937_64 rng(3);
        auto r = request(root, synth::Operator::Mutate);
        r.context.hint = "try A=8 with D=y, and Z=1 and B=7 (not in the space)";
        auto p = tuner.propose(r, known, rng);
        QVERIFY(p.ok() && *p);
        QCOMPARE((*p)->params.at("A"), std::string("8"));
        QCOMPARE((*p)->params.at("D"), std::string("y"));
        QCOMPARE((*p)->params.at("B"), std::string("1")); // 7 is outside 1..3: the parent's value stays
        QCOMPARE((*p)->rationale, std::string("the hint's A=8 D=y"));
        Node child = root;
        child.id = 2;
        child.params = (*p)->params;
        tree.add(child);
        // Once that child exists, the node's expansions are the tuner's own again.
        p = tuner.propose(r, known, rng);
        QVERIFY(p.ok() && *p);
        QVERIFY((*p)->rationale.find("hint") == std::string::npos);
        // Another hint on the node: its term makes the next child again.
        r.context.hint = "C=true";
        p = tuner.propose(r, known, rng);
        QCOMPARE((*p)->params.at("C"), std::string("true"));
    }

    void mutationsAreNewNeighboursWithinTheDomains() {
        synth::Tuner tuner;
        search::SearchTree tree;
        const Node root = rootNode();
        tree.add(root);
        std::mt19937_64 rng(7);
        auto space = tuner.space(kSource);
        QVERIFY(space.ok());
        for (int i = 0; i < 30; ++i) {
            auto p = tuner.propose(
                request(root, synth::Operator::Mutate),
                [&](const std::string& h, const problem::ParamAssignment& a) { return tree.contains(h, a); }, rng);
            QVERIFY(p.ok());
            if (!*p) break;
            const auto& a = (*p)->params;
            QVERIFY(!tree.contains(root.sourceHash, a));
            int changed = 0;
            for (const auto& [k, v] : a) {
                QVERIFY2(space->find(k)->contains(v), (k + "=" + v).c_str());
                changed += v != root.params.at(k) ? 1 : 0;
            }
            QVERIFY(changed >= 1 && changed <= 2);
            QCOMPARE((*p)->origin, tree::NodeOrigin::Mutation);
            Node n = root;
            n.id = 200 + i;
            n.params = a;
            tree.add(n);
        }
    }

    void sameSeedSameProposals() {
        auto run = [](std::uint64_t seed) {
            synth::Tuner tuner;
            const Node root = rootNode();
            std::mt19937_64 rng(seed);
            std::vector<std::string> out;
            for (auto op :
                 {synth::Operator::Mutate, synth::Operator::Restart, synth::Operator::Mutate, synth::Operator::Restart}) {
                auto p = tuner.propose(
                    request(root, op), [](const std::string&, const problem::ParamAssignment&) { return false; }, rng);
                out.push_back(problem::formatAssignment((*p)->params));
            }
            return out;
        };
        QCOMPARE(run(5), run(5));
        QVERIFY(run(5) != run(6));
    }

    void crossoverTakesOnlyParentValues() {
        synth::Tuner tuner;
        const Node a = rootNode();
        Node b = rootNode();
        b.id = 2;
        b.params = {{"A", "8"}, {"B", "3"}, {"C", "true"}, {"D", "y"}};
        auto r = request(a, synth::Operator::Crossover);
        r.partner = &b;
        std::mt19937_64 rng(3);
        auto p = tuner.propose(
            r, [](const std::string&, const problem::ParamAssignment& x) { return false && x.empty(); }, rng);
        QVERIFY(p.ok() && *p);
        for (const auto& [k, v] : (*p)->params) QVERIFY(v == a.params.at(k) || v == b.params.at(k));
        QCOMPARE((*p)->origin, tree::NodeOrigin::Crossover);
    }

    void stepsAwayFromValuesThatFailedNextDoor() {
        synth::Tuner tuner;
        const Node root = rootNode();
        // Siblings that differ only in A and failed: A=4 and A=1 are bad here.
        Node bad1 = root, bad2 = root;
        bad1.id = 3;
        bad1.params["A"] = "4";
        bad1.status = eval::EvalStatus::CompileError;
        bad2.id = 4;
        bad2.params["A"] = "1";
        bad2.status = eval::EvalStatus::WrongAnswer;
        auto r = request(root, synth::Operator::Mutate);
        r.context.siblings = {&bad1, &bad2};
        std::mt19937_64 rng(11);
        for (int i = 0; i < 40; ++i) {
            auto p = tuner.propose(
                r, [](const std::string&, const problem::ParamAssignment&) { return false; }, rng);
            QVERIFY(p.ok() && *p);
            const auto& a = (*p)->params.at("A");
            QVERIFY2(a != "4" && a != "1", a.c_str());
        }
    }

    void nothingToTuneIsNotAnError() {
        synth::Tuner tuner;
        Node n = rootNode();
        synth::ExpansionRequest r;
        r.context.node = &n;
        r.context.source = "void k() {}\n";
        std::mt19937_64 rng(1);
        auto p = tuner.propose(
            r, [](const std::string&, const problem::ParamAssignment&) { return false; }, rng);
        QVERIFY(p.ok());
        QVERIFY(!*p);
    }
};

QTEST_APPLESS_MAIN(TestTuner)
#include "tst_tuner.moc"
