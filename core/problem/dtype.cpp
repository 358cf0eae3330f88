#include "problem/dtype.h"

#include <array>

namespace kw::problem {
namespace {
struct DTypeInfo {
    DType dtype;
    std::string_view name;
    std::string_view cppType;
    std::size_t size;
};
constexpr std::array<DTypeInfo, 10> kTypes{{
    {DType::F32, "f32", "float", 4},
    {DType::F64, "f64", "double", 8},
    {DType::I8, "i8", "int8_t", 1},
    {DType::I16, "i16", "int16_t", 2},
    {DType::I32, "i32", "int32_t", 4},
    {DType::I64, "i64", "int64_t", 8},
    {DType::U8, "u8", "uint8_t", 1},
    {DType::U16, "u16", "uint16_t", 2},
    {DType::U32, "u32", "uint32_t", 4},
    {DType::U64, "u64", "uint64_t", 8},
}};

const DTypeInfo& info(DType dtype) {
    return kTypes[static_cast<std::size_t>(dtype)];
}
} // namespace

std::optional<DType> parseDType(std::string_view name) {
    for (const auto& t : kTypes)
        if (t.name == name) return t.dtype;
    return std::nullopt;
}

std::string_view dtypeName(DType dtype) {
    return info(dtype).name;
}
std::string_view dtypeCppType(DType dtype) {
    return info(dtype).cppType;
}
std::size_t dtypeSize(DType dtype) {
    return info(dtype).size;
}
bool isFloating(DType dtype) {
    return dtype == DType::F32 || dtype == DType::F64;
}
std::string_view knownDTypes() {
    return "f32, f64, i8, i16, i32, i64, u8, u16, u32, u64";
}

} // namespace kw::problem
