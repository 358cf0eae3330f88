#pragma once
// A small mutation fuzzer for Qt Test drivers: Debian's toolchain here has no
// libFuzzer, so the suites bring their own loop. It is deterministic (a seeded
// PRNG; the corpus grows only on new outcome signatures, never on timing), so
// the default CI mode, a fixed iteration count, replays the same inputs every
// run. Environment:
//   KW_FUZZ_SEED=n        PRNG seed (default fixed)
//   KW_FUZZ_ITERATIONS=n  inputs to run (default per suite, a few seconds)
//   KW_FUZZ_SECONDS=s     run for s CPU-seconds instead (opt-in, long runs)
//   KW_FUZZ_LAST=path     write each input there before running it, so an
//                         uncatchable crash leaves its input behind
//   KW_FUZZ_REPLAY=path   run that one input (a saved KW_FUZZ_LAST or artifact)
//   KW_FUZZ_ARTIFACTS=dir where failing and crashing inputs, and the slowest
//                         one, are saved (default: the system temp folder)
//   KW_FUZZ_SLOW_MS=ms    an input using more CPU than this fails (default 1000)
#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

namespace kw::fuzz {

// xoshiro256**, seeded through splitmix64: fast, and the same on every platform.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) {
        for (auto& s : s_) {
            seed += 0x9e3779b97f4a7c15ull;
            std::uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            s = z ^ (z >> 31);
        }
    }
    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
    bool chance(unsigned num, unsigned den) { return below(den) < num; }
    // Sizes skewed towards small: most mutations are local, a few are huge.
    std::size_t skewed(std::size_t max) { return below(std::size_t{1} << below(bitWidth(max) + 1)) % (max + 1); }
    template <typename T> const T& pick(const std::vector<T>& v) { return v[below(v.size())]; }

  private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static unsigned bitWidth(std::size_t v) {
        unsigned w = 0;
        while (v) {
            ++w;
            v >>= 1;
        }
        return w;
    }
    std::uint64_t s_[4];
};

inline std::uint64_t hashBytes(const std::string& s) { // FNV-1a, to derive per-input choices
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
    return h;
}

inline std::string readWhole(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline bool writeWhole(const std::filesystem::path& p, const std::string& data) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    return static_cast<bool>(out);
}

// Tokens worth trying in any text input: integer and float edges, broken and
// exotic UTF-8, control characters, path pieces.
inline std::vector<std::string> commonTokens() {
    return {"0",
            "-0",
            "1",
            "-1",
            "2",
            "7",
            "255",
            "256",
            "65536",
            "2147483647",
            "2147483648",
            "-2147483648",
            "4294967296",
            "9007199254740993",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999999999999",
            "1e308",
            "1e309",
            "-1e309",
            "1e-320",
            "4.9e-324",
            "0.5",
            "1.5e0",
            "1e",
            "1e+",
            "1.2.3",
            "0x10",
            "NaN",
            "Infinity",
            "-inf",
            "\xc3\xa9",
            "\xe2\x82\xac",
            "\xf0\x9f\x98\x80",
            "\xff",
            "\xfe\xff",
            "\xc0\xaf",
            "\xed\xa0\x80",
            "\xf4\x90\x80\x80",
            "\x80",
            "\xc3",
            std::string("\0", 1),
            "\t",
            "\r\n",
            "\x1b[0m",
            "\\u0000",
            "\\ud800",
            "%s%n",
            "../",
            "/",
            "//",
            "\\",
            " "};
}

// Byte- and token-level mutations, stacked like libFuzzer's: bit flips, byte
// insert/erase, chunk duplicate/swap, splice with another corpus entry,
// dictionary tokens (inserted, replacing a word, or repeated for deep
// nesting), and very long runs.
class Mutator {
  public:
    Mutator(std::vector<std::string> tokens, std::size_t maxSize) : tokens_(std::move(tokens)), maxSize_(maxSize) {}

