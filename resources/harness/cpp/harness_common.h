// Kernelwright's judge (judge_main.cpp, for the cpp and cuda backends): dtypes,
// the input generator, fills, poisons, output comparison, statistics and JSON
// text. Header-only, no dependencies beyond the C++ standard library, so a
// job dir builds it with the toolchain alone. Fills and checks are templates
// over the buffer type.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <type_traits>
#include <vector>

namespace {
// ---------------------------------------------------------------- dtypes ---
enum class DT { F32, F64, I8, I16, I32, I64, U8, U16, U32, U64 };

size_t dtSize(DT t) {
    switch (t) {
    case DT::F64:
    case DT::I64:
    case DT::U64:
        return 8;
    case DT::F32:
    case DT::I32:
    case DT::U32:
        return 4;
    case DT::I16:
    case DT::U16:
        return 2;
    default:
        return 1;
    }
}
bool dtFloating(DT t) {
    return t == DT::F32 || t == DT::F64;
}

double loadAsDouble(DT t, const void* base, size_t i) {
    switch (t) {
    case DT::F32:
        return static_cast<const float*>(base)[i];
    case DT::F64:
        return static_cast<const double*>(base)[i];
    case DT::I8:
        return static_cast<const int8_t*>(base)[i];
    case DT::I16:
        return static_cast<const int16_t*>(base)[i];
    case DT::I32:
        return static_cast<const int32_t*>(base)[i];
    case DT::I64:
        return static_cast<double>(static_cast<const int64_t*>(base)[i]);
    case DT::U8:
        return static_cast<const uint8_t*>(base)[i];
    case DT::U16:
        return static_cast<const uint16_t*>(base)[i];
    case DT::U32:
        return static_cast<const uint32_t*>(base)[i];
    case DT::U64:
        return static_cast<double>(static_cast<const uint64_t*>(base)[i]);
    }
    return 0;
}

// ------------------------------------------------------------------- rng ---
// splitmix64: fast, good enough for test data, identical on every host.
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t next() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    double normal() {
        double u1 = uniform(), u2 = uniform();
        if (u1 < 1e-300) u1 = 1e-300;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }
    int64_t range(int64_t lo, int64_t hi) { // inclusive
        if (hi <= lo) return lo;
        return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
    }
};

uint64_t mixSeed(uint64_t a, uint64_t b) {
    Rng r(a * 0x100000001B3ull ^ (b + 0x9E3779B97F4A7C15ull));
    return r.next();
}

