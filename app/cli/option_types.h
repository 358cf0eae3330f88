#pragma once
// The type of every numeric command-line option, in one table: the parser
// checks each value as it reads it, so a malformed number gets the same one
// clear line and exit code 2 in every verb, before the verb does anything.
// An option name means the same in every verb that reads it as a number
// (--budget is always a count of evaluations); where a verb gives a name
// another meaning (eval --seed NAME), the entry lists the verbs it is for.
#include <optional>
#include <string>
#include <vector>

namespace kw::cli {

struct NumericOption {
    const char* name;
    enum class Kind { Integer, Unsigned, Number } kind;
    double min, max;             // inclusive bounds (Number: min may be exclusive, see above)
    bool minExclusive;           // "> 0" rather than ">= 0"
    const char* meaning;         // "a number of evaluations", for the message
    const char* verbs = nullptr; // space-separated verbs it applies to; null: all
};

// The numeric options every verb's parser checks.
const std::vector<NumericOption>& numericOptions();
// The entry for `name` as `verb` reads it (null: not a numeric option there).
const NumericOption* findNumericOption(const std::string& verb, const std::string& name);

// "" when `value` is a valid value of `option`, else the message:
// "--budget expects a whole number of evaluations >= 1, got 'abc'".
std::string checkNumericOption(const NumericOption& option, const std::string& value);

} // namespace kw::cli
