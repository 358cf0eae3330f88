#pragma once
// A small command-line parser: positional words, --flag, --key VALUE,
// --key=VALUE, repeatable keys. Unknown options are errors with a hint.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kw::cli {

class Args {
  public:
    // `valued`: options that take a value; `flags`: options that do not.
    // Values of numeric options (option_types.h) are checked as `verb` reads them.
    static std::optional<Args> parse(const std::vector<std::string>& argv, const std::set<std::string>& valued,
                                     const std::set<std::string>& flags, std::string& error, const std::string& verb = "");

    bool has(const std::string& key) const { return values_.count(key) > 0; }
    std::optional<std::string> value(const std::string& key) const;
    std::vector<std::string> all(const std::string& key) const;
    const std::vector<std::string>& positional() const { return positional_; }

  private:
    std::multimap<std::string, std::string> values_;
    std::vector<std::string> positional_;
};

} // namespace kw::cli
