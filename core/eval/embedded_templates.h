#pragma once
#include <map>
#include <string>

namespace kw::eval {

// Harness sources compiled into kw_core (see embed_templates.cmake), by file name.
const std::map<std::string, std::string>& embeddedTemplates();

} // namespace kw::eval
