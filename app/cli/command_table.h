#pragma once
// Every verb of kernelwright-cli in one table: its name, what runs it, and the
// options it takes (those with a value, those without). main() dispatches
// through it, each verb parses with its own entry, and the tests walk it (a
// malformed number in any numeric option of any verb exits 2 with one line).
#include "commands.h"

#include <set>
#include <string>
#include <vector>

namespace kw::cli {

struct Verb {
    std::string name;
    int (*run)(const std::vector<std::string>& args, const GlobalOptions& global);
    std::set<std::string> valued; // options taking a value (executor options included where they apply)
    std::set<std::string> flags;
};

const std::vector<Verb>& verbTable();
// The entry of `name`; every verb's parser finds its own here.
const Verb& verb(const std::string& name);

} // namespace kw::cli
