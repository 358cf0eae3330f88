#include "eval/out_of_memory.h"

namespace kw::eval {

bool mentionsOutOfMemory(std::string_view message) {
    for (std::string_view words : {"out of memory", "OutOfMemoryError", "CUDA_ERROR_OUT_OF_MEMORY", "KW-OOM", "killed (signal 9)",
                                   "could not allocate memory"})
        if (message.find(words) != std::string_view::npos) return true;
    return false;
}

} // namespace kw::eval
