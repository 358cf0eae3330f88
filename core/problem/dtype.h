#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace kw::problem {

enum class DType { F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

std::optional<DType> parseDType(std::string_view name);
std::string_view dtypeName(DType dtype);    // "f32"
std::string_view dtypeCppType(DType dtype); // "float", "int64_t"
std::size_t dtypeSize(DType dtype);
bool isFloating(DType dtype);
std::string_view knownDTypes(); // for error messages

} // namespace kw::problem
