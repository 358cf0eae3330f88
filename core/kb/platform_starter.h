#pragma once
// The starter documents of a new platform (a chip being brought up): one per
// folder of hardware/<platform>/{arch,debug,optimization}, with valid front
// matter and the questions each section should answer, for the hardware team
// to fill in.
#include "kb/kb_document.h"

#include <filesystem>
#include <vector>

namespace kw::kb {

struct StarterDocument {
    std::filesystem::path relativePath; // under the KB root: hardware/<platform>/<folder>/<id>.md
    KbDocument doc;
};

// chipName is the name people use ("Instinct MI400"); "" uses the platform's.
std::vector<StarterDocument> platformStarterDocs(const std::string& platform, const std::string& chipName);

} // namespace kw::kb
