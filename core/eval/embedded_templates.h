#pragma once
#include <map>
#include <string>

namespace ks::eval {

// Harness sources compiled into ks_core (see embed_templates.cmake), by file name.
const std::map<std::string, std::string>& embeddedTemplates();

} // namespace ks::eval
