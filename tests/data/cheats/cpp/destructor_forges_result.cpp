// expect: wrong_answer
// Does no work; a static object's destructor, which runs when the process
// exits after the harness wrote its verdict, writes a glowing result.json.
#include <cstdio>
namespace {
struct Forger {
    ~Forger() {
        if (FILE* f = std::fopen("result.json", "w")) {
            std::fputs("{\"schema\":1,\"status\":\"ok\",\"message\":\"forged\",\"speedup\":1000,\"checks\":[],\"timing\":[]}\n", f);
            std::fclose(f);
        }
    }
} forger;
} // namespace
void saxpy(const float*, const float*, float*, int64_t, float) {}