// ------------------------------------------------------------------ fills ---
template <typename T, typename B> void fillUniform(B& b, Rng& r, double lo, double hi) {
    for (size_t i = 0; i < b.count; ++i) b.template as<T>()[i] = static_cast<T>(lo + (hi - lo) * r.uniform());
}
template <typename T, typename B> void fillNormal(B& b, Rng& r, double mean, double sd) {
    for (size_t i = 0; i < b.count; ++i) b.template as<T>()[i] = static_cast<T>(mean + sd * r.normal());
}
// The timed rounds' fresh draws of a normal fill: a sum of four uniforms
// (two 64-bit draws), scaled to the mean and deviation. Its tails stop at
// 3.46 deviations, which timing does not notice; a third of Box-Muller's cost
// (log and cos an element made refreshing a 4M-element input 50 ms).
template <typename T, typename B> void fillNormalFast(B& b, Rng& r, double mean, double sd) {
    constexpr double unit = 1.0 / 4294967296.0, scale = 1.7320508075688772; // sqrt(12 / 4)
    for (size_t i = 0; i < b.count; ++i) {
        const uint64_t u = r.next(), v = r.next();
        const double sum = static_cast<double>(u >> 32) + static_cast<double>(u & 0xFFFFFFFFu) + static_cast<double>(v >> 32) +
                           static_cast<double>(v & 0xFFFFFFFFu);
        b.template as<T>()[i] = static_cast<T>(mean + sd * scale * (sum * unit - 2.0));
    }
}
template <typename T, typename B> void fillIntRange(B& b, Rng& r, double lo, double hi) {
    for (size_t i = 0; i < b.count; ++i)
        b.template as<T>()[i] = static_cast<T>(r.range(static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
}
template <typename T, typename B> void fillConstant(B& b, double v) {
    for (size_t i = 0; i < b.count; ++i) b.template as<T>()[i] = static_cast<T>(v);
}
// Sorted along the last dimension (`row` elements per row).
template <typename T, typename B> void sortRows(B& b, int64_t row, bool distinct) {
    if (row <= 0) return;
    for (size_t start = 0; start + static_cast<size_t>(row) <= b.count; start += static_cast<size_t>(row)) {
        T* p = b.template as<T>() + start;
        std::sort(p, p + row);
        if (distinct) // nudge duplicates upwards to keep rows strictly increasing
            for (int64_t i = 1; i < row; ++i)
                if (!(p[i] > p[i - 1])) {
                    if constexpr (std::is_floating_point<T>::value)
                        p[i] = std::nextafter(p[i - 1], static_cast<T>(INFINITY));
                    else
                        p[i] = static_cast<T>(p[i - 1] + 1);
                }
    }
}
// Jagged lengths; returns their sum. With offsets=true writes n+1 prefix sums.
template <typename T, typename B>
int64_t fillJagged(B& b, Rng& r, int64_t minLen, int64_t maxLen, double emptyFraction, bool offsets) {
    const size_t n = offsets ? (b.count > 0 ? b.count - 1 : 0) : b.count;
    int64_t total = 0;
    if (offsets && b.count > 0) b.template as<T>()[0] = 0;
    for (size_t i = 0; i < n; ++i) {
        int64_t len = r.range(minLen, maxLen);
        if (emptyFraction > 0 && r.uniform() < emptyFraction) len = 0;
        total += len;
        if (offsets)
            b.template as<T>()[i + 1] = static_cast<T>(total);
        else
            b.template as<T>()[i] = static_cast<T>(len);
    }
    return total;
}
template <typename T, typename B> void fillSampleFrom(B& b, const B& from, Rng& r, double fraction, double lo, double hi) {
    for (size_t i = 0; i < b.count; ++i) {
        if (from.count > 0 && r.uniform() < fraction) {
            b.template as<T>()[i] = reinterpret_cast<const T*>(from.data)[r.next() % from.count];
        } else if (std::is_floating_point<T>::value) {
            b.template as<T>()[i] = static_cast<T>(lo + (hi - lo) * r.uniform());
        } else {
            b.template as<T>()[i] = static_cast<T>(r.range(static_cast<int64_t>(lo), static_cast<int64_t>(hi)));
        }
    }
}

// ---------------------------------------------------------------- refresh ---
// Jagged lengths in a new order, in one pass and without allocating: each
// block of 64 is rotated by a random amount and swapped with a random nearby
// block half of the time; their sum (a size other buffers follow) stays.
// (Every other input is drawn again from its fill: kw_refresh_case.)
template <typename T, typename B> void refreshBlocks(B& b, Rng& r) {
    constexpr size_t block = 64, window = 32; // swaps stay within 32 blocks: cache-friendly
    const size_t n = b.count;
    if (n < 2) return;
    T* x = b.template as<T>();
    const size_t blocks = n / block;
    T tmp[block];
    for (size_t k = 0; k * block < n; ++k) {
        const uint64_t bits = r.next();
        T* p = x + k * block;
        const size_t len = std::min(block, n - k * block);
        if (len > 1) { // rotate by a random amount
            const size_t shift = static_cast<size_t>(bits % len);
            std::memcpy(tmp, p, len * sizeof(T));
            std::memcpy(p, tmp + shift, (len - shift) * sizeof(T));
            std::memcpy(p + (len - shift), tmp, shift * sizeof(T));
        }
        if ((bits >> 33 & 1) && len == block && blocks > 1) {
            const size_t lo = k > window ? k - window : 0, hi = std::min(blocks, k + window + 1);
            const size_t other = lo + static_cast<size_t>((bits >> 34) % (hi - lo));
            if (other != k) std::swap_ranges(p, p + block, x + other * block);
        }
    }
}
// Offsets (n+1 prefix sums): the lengths between them move, the total stays.
template <typename T, typename B> void permuteOffsets(B& b, Rng& r) {
    if (b.count < 3) return;
    T* o = b.template as<T>();
    const size_t n = b.count - 1;
    std::vector<T> lengths(n);
    for (size_t i = 0; i < n; ++i) lengths[i] = static_cast<T>(o[i + 1] - o[i]);
    for (size_t i = n - 1; i > 0; --i) std::swap(lengths[i], lengths[static_cast<size_t>(r.next() % (i + 1))]);
    for (size_t i = 0; i < n; ++i) o[i + 1] = static_cast<T>(o[i] + lengths[i]);
}

int64_t kw_ceil_div(int64_t a, int64_t b) {
    return b == 0 ? 0 : (a + b - 1) / b;
}

double now() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void writeAll(int fd, const char* s) {
    size_t n = std::strlen(s);
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0) return;
        s += w;
        n -= static_cast<size_t>(w);
    }
}

