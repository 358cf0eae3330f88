#pragma once
// A search tree's shape for drawing, without Qt: each node's glyph (what its
// state and status say), and a tidy top-down layout (each leaf its own
// column, a parent centred over its children, depth as the row). The
// workbench's canvas and the HTML report both draw from it. Recomputed in
// O(n) after each batch of changes; 20,000 nodes take a few milliseconds.
#include "eval/evaluation_result.h"
#include "tree/tree_types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kw::report {

// What a node looks like: one glyph per outcome a person acts on differently.
// SynthError: the synthesizer gave no kernel (nothing was built); Infra: the
// harness or host failed, not the candidate; Failed: no status recorded.
enum class Glyph {
    Pending,
    Running,
    SynthError,
    CompileError,
    Wrong,
    Timeout,
    Crash,
    OutOfMemory,
    Sandbox,
    Infra,
    Failed,
    Correct,
    Pruned
};
// The failures, in the order legends list them.
inline constexpr Glyph kFailureGlyphs[] = {Glyph::SynthError, Glyph::CompileError, Glyph::Wrong,   Glyph::Timeout,
                                           Glyph::Crash,      Glyph::OutOfMemory,  Glyph::Sandbox, Glyph::Infra};
// A failure the candidate caused (drawn as a diamond); a synth error or an
// infrastructure failure is drawn apart (a square, a triangle).
bool candidateFault(Glyph glyph);

Glyph glyphOf(tree::NodeState state, std::optional<eval::EvalStatus> status, bool pruned);
// A node row's state and status read once, where they leave the store.
tree::NodeState nodeStateOf(const std::string& state);
const char* glyphName(Glyph glyph);

struct Rgb {
    int r = 0, g = 0, b = 0;
    std::string hex() const;
    Rgb darker(double factor) const; // factor > 1 darkens, as Qt's darker(150) with 1.5
};
Rgb glyphColor(Glyph glyph);
// Slower than the reference: grey-blue; from 1x to the search's best: a
// perceptual ramp from teal to yellow (log scale, so 2x and 20x both read).
Rgb speedupColor(double speedup, double best);

struct ShapeNode {
    std::int64_t id = 0, parentId = 0;
    Glyph glyph = Glyph::Pending;
    double speedup = 0;      // 0 unless correct
    std::int64_t number = 0; // the node's number in its search (#N; 0: unknown)
};

struct PlacedNode {
    std::int64_t id = 0;
    int parentIndex = -1; // into TreeShape::placed(), -1 for a root
    double x = 0, y = 0;  // layout units: x in columns, y in depth rows
    int depth = 0;
    bool collapsed = false; // has hidden descendants
    int hiddenDescendants = 0;
};

class TreeShape {
  public:
    // Applies changed or new nodes. A node whose parent has not arrived yet is
    // kept and placed once the parent is there.
    void apply(const std::vector<ShapeNode>& batch);
    void clear();
    void setCollapsed(std::int64_t id, bool collapsed);
    bool isCollapsed(std::int64_t id) const { return collapsed_.count(id) > 0; }

    // Visible nodes with their positions; valid until the next apply/setCollapsed.
    const std::vector<PlacedNode>& placed() const { return placed_; }
    int indexOf(std::int64_t id) const;
    const ShapeNode* node(std::int64_t id) const;
    int size() const { return static_cast<int>(nodes_.size()); }
    double columns() const { return columns_; }
    int rows() const { return rows_; }

    // The path from the best correct node up to its root (ids), best first.
    std::vector<std::int64_t> bestPath() const;
    std::int64_t bestId() const { return bestId_; }
    double bestSpeedup() const { return bestSpeedup_; }

  private:
    void relayout();
    const std::vector<std::int64_t>& childrenOf(std::int64_t id) const;

    std::unordered_map<std::int64_t, ShapeNode> nodes_;
    std::unordered_map<std::int64_t, std::vector<std::int64_t>> children_; // parent id (0 = roots) -> children in id order
    std::unordered_set<std::int64_t> collapsed_;
    std::vector<PlacedNode> placed_;
    std::unordered_map<std::int64_t, int> index_;
    double columns_ = 0;
    int rows_ = 0;
    std::int64_t bestId_ = 0;
    double bestSpeedup_ = 0;
};

} // namespace kw::report
