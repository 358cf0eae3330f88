#include "search/search_tree.h"

namespace kw::search {

std::string nodeKey(const std::string& sourceHash, const problem::ParamAssignment& params) {
    return sourceHash + "|" + problem::formatAssignment(params);
}

void SearchTree::add(const Node& node) {
    index_[node.id] = nodes_.size();
    nodes_.push_back(node);
    children_[node.parent].push_back(node.id);
    keys_.insert(nodeKey(node.sourceHash, node.params));
}

Node* SearchTree::find(NodeId id) {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &nodes_[it->second];
}

const Node* SearchTree::find(NodeId id) const {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &nodes_[it->second];
}

std::vector<const Node*> SearchTree::children(NodeId id) const {
    std::vector<const Node*> out;
    auto it = children_.find(id);
    if (it == children_.end()) return out;
    for (auto c : it->second) out.push_back(find(c));
    return out;
}

std::vector<const Node*> SearchTree::ancestors(NodeId id) const {
    std::vector<const Node*> out;
    const Node* n = find(id);
    while (n && n->parent) {
        n = find(n->parent);
        if (n) out.push_back(n);
    }
    return out;
}

std::vector<const Node*> SearchTree::siblings(NodeId id) const {
    std::vector<const Node*> out;
    const Node* n = find(id);
    if (!n) return out;
    for (const Node* s : children(n->parent))
        if (s->id != id) out.push_back(s);
    return out;
}

bool SearchTree::inPrunedSubtree(NodeId id) const {
    for (const Node* n = find(id); n; n = n->parent ? find(n->parent) : nullptr)
        if (n->pruned) return true;
    return false;
}

bool SearchTree::contains(const std::string& sourceHash, const problem::ParamAssignment& params) const {
    return keys_.count(nodeKey(sourceHash, params)) > 0;
}

const Node* SearchTree::best() const {
    const Node* best = nullptr;
    for (const auto& n : nodes_)
        if (n.correct() && (!best || n.fitness() > best->fitness())) best = &n;
    return best;
}

std::vector<const Node*> SearchTree::bestPath() const {
    std::vector<const Node*> path;
    for (const Node* n = best(); n; n = n->parent ? find(n->parent) : nullptr) path.insert(path.begin(), n);
    return path;
}

int SearchTree::finishedCount() const {
    int count = 0;
    for (const auto& n : nodes_) count += n.finished() ? 1 : 0;
    return count;
}

} // namespace kw::search
