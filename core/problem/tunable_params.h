#pragma once
// Tunable parameters a candidate declares in its own source, one per line:
//   // @kw-param BLOCK: 64 | 128 | 256 = 128      (a set of integers)
//   // @kw-param UNROLL: 1..8 = 4                 (an inclusive integer range)
//   // @kw-param PREFETCH: bool = true
//   // @kw-param LAYOUT: enum(row, col) = row
// The default (after '=') is optional; the first value is used otherwise.
// Keeping declarations in the source lets any synthesizer (tuner, LLM, a
// person) add or change them without touching the problem.
#include "util/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kw::problem {

struct ParamDomain {
    enum class Kind { IntSet, IntRange, Bool, Enum } kind = Kind::IntSet;
    std::string name;
    std::vector<long long> ints;     // IntSet values, or {lo, hi} for IntRange
    std::vector<std::string> labels; // Enum labels
    std::string defaultValue;        // textual, always valid for the domain
    int line = 0;                    // 1-based line of the declaration

    // Every value of the domain in order, as text (ranges enumerate lo..hi).
    std::vector<std::string> values() const;
    std::size_t cardinality() const;
    bool contains(const std::string& value) const;
    std::string describe() const; // "64 | 128 | 256", "1..8", "bool", "enum(row, col)"
};

// An assignment NAME -> textual value. Ordered, so hashing and printing are stable.
using ParamAssignment = std::map<std::string, std::string>;

struct ParamSpace {
    std::vector<ParamDomain> params;
    const ParamDomain* find(const std::string& name) const;
    ParamAssignment defaults() const;
    // Product of cardinalities (saturates at UINT64_MAX).
    std::uint64_t size() const;
    // Fills in defaults and checks names and values; errors name the parameter and its domain.
    Result<ParamAssignment> complete(const ParamAssignment& partial) const;
};

// Parses declarations; `origin` (a file name) prefixes error messages.
Result<ParamSpace> parseParamDeclarations(const std::string& source, const std::string& origin);

// Compiler definitions for an assignment: -DNAME=value; bools become 0/1; an
// enum becomes its index plus NAME_<label>=1 for readable #if tests.
std::vector<std::string> paramDefines(const ParamSpace& space, const ParamAssignment& assignment);

std::string formatAssignment(const ParamAssignment& assignment); // "BLOCK=64 UNROLL=4"
// A stored assignment ({"BLOCK": "64"}, as nodes keep it); numbers and booleans are taken as their text.
Result<ParamAssignment> parseAssignmentJson(const std::string& text);

} // namespace kw::problem
