#pragma once
// Whether a failure's message says memory ran out: CUDA's and PyTorch's words
// for it, the allocation guard's, and the host killing a process (signal 9,
// most often the kernel's OOM killer). Callers that ran several jobs side by
// side use it to try such a failure again with the device to itself.
#include <string_view>

namespace kw::eval {

bool mentionsOutOfMemory(std::string_view message);

} // namespace kw::eval
