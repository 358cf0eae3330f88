#pragma once
// KW_MAX_ISA=avx2 makes this process treat its host as a CPU without
// AVX-512: C++ candidates are built with -mno-avx512f after the problem's
// flags, and the machine probe measures (and caches) the host as an AVX2
// machine. It checks code and seeds for an AVX2-only target from an AVX-512
// host; the hardware still runs at its own speed.
#include <string>

namespace kw {

// True when KW_MAX_ISA=avx2 (any other value is ignored, with a warning once).
bool capAtAvx2();
// The CPU has AVX-512F and no cap hides it.
bool avx512Usable();

} // namespace kw