    std::string mutate(Rng& rng, std::string data, const std::vector<std::string>& corpus) const {
        const std::size_t rounds = 1 + rng.below(rng.chance(1, 4) ? 16 : 4);
        for (std::size_t i = 0; i < rounds; ++i) once(rng, data, corpus);
        if (data.size() > maxSize_) data.resize(maxSize_);
        return data;
    }

  private:
    void once(Rng& rng, std::string& d, const std::vector<std::string>& corpus) const {
        const std::size_t pos = rng.below(d.size() + 1);
        switch (rng.below(14)) {
        case 0:
            if (!d.empty()) d[rng.below(d.size())] ^= static_cast<char>(1u << rng.below(8));
            break;
        case 1:
            if (!d.empty()) d[rng.below(d.size())] = static_cast<char>(rng.pick(interestingBytes()));
            break;
        case 2:
            for (std::size_t n = 1 + rng.below(8); n; --n)
                d.insert(d.begin() + static_cast<long>(pos), static_cast<char>(rng.next()));
            break;
        case 3:
            d.erase(std::min(pos, d.size()), 1 + rng.skewed(64));
            break;
        case 4: { // duplicate a chunk elsewhere
            if (d.empty()) break;
            const std::size_t from = rng.below(d.size()), len = 1 + rng.skewed(std::min<std::size_t>(d.size() - from - 1, 4096));
            const std::string chunk = d.substr(from, len);
            d.insert(rng.below(d.size() + 1), chunk);
            break;
        }
        case 5: { // splice: a chunk of another input, or this prefix + its suffix
            if (corpus.empty()) break;
            const std::string& other = rng.pick(corpus);
            const std::size_t from = rng.below(other.size() + 1);
            if (rng.chance(1, 2))
                d.insert(pos, other.substr(from, 1 + rng.skewed(1024)));
            else
                d = d.substr(0, pos) + other.substr(from);
            break;
        }
        case 6:
        case 7:
            d.insert(pos, rng.pick(tokens_));
            break;
        case 8: { // replace the word (identifier or number run) at pos with a token
            std::size_t b = std::min(pos, d.size()), e = b;
            while (e < d.size() && isWordChar(d[e])) ++e;
            while (b > 0 && isWordChar(d[b - 1])) --b;
            d.replace(b, e - b, rng.pick(tokens_));
            break;
        }
        case 9: { // one token many times: deep nesting, long chains
            const std::string& t = rng.pick(tokens_);
            const std::size_t times = 1 + rng.skewed(20000);
            std::string run;
            run.reserve(t.size() * times);
            for (std::size_t i = 0; i < times; ++i) run += t;
            d.insert(pos, run);
            break;
        }
        case 10:
            d.insert(pos, std::string(1 + rng.skewed(300000), static_cast<char>(rng.pick(longRunBytes()))));
            break;
        case 11: { // swap two chunks
            if (d.size() < 4) break;
            const std::size_t len = 1 + rng.below(std::min<std::size_t>(d.size() / 2, 256));
            const std::size_t a = rng.below(d.size() - 2 * len + 1), b = a + len + rng.below(d.size() - a - 2 * len + 1);
            std::swap_ranges(d.begin() + static_cast<long>(a), d.begin() + static_cast<long>(a + len),
                             d.begin() + static_cast<long>(b));
            break;
        }
        case 12:
            d.resize(rng.below(d.size() + 1));
            break;
        default:
            d.insert(pos, rng.pick(commonTokensCached()));
            break;
        }
    }
    static bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
    static const std::vector<int>& interestingBytes() {
        static const std::vector<int> b{0,   1,   0x7f, 0x80, 0xff, '\n', '"', '\\', '{', '}', '[',
                                        ']', '(', ')',  ',',  ':',  '-',  '0', '9',  'e', '.'};
        return b;
    }
    static const std::vector<int>& longRunBytes() {
        static const std::vector<int> b{'a', '9', ' ', '\n', '(', '[', '-', '_', 0xff};
        return b;
    }
    static const std::vector<std::string>& commonTokensCached() {
        static const std::vector<std::string> t = commonTokens();
        return t;
    }
    std::vector<std::string> tokens_;
    std::size_t maxSize_;
};