// ------------------------------------------------------------------ json ---
// The length of the valid UTF-8 sequence at s[i], or 0 when it is not one
// (overlong forms, surrogates and code points past U+10FFFF are not).
size_t utf8SequenceLength(const std::string& s, size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    uint32_t cp;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else
        return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        const unsigned char cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

// JSON string contents: always valid UTF-8, whatever bytes a compiler log or
// a candidate's stderr held (each invalid byte becomes U+FFFD).
std::string jsonEscape(const std::string& s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const size_t n = utf8SequenceLength(s, i);
        if (n == 0) {
            out += "\ufffd";
            ++i;
            continue;
        }
        if (n > 1) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
        ++i;
    }
    return out;
}
std::string q(const std::string& s) {
    return "\"" + jsonEscape(s) + "\"";
}
std::string num(double v) {
    if (std::isnan(v)) return "\"nan\"";
    if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string readFileTail(const char* path, size_t maxBytes) {
    FILE* f = std::fopen(path, "rb");
    if (!f) return {};
    std::string s;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    std::fclose(f);
    if (s.size() > maxBytes)
        s = "[... " + std::to_string(s.size() - maxBytes) + " bytes cut ...]\n" + s.substr(s.size() - maxBytes);
    return s;
}

std::string hostName() {
    char buf[256] = {0};
    gethostname(buf, sizeof buf - 1);
    return buf;
}

std::string cpuModel() {
    FILE* f = std::fopen("/proc/cpuinfo", "r");
    if (!f) return "unknown";
    char line[512];
    std::string model = "unknown";
    while (std::fgets(line, sizeof line, f)) {
        if (std::strncmp(line, "model name", 10) == 0) {
            const char* colon = std::strchr(line, ':');
            if (colon) {
                model = colon + 2;
                while (!model.empty() && (model.back() == '\n' || model.back() == ' ')) model.pop_back();
            }
            break;
        }
    }
    std::fclose(f);
    return model;
}

// -------------------------------------------------------------- checking ---
// Poisons: a quiet NaN with a recognisable payload for floats, and two
// different byte patterns; an element equal to poison A after the first run
// and poison B after the second was never written.
template <typename B> void poison(B& b, int which) {
    if (b.dt == DT::F32) {
        const uint32_t bits = which == 0 ? 0x7FC0DEADu : 0x7FC0BEEFu;
        for (size_t i = 0; i < b.count; ++i) std::memcpy(b.data + i * 4, &bits, 4);
    } else if (b.dt == DT::F64) {
        const uint64_t bits = which == 0 ? 0x7FF8DEADDEADDEADull : 0x7FF8BEEFBEEFBEEFull;
        for (size_t i = 0; i < b.count; ++i) std::memcpy(b.data + i * 8, &bits, 8);
    } else {
        std::memset(b.data, which == 0 ? 0xA5 : 0x5A, b.dataBytes);
    }
}
template <typename B> bool isPoison(const B& b, size_t i, int which) {
    const size_t sz = dtSize(b.dt);
    unsigned char expect[8];
    if (b.dt == DT::F32) {
        const uint32_t bits = which == 0 ? 0x7FC0DEADu : 0x7FC0BEEFu;
        std::memcpy(expect, &bits, 4);
    } else if (b.dt == DT::F64) {
        const uint64_t bits = which == 0 ? 0x7FF8DEADDEADDEADull : 0x7FF8BEEFBEEFBEEFull;
        std::memcpy(expect, &bits, 8);
    } else {
        std::memset(expect, which == 0 ? 0xA5 : 0x5A, sz);
    }
    return std::memcmp(b.data + i * sz, expect, sz) == 0;
}

struct Comparison {
    std::string kind = "ok"; // ok | mismatch | nan | unwritten | all_zero | nondeterministic | modified_input
    size_t mismatches = 0, unwritten = 0, nondeterministic = 0;
    double maxAbs = 0, maxRel = 0;
    long long firstIndex = -1;
    double firstExpected = 0, firstActual = 0;
};

template <typename B>
Comparison compareOutput(const B& actual, const std::vector<unsigned char>& expected, const std::vector<unsigned char>* second,
                         const B* secondBuffer, double rtol, double atol) {
    Comparison cmp;
    const size_t sz = dtSize(actual.dt);
    const bool floating = dtFloating(actual.dt);
    bool expectedNonzero = false, actualAllZero = true, sawNan = false;
    for (size_t i = 0; i < actual.count; ++i) {
        const double e = loadAsDouble(actual.dt, expected.data(), i);
        const double a = loadAsDouble(actual.dt, actual.data, i);
        if (second && secondBuffer && isPoison(actual, i, 0) && isPoison(*secondBuffer, i, 1)) {
            ++cmp.unwritten;
            if (cmp.firstIndex < 0) {
                cmp.firstIndex = static_cast<long long>(i);
                cmp.firstExpected = e;
                cmp.firstActual = a;
            }
            continue;
        }
        if (second && std::memcmp(actual.data + i * sz, second->data() + i * sz, sz) != 0) ++cmp.nondeterministic;
        if (e != 0) expectedNonzero = true;
        if (a != 0) actualAllZero = false;
        bool ok;
        if (floating) {
            if (std::isnan(a) || std::isnan(e)) {
                ok = false;
                sawNan = true;
            } else if (std::isinf(a) || std::isinf(e))
                ok = a == e;
            else {
                const double diff = std::fabs(a - e);
                const double rel = e != 0 ? diff / std::fabs(e) : (diff == 0 ? 0 : INFINITY);
                cmp.maxAbs = std::max(cmp.maxAbs, diff);
                if (rel > cmp.maxRel) cmp.maxRel = rel;
                ok = diff <= atol + rtol * std::fabs(e);
            }
        } else {
            ok = std::memcmp(actual.data + i * sz, expected.data() + i * sz, sz) == 0;
            if (!ok) cmp.maxAbs = std::max(cmp.maxAbs, std::fabs(a - e));
        }
        if (!ok) {
            ++cmp.mismatches;
            if (cmp.firstIndex < 0) {
                cmp.firstIndex = static_cast<long long>(i);
                cmp.firstExpected = e;
                cmp.firstActual = a;
            }
        }
    }
    if (cmp.unwritten)
        cmp.kind = "unwritten";
    else if (sawNan)
        cmp.kind = "nan";
    else if (cmp.mismatches)
        cmp.kind = "mismatch";
    // Zeros can hide inside an absolute tolerance when the expected values are tiny.
    else if (expectedNonzero && actualAllZero && actual.count > 0)
        cmp.kind = "all_zero";
    else if (cmp.nondeterministic)
        cmp.kind = "nondeterministic";
    return cmp;
}

// The fast path of a check that usually passes (every timed call's output):
// true when every element is within tolerance (floats; integers exactly), no
// NaN, and not all zeros where the expected values are not. compareOutput
// then says what is wrong when it is false.
template <typename T> bool typedWithinTolerance(const T* a, const T* e, size_t n, double rtol, double atol) {
    bool expectedNonzero = false, actualAllZero = true;
    for (size_t i = 0; i < n; ++i) {
        const T x = a[i], y = e[i];
        expectedNonzero |= y != 0;
        actualAllZero &= x == 0;
        if constexpr (std::is_floating_point<T>::value) {
            if (!(std::fabs(static_cast<double>(x) - static_cast<double>(y)) <=
                  atol + rtol * std::fabs(static_cast<double>(y))) &&
                !(std::isinf(x) && x == y))
                return false;
        } else if (x != y) {
            return false;
        }
    }
    return !(expectedNonzero && actualAllZero && n > 0);
}
template <typename B> bool withinTolerance(const B& actual, const unsigned char* expected, double rtol, double atol) {
    switch (actual.dt) {
    case DT::F32:
        return typedWithinTolerance(reinterpret_cast<const float*>(actual.data), reinterpret_cast<const float*>(expected),
                                    actual.count, rtol, atol);
    case DT::F64:
        return typedWithinTolerance(reinterpret_cast<const double*>(actual.data), reinterpret_cast<const double*>(expected),
                                    actual.count, rtol, atol);
    default:
        return std::memcmp(actual.data, expected, actual.dataBytes) == 0; // equal bits: not "all zero" unless the answer is
    }
}

std::string checkJson(const char* shapeName, const std::string& sizesJson, uint64_t seed, const std::string& output,
                      const Comparison& c, size_t count, const std::string& detail) {
    std::string s = "{\"shape\":" + q(shapeName) + ",\"sizes\":" + sizesJson + ",\"seed\":" + std::to_string(seed) +
                    ",\"output\":" + q(output) + ",\"passed\":" + (c.kind == "ok" ? "true" : "false") + ",\"kind\":" + q(c.kind) +
                    ",\"elements\":" + std::to_string(count) + ",\"mismatches\":" + std::to_string(c.mismatches) +
                    ",\"unwritten\":" + std::to_string(c.unwritten) +
                    ",\"nondeterministic\":" + std::to_string(c.nondeterministic) + ",\"max_abs_error\":" + num(c.maxAbs) +
                    ",\"max_rel_error\":" + num(c.maxRel);
    if (c.firstIndex >= 0)
        s += ",\"first_mismatch\":{\"index\":" + std::to_string(c.firstIndex) + ",\"expected\":" + num(c.firstExpected) +
             ",\"actual\":" + num(c.firstActual) + "}";
    if (!detail.empty()) s += ",\"detail\":" + q(detail);
    return s + "}";
}

// `draw` names an input set that no seed describes (the wide inputs); when
// null the set is the shape's seed.
std::string describeFailure(const char* shapeName, uint64_t seed, const std::string& output, const Comparison& c, size_t count,
                            const char* draw = nullptr) {
    char where[256];
    if (draw)
        std::snprintf(where, sizeof where, "shape %s (%s)", shapeName, draw);
    else
        std::snprintf(where, sizeof where, "shape %s seed %" PRIu64, shapeName, seed);
    char buf[768];
    if (c.kind == "unwritten")
        std::snprintf(buf, sizeof buf, "%s: %zu of %zu elements of %s were never written (first at index %lld)", where,
                      c.unwritten, count, output.c_str(), c.firstIndex);
    else if (c.kind == "all_zero")
        std::snprintf(buf, sizeof buf, "%s: %s is all zeros but the reference is not", where, output.c_str());
    else if (c.kind == "nondeterministic")
        std::snprintf(buf, sizeof buf, "%s: %s differs between two calls on the same input (%zu elements)", where, output.c_str(),
                      c.nondeterministic);
    else
        std::snprintf(buf, sizeof buf, "%s: %s has %zu of %zu elements wrong%s; first at index %lld: expected %.9g, got %.9g",
                      where, output.c_str(), c.mismatches, count, c.kind == "nan" ? " (NaN)" : "", c.firstIndex, c.firstExpected,
                      c.firstActual);
    return buf;
}

// ---------------------------------------------------------------- timing ---
struct Stats {
    double median = 0, p10 = 0, p90 = 0, mean = 0, cv = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
    Stats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    auto pct = [&](double p) {
        const double idx = p * static_cast<double>(v.size() - 1);
        const size_t lo = static_cast<size_t>(idx);
        const size_t hi = std::min(lo + 1, v.size() - 1);
        return v[lo] + (v[hi] - v[lo]) * (idx - static_cast<double>(lo));
    };
    s.median = pct(0.5);
    s.p10 = pct(0.1);
    s.p90 = pct(0.9);
    s.min = v.front();
    s.max = v.back();
    double sum = 0;
    for (double x : v) sum += x;
    s.mean = sum / static_cast<double>(v.size());
    double var = 0;
    for (double x : v) var += (x - s.mean) * (x - s.mean);
    s.cv = v.size() > 1 && s.mean > 0 ? std::sqrt(var / static_cast<double>(v.size() - 1)) / s.mean : 0;
    return s;
}

// The speedup of `fast` over `slow` timed in the same rounds: the median of
// each round's ratio. Kernels of one round run back to back, so a slow drift
// of the machine (frequency, a neighbour's load, steal time) falls on both
// and cancels; the ratio of two medians let it through, and the reference
// timed against itself moved by up to 9% on shapes with 10 rounds.
std::vector<double> pairedRatios(const std::vector<double>& slow, const std::vector<double>& fast) {
    std::vector<double> r;
    for (size_t i = 0; i < std::min(slow.size(), fast.size()); ++i)
        if (slow[i] > 0 && fast[i] > 0) r.push_back(slow[i] / fast[i]);
    return r;
}

double pairedSpeedup(const std::vector<double>& slow, const std::vector<double>& fast) {
    return stats(pairedRatios(slow, fast)).median;
}

// A distribution-free 95 % interval for the median of `v` (order statistics:
// ranks n/2 -+ 1.96 sqrt(n)/2; round times are skewed, not normal), as
// {low, high}; {0, 0} when empty.
struct SpeedupInterval {
    double low = 0, high = 0;
};

SpeedupInterval medianInterval(std::vector<double> v) {
    if (v.empty()) return {};
    std::sort(v.begin(), v.end());
    const double n = static_cast<double>(v.size()), half = 1.96 * std::sqrt(n) / 2;
    const long lo = std::max(0L, static_cast<long>(std::floor(n / 2 - half)));
    const long hi = std::min(static_cast<long>(v.size()) - 1, static_cast<long>(std::ceil(n / 2 + half)) - 1);
    return {v[static_cast<size_t>(lo)], v[static_cast<size_t>(std::max(lo, hi))]};
}

// A 95 % interval from the medians of up to 8 consecutive blocks of the
// rounds (5 rounds a block at least; Student's t over the block medians);
// {0, 0} for fewer than 10 rounds. Rounds are not independent draws: a
// stretch of slow rounds (a busy CPU, a neighbour's burst) moves the ratios
// of its rounds together, which the order statistics' interval does not see
// (on an H100 it missed 1.00 for a reference timed against itself in 4 of 11
// runs of launch-bound models; the block medians' held it in all four).
SpeedupInterval blockInterval(const std::vector<double>& ratios) {
    static const double t975[] = {12.71, 4.30, 3.18, 2.78, 2.57, 2.45, 2.36};
    const size_t n = ratios.size(), k = std::min<size_t>(8, n / 5);
    if (k < 2) return {};
    std::vector<double> medians;
    for (size_t i = 0; i < k; ++i) {
        std::vector<double> block(ratios.begin() + static_cast<long>(n * i / k),
                                  ratios.begin() + static_cast<long>(n * (i + 1) / k));
        std::sort(block.begin(), block.end());
        medians.push_back(block[block.size() / 2]);
    }
    double mean = 0, var = 0;
    for (double m : medians) mean += m / static_cast<double>(k);
    for (double m : medians) var += (m - mean) * (m - mean) / static_cast<double>(k - 1);
    const double half = t975[k - 2] * std::sqrt(var / static_cast<double>(k));
    return {mean - half, mean + half};
}

// The interval a speedup is reported with, its rounds in the order they ran:
// the wider of the order statistics' (independent rounds) and the block
// medians' (rounds in stretches).
SpeedupInterval speedupInterval(const std::vector<double>& ratios) {
    SpeedupInterval i = medianInterval(ratios);
    if (ratios.size() >= 10) {
        const SpeedupInterval b = blockInterval(ratios);
        i = {std::min(i.low, b.low), std::max(i.high, b.high)};
    }
    return i;
}

// Whether the median of a shape's paired ratios (in the order they ran) is
// known to within 1 % of itself: the judge times past its planned rounds
// until it is (within the same cap). On a loaded machine, or for a kernel
// whose calls scatter, the planned rounds' median moved by several percent
// for a reference timed against itself. Fewer than 10 ratios never are.
bool preciseEnough(const std::vector<double>& ratios) {
    if (ratios.size() < 10) return false;
    const double median = stats(ratios).median;
    const SpeedupInterval i = speedupInterval(ratios);
    return median > 0 && (i.high - i.low) / 2 <= 0.01 * median;
}

std::string statsJson(const std::string& name, const std::vector<double>& samples) {
    const Stats s = stats(samples);
    std::string out = "{\"name\":" + q(name) + ",\"median\":" + num(s.median) + ",\"p10\":" + num(s.p10) +
                      ",\"p90\":" + num(s.p90) + ",\"mean\":" + num(s.mean) + ",\"cv\":" + num(s.cv) + ",\"min\":" + num(s.min) +
                      ",\"max\":" + num(s.max) + ",\"samples\":[";
    for (size_t i = 0; i < samples.size(); ++i) out += (i ? "," : "") + num(samples[i]);
    return out + "]}";
}

// Evicts the case's buffers from every cache level so that each timed call

} // namespace
