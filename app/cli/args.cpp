#include "args.h"

#include "option_types.h"

namespace kw::cli {

std::optional<Args> Args::parse(const std::vector<std::string>& argv, const std::set<std::string>& valued,
                                const std::set<std::string>& flags, std::string& error, const std::string& verb) {
    Args args;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a.size() < 2 || a[0] != '-' || a == "--") {
            if (a == "--") {
                for (++i; i < argv.size(); ++i) args.positional_.push_back(argv[i]);
                break;
            }
            args.positional_.push_back(a);
            continue;
        }
        std::string key = a.substr(a.find_first_not_of('-'));
        std::optional<std::string> inlineValue;
        if (const auto eq = key.find('='); eq != std::string::npos) {
            inlineValue = key.substr(eq + 1);
            key = key.substr(0, eq);
        }
        if (valued.count(key)) {
            std::string value;
            if (inlineValue) {
                value = *inlineValue;
            } else if (i + 1 < argv.size()) {
                value = argv[++i];
            } else {
                error = "option --" + key + " needs a value";
                return std::nullopt;
            }
            // Numbers are checked here, for every verb alike.
            if (const NumericOption* typed = findNumericOption(verb, key)) {
                error = checkNumericOption(*typed, value);
                if (!error.empty()) return std::nullopt;
            }
            args.values_.emplace(key, value);
        } else if (flags.count(key)) {
            if (inlineValue) {
                error = "option --" + key + " takes no value";
                return std::nullopt;
            }
            args.values_.emplace(key, "");
        } else {
            error = "unknown option " + a + " (see --help)";
            return std::nullopt;
        }
    }
    return args;
}

std::optional<std::string> Args::value(const std::string& key) const {
    auto range = values_.equal_range(key);
    if (range.first == range.second) return std::nullopt;
    return std::prev(range.second)->second; // the last one wins
}

std::vector<std::string> Args::all(const std::string& key) const {
    std::vector<std::string> out;
    auto range = values_.equal_range(key);
    for (auto it = range.first; it != range.second; ++it) out.push_back(it->second);
    return out;
}

} // namespace kw::cli