// Outcome of one input: `failure` non-empty when an invariant broke;
// `signature` names the behaviour seen (error kind, branch): an input with an
// unseen signature joins the corpus.
struct Outcome {
    std::string signature;
    std::string failure;
};

// Masks what varies between equivalent messages: digits and quoted text.
inline std::string normalizeMessage(const std::string& message) {
    std::string out;
    char quote = 0;
    for (char c : message) {
        if (quote) {
            if (c == quote) {
                quote = 0;
                out += c;
            }
            continue;
        }
        if (c == '"' || c == '\'') {
            quote = c;
            out += c;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            if (out.empty() || out.back() != '0') out += '0';
            continue;
        }
        out += c;
    }
    return out;
}

struct Options {
    std::uint64_t seed = 20240611;
    std::uint64_t iterations = 0;
    double cpuSeconds = 0; // > 0: time mode
    std::string lastInput, replay;
    std::filesystem::path artifacts;
    double slowSeconds = 1.0;

    static Options fromEnvironment(std::uint64_t defaultIterations) {
        Options o;
        o.iterations = defaultIterations;
        if (const char* v = std::getenv("KW_FUZZ_SEED"); v && *v) o.seed = std::strtoull(v, nullptr, 0);
        if (const char* v = std::getenv("KW_FUZZ_ITERATIONS"); v && *v) o.iterations = std::strtoull(v, nullptr, 0);
        if (const char* v = std::getenv("KW_FUZZ_SECONDS"); v && *v) o.cpuSeconds = std::strtod(v, nullptr);
        if (const char* v = std::getenv("KW_FUZZ_LAST")) o.lastInput = v;
        if (const char* v = std::getenv("KW_FUZZ_REPLAY")) o.replay = v;
        if (const char* v = std::getenv("KW_FUZZ_SLOW_MS"); v && *v) o.slowSeconds = std::strtod(v, nullptr) / 1000.0;
        const char* a = std::getenv("KW_FUZZ_ARTIFACTS");
        o.artifacts = a && *a ? std::filesystem::path(a) : std::filesystem::temp_directory_path();
        return o;
    }
};

// Qt Test stops a test function after 5 minutes (QTEST_FUNCTION_TIMEOUT); a
// long run needs more. Call in main() before QTest::qExec reads it.
inline void allowLongRuns() {
    const char* seconds = std::getenv("KW_FUZZ_SECONDS");
    if (!seconds || !*seconds || std::getenv("QTEST_FUNCTION_TIMEOUT")) return;
    // CPU-seconds budget; wall time runs longer on a busy machine.
    const double ms = (std::strtod(seconds, nullptr) * 4 + 300) * 1000;
    setenv("QTEST_FUNCTION_TIMEOUT", std::to_string(static_cast<long long>(ms)).c_str(), 1);
}

struct Report {
    std::uint64_t iterations = 0;
    double cpuSeconds = 0, wallSeconds = 0, slowestSeconds = 0;
    std::size_t slowestSize = 0, corpusSize = 0, signatures = 0;
    std::vector<std::string> failures; // each names the saved input
    std::string summary(const char* suite, std::uint64_t seed) const {
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "%s: %llu inputs in %.1f CPU-s (%.1f s wall), %.0f inputs/CPU-s, seed %llu, %zu signatures, corpus %zu, "
                      "slowest input %.3f s (%zu bytes), %zu failures",
                      suite, static_cast<unsigned long long>(iterations), cpuSeconds, wallSeconds,
                      cpuSeconds > 0 ? static_cast<double>(iterations) / cpuSeconds : 0.0, static_cast<unsigned long long>(seed),
                      signatures, corpusSize, slowestSeconds, slowestSize, failures.size());
        return buf;
    }
};

