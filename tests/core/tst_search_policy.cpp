#include "search/search_config_json.h"
#include "search/search_policy.h"

#include <QtTest/QtTest>

using namespace kw::search;
using kw::eval::EvalStatus;

namespace {
Node node(NodeId id, NodeId parent, double speedup, bool ok = true) {
    Node n;
    n.id = id;
    n.parent = parent;
    n.seq = static_cast<int>(id);
    n.sourceHash = "h";
    n.params["P"] = "p" + std::to_string(id); // (a brace-initialised pair trips GCC 12 bug 105329)
    n.state = NodeState::Done;
    n.status = ok ? EvalStatus::Ok : EvalStatus::CompileError;
    n.speedup = ok ? speedup : 0;
    return n;
}
SearchTree sample() {
    SearchTree t;
    t.add(node(1, 0, 1.0));
    t.add(node(2, 1, 3.0));
    t.add(node(3, 1, 0, false));
    t.add(node(4, 2, 2.0));
    return t;
}
} // namespace

class TestSearchPolicy : public QObject {
    Q_OBJECT
  private slots:
    void greedyExpandsTheFittest() {
        SearchConfig c;
        c.policy = Policy::Greedy;
        c.restartRate = 0;
        auto p = makePolicy(c);
        auto t = sample();
        std::mt19937_64 rng(1);
        QCOMPARE(p->next(t, rng)->parent, NodeId{2});
        p->exhausted(2, kw::synth::Operator::Mutate);
        QCOMPARE(p->next(t, rng)->parent, NodeId{4});
    }
    void pinsComeFirstAndPrunedSubtreesNever() {
        SearchConfig c;
        c.policy = Policy::Greedy;
        c.restartRate = 0;
        auto t = sample();
        t.find(1)->pinned = true;
        std::mt19937_64 rng(1);
        QCOMPARE(makePolicy(c)->next(t, rng)->parent, NodeId{1});
        t.find(1)->pinned = false;
        t.find(2)->pruned = true; // takes node 4 with it
        QCOMPARE(makePolicy(c)->next(t, rng)->parent, NodeId{1});
    }
    void beamCyclesThroughTheTop() {
        SearchConfig c;
        c.policy = Policy::Beam;
        c.beamWidth = 2;
        auto p = makePolicy(c);
        auto t = sample();
        std::mt19937_64 rng(1);
        std::set<NodeId> seen;
        for (int i = 0; i < 4; ++i) seen.insert(p->next(t, rng)->parent);
        QCOMPARE(seen, (std::set<NodeId>{2, 4}));
    }
    void mctsNeverExpandsFailedNodesAndSpreadsVisits() {
        SearchConfig c;
        c.policy = Policy::Mcts;
        auto p = makePolicy(c);
        auto t = sample();
        for (const auto& n : t.nodes()) p->observe(t, n);
        std::mt19937_64 rng(1);
        std::map<NodeId, int> counts;
        // Grow the tree as a search would: each plan becomes a child whose
        // fitness follows its parent's (the landscape rewards node 2's branch).
        for (NodeId id = 5; id < 45; ++id) {
            auto plan = p->next(t, rng);
            QVERIFY(plan);
            const Node* parent = t.find(plan->parent);
            QVERIFY(parent && parent->correct());
            ++counts[plan->parent];
            const bool fails = id % 5 == 0;
            t.add(node(id, plan->parent, parent->fitness() * 0.95, !fails));
            p->observe(t, *t.find(id));
        }
        int underTwo = 0, elsewhere = 0;
        for (const auto& [id, n] : counts) {
            bool belowTwo = false;
            for (const Node* a = t.find(id); a; a = a->parent ? t.find(a->parent) : nullptr) belowTwo = belowTwo || a->id == 2;
            (belowTwo ? underTwo : elsewhere) += n;
        }
        QVERIFY2(underTwo > elsewhere, qPrintable(QString("%1 vs %2").arg(underTwo).arg(elsewhere)));
        QVERIFY(elsewhere > 0); // exploration still visits the weaker branch
    }
    void evolutionaryUsesTournamentsAndCrossover() {
        SearchConfig c;
        c.policy = Policy::Evolutionary;
        c.crossoverRate = 1.0;
        c.restartRate = 0;
        c.islands = 1;
        auto p = makePolicy(c);
        auto t = sample();
        std::mt19937_64 rng(2);
        int crossovers = 0;
        for (int i = 0; i < 20; ++i) {
            auto plan = p->next(t, rng);
            QVERIFY(plan && plan->parent != 3);
            if (plan->op == kw::synth::Operator::Crossover) {
                ++crossovers;
                QVERIFY(plan->partner != plan->parent && plan->partner != 3);
            }
        }
        QVERIFY(crossovers > 0);
    }
    void configRejectsNonsense() {
        QVERIFY(!configFromJson({{"policy", "annealing"}}).ok());
        QVERIFY(configFromJson({{"policy", "annealing"}}).error().message.find("unknown policy \"annealing\"") !=
                std::string::npos);
        QVERIFY(!configFromJson({{"max_evaluations", 0}}).ok());
        QVERIFY(!configFromJson({{"budget", 5}}).ok());
        QVERIFY(!configFromJson({{"crossover_rate", 2.0}}).ok());
        QVERIFY(!configFromJson({{"max_evaluations", "many"}}).ok());
        auto ok = configFromJson({{"policy", "evo"}, {"max_evaluations", 5}, {"seed", 9}});
        QVERIFY(ok.ok());
        QCOMPARE(ok->policy, Policy::Evolutionary);
        auto round = configFromJson(toJson(*ok));
        QVERIFY(round.ok());
        QCOMPARE(round->seed, std::uint64_t{9});
    }
};

QTEST_APPLESS_MAIN(TestSearchPolicy)
#include "tst_search_policy.moc"
