// expect: runtime_error
// Leaves the process from inside the call, hoping the harness counts the
// silence as success.
#include <cstdlib>
void saxpy(const float*, const float*, float*, int64_t, float) { std::_Exit(0); }