namespace detail {
inline double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}
// What the fatal-signal handler and the hang watchdog save: the input running now.
inline std::atomic<const std::string*> g_current{nullptr};
inline char g_crashPath[4096];
inline std::atomic<std::uint64_t> g_iteration{0};

inline void saveCurrentRaw() { // async-signal-safe
    const std::string* cur = g_current.load();
    if (!cur) return;
    const int fd = ::open(g_crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    for (std::size_t done = 0; done < cur->size();) {
        const ssize_t n = ::write(fd, cur->data() + done, cur->size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
    }
    ::close(fd);
}
inline void say(const char* s) {
    [[maybe_unused]] auto n = ::write(2, s, std::strlen(s));
}
inline void onFatalSignal(int sig) {
    saveCurrentRaw();
    say("\nkw-fuzz: fatal signal on an input; saved to ");
    say(g_crashPath);
    say("\nkw-fuzz: reproduce with KW_FUZZ_REPLAY=");
    say(g_crashPath);
    say("\n");
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
} // namespace detail

// Runs the fuzz loop. `mutate` derives a new input from a corpus entry;
// `execute` runs one input and checks its invariants; exceptions escaping it
// are failures (the APIs under test return errors as values).
class Driver {
  public:
    using Mutate = std::function<std::string(Rng&, const std::string& parent, const std::vector<std::string>& corpus)>;
    using Execute = std::function<Outcome(const std::string& input)>;

    Driver(std::string suite, Options options) : suite_(std::move(suite)), o_(std::move(options)) {}

    Report run(std::vector<std::string> corpus, const Mutate& mutate, const Execute& execute) {
        Report r;
        std::error_code ec;
        std::filesystem::create_directories(o_.artifacts, ec);
        const std::string crashPath = (o_.artifacts / ("kw-fuzz-" + suite_ + "-crash.bin")).string();
        std::snprintf(detail::g_crashPath, sizeof detail::g_crashPath, "%s", crashPath.c_str());
        FatalSignalGuard guard;
        Watchdog watchdog;
        const auto wall0 = std::chrono::steady_clock::now();
        const double cpu0 = detail::threadCpuSeconds();
        std::string slowest;
        auto once = [&](const std::string& input) {
            if (!o_.lastInput.empty()) writeWhole(o_.lastInput, input);
            detail::g_current.store(&input);
            const double t0 = detail::threadCpuSeconds();
            Outcome out;
            try {
                out = execute(input);
            } catch (const std::exception& e) {
                out.failure = std::string("exception escaped the API: ") + e.what();
            } catch (...) {
                out.failure = "a non-standard exception escaped the API";
            }
            const double spent = detail::threadCpuSeconds() - t0;
            detail::g_current.store(nullptr);
            ++r.iterations;
            detail::g_iteration.store(r.iterations);
            if (spent > r.slowestSeconds) {
                r.slowestSeconds = spent;
                r.slowestSize = input.size();
                if (spent > 0.05) slowest = input; // kept for a look at the end
            }
            if (spent > o_.slowSeconds && out.failure.empty())
                out.failure = "slow input: " + std::to_string(spent) + " CPU-s for " + std::to_string(input.size()) + " bytes";
            if (!out.failure.empty()) fail(r, input, out.failure);
            return out;
        };
        if (!o_.replay.empty()) {
            const auto input = readWhole(o_.replay);
            const Outcome out = once(input);
            std::printf("%s: replayed %s (%zu bytes): signature \"%s\"%s%s\n", suite_.c_str(), o_.replay.c_str(), input.size(),
                        out.signature.c_str(), out.failure.empty() ? "" : ", FAILED: ", out.failure.c_str());
        } else {
            Rng rng(o_.seed);
            std::set<std::uint64_t> seen; // hashes: signatures can be long error lists
            // The seeds first, unmutated: they must pass, and they set the baseline signatures.
            for (const auto& input : corpus) seen.insert(hashBytes(once(input).signature));
            const std::size_t seeds = corpus.size();
            while (r.failures.size() < 5 && !corpus.empty()) {
                if (o_.cpuSeconds > 0 ? detail::threadCpuSeconds() - cpu0 >= o_.cpuSeconds : r.iterations >= o_.iterations) break;
                const std::string input = mutate(rng, rng.pick(corpus), corpus);
                const Outcome out = once(input);
                // Small inputs showing new behaviour join the corpus (bounded; a
                // full corpus replaces a random non-seed entry).
                if (seen.insert(hashBytes(out.signature)).second && input.size() <= kMaxCorpusEntry) {
                    if (corpus.size() < kMaxCorpus)
                        corpus.push_back(input);
                    else
                        corpus[seeds + rng.below(corpus.size() - seeds)] = input;
                }
            }
            r.signatures = seen.size();
        }
        if (!slowest.empty()) writeWhole(o_.artifacts / ("kw-fuzz-" + suite_ + "-slowest.bin"), slowest);
        r.corpusSize = corpus.size();
        r.cpuSeconds = detail::threadCpuSeconds() - cpu0;
        r.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        std::printf("%s\n", r.summary(suite_.c_str(), o_.seed).c_str());
        std::fflush(stdout);
        return r;
    }

  private:
    static constexpr std::size_t kMaxCorpus = 4096, kMaxCorpusEntry = 64 * 1024;

    void fail(Report& r, const std::string& input, const std::string& why) {
        const auto path = o_.artifacts / ("kw-fuzz-" + suite_ + "-failure-" + std::to_string(r.failures.size()) + ".bin");
        writeWhole(path, input);
        r.failures.push_back(why + " (input saved to " + path.string() + "; replay with KW_FUZZ_REPLAY=" + path.string() + ")");
        std::printf("%s: FAILURE on input %llu: %s\n", suite_.c_str(), static_cast<unsigned long long>(r.iterations),
                    r.failures.back().c_str());
        std::fflush(stdout);
    }

    // Crashes cannot be caught; the handler (on its own stack, so a stack
    // overflow still reports) saves the input and re-raises.
    struct FatalSignalGuard {
        static constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
        struct sigaction old[std::size(kSignals)]{};
        stack_t oldStack{};
        std::vector<char> altStack = std::vector<char>(1 << 16);
        FatalSignalGuard() {
            stack_t st{};
            st.ss_sp = altStack.data();
            st.ss_size = altStack.size();
            sigaltstack(&st, &oldStack);
            struct sigaction sa {};
            sa.sa_handler = detail::onFatalSignal;
            sa.sa_flags = SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &sa, &old[i]);
        }
        ~FatalSignalGuard() {
            for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &old[i], nullptr);
            sigaltstack(&oldStack, nullptr);
        }
    };

    // An input still running after kHangSeconds of wall time is a hang: save
    // it and abort, since it cannot be interrupted.
    struct Watchdog {
        static constexpr int kHangSeconds = 20;
        std::atomic<bool> stop{false};
        std::thread thread{[this] {
            std::uint64_t lastIteration = ~0ull;
            int stuck = 0;
            while (!stop.load()) {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                const auto it = detail::g_iteration.load();
                const bool running = detail::g_current.load() != nullptr;
                stuck = running && it == lastIteration ? stuck + 1 : 0;
                lastIteration = it;
                if (stuck >= kHangSeconds * 10) {
                    detail::say("\nkw-fuzz: an input ran longer than 20 s (a hang)");
                    detail::onFatalSignal(SIGABRT);
                }
            }
        }};
        ~Watchdog() {
            stop = true;
            thread.join();
        }
    };

    std::string suite_;
    Options o_;
};

} // namespace kw::fuzz
