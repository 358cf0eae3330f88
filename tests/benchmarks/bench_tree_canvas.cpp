// Frame times of the search tree canvas with a large tree (default 20,000
// nodes): the layout after a batch, a fitted repaint, and pan/zoom repaints at
// several zoom levels, rendered offscreen. The workbench's target is < 30 ms
// per pan/zoom repaint.
//   QT_QPA_PLATFORM=offscreen bench_tree_canvas [NODES]
#include "tree/tree_canvas.h"

#include <QtCore/QElapsedTimer>
#include <QtGui/QImage>
#include <QtWidgets/QApplication>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

using namespace ks::ui;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int count = argc > 1 ? std::max(10, std::atoi(argv[1])) : 20000;
    std::mt19937_64 rng(7);
    NodeBatch batch;
    batch.reserve(count);
    for (int i = 1; i <= count; ++i) {
        NodeSnapshot n;
        n.id = i;
        // Search-like shape: mostly children of recent good nodes, some restarts.
        n.parentId = i <= 3 ? 0 : std::uniform_int_distribution<int>(std::max(1, i - 200), i - 1)(rng);
        const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
        n.glyph = kind < 6 ? NodeGlyph::Correct : kind < 8 ? NodeGlyph::CompileError : kind < 9 ? NodeGlyph::Wrong : NodeGlyph::Pending;
        n.speedup = n.glyph == NodeGlyph::Correct ? std::uniform_real_distribution<double>(0.5, 20)(rng) : 0;
        batch.push_back(n);
    }
    TreeCanvas canvas;
    canvas.resize(1600, 1000);
    QElapsedTimer t;
    t.start();
    canvas.applyBatch(batch);
    std::printf("layout of %d nodes: %.1f ms\n", count, t.nsecsElapsed() / 1e6);
    t.restart();
    NodeBatch more;
    for (int i = 0; i < 50; ++i) {
        NodeSnapshot n = batch[static_cast<qsizetype>(count - 1 - i)];
        n.glyph = NodeGlyph::Correct;
        more.push_back(n);
    }
    canvas.applyBatch(more);
    std::printf("re-layout after a batch of 50 updates: %.1f ms\n", t.nsecsElapsed() / 1e6);

    QImage image(canvas.size(), QImage::Format_ARGB32_Premultiplied);
    auto frame = [&] {
        QElapsedTimer f;
        f.start();
        canvas.render(&image);
        return f.nsecsElapsed() / 1e6;
    };
    canvas.fitToView();
    frame(); // warm-up
    std::vector<double> fitted;
    for (int i = 0; i < 10; ++i) fitted.push_back(frame());
    std::sort(fitted.begin(), fitted.end());
    std::printf("fitted repaint: median %.1f ms, worst %.1f ms\n", fitted[fitted.size() / 2], fitted.back());
    for (double zoom : {4.0, 30.0, 300.0}) {
        canvas.fitToView();
        canvas.zoomBy(zoom, QPointF(800, 500));
        std::vector<double> frames;
        for (int i = 0; i < 30; ++i) {
            canvas.zoomBy(i % 2 ? 1.05 : 1 / 1.05, QPointF(800, 500)); // a pan/zoom gesture step
            frames.push_back(frame());
        }
        std::sort(frames.begin(), frames.end());
        std::printf("pan/zoom at %gx the fitted scale: median %.1f ms, worst %.1f ms (target < 30 ms)\n", zoom, frames[frames.size() / 2], frames.back());
    }
    return 0;
}
