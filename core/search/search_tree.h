#pragma once
// The in-memory tree of one search, owned by the engine thread. Nodes are
// stored in creation order; ids are the store's row ids.
#include "search/tree_names.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kw::search {

class SearchTree {
  public:
    void add(const Node& node);
    Node* find(NodeId id);
    const Node* find(NodeId id) const;
    const std::vector<Node>& nodes() const { return nodes_; }
    std::vector<const Node*> children(NodeId id) const;  // id 0: the roots
    std::vector<const Node*> ancestors(NodeId id) const; // parent first
    std::vector<const Node*> siblings(NodeId id) const;  // same parent, not the node itself
    bool inPrunedSubtree(NodeId id) const;
    bool contains(const std::string& sourceHash, const problem::ParamAssignment& params) const;
    const Node* best() const;                  // highest fitness among correct nodes
    std::vector<const Node*> bestPath() const; // root ... best
    int finishedCount() const;

  private:
    std::vector<Node> nodes_;
    std::map<NodeId, std::size_t> index_;
    std::map<NodeId, std::vector<NodeId>> children_;
    std::set<std::string> keys_;
};

std::string nodeKey(const std::string& sourceHash, const problem::ParamAssignment& params);

} // namespace kw::search
