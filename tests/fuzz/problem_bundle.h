#pragma once
// A problem folder as one byte string, so the fuzzer can mutate, save and
// replay it like any other input. Format: "KSFUZZ-BUNDLE 1\n", then per entry
// "<F|D|L> <path bytes> <data bytes>\n<path><data>\n" (F: file with content,
// D: directory, L: symlink to <data>).
#include "fuzz_engine.h"

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace kw::fuzz {

struct BundleEntry {
    char kind = 'F';
    std::string path, data;
};

struct Bundle {
    std::vector<BundleEntry> entries;

    BundleEntry* find(const std::string& path) {
        for (auto& e : entries)
            if (e.path == path) return &e;
        return nullptr;
    }

    std::string serialize() const {
        std::string s = "KSFUZZ-BUNDLE 1\n";
        for (const auto& e : entries)
            s += std::string(1, e.kind) + " " + std::to_string(e.path.size()) + " " + std::to_string(e.data.size()) + "\n" +
                 e.path + e.data + "\n";
        return s;
    }

    // Lenient: a damaged blob gives the entries read so far.
    static Bundle parse(const std::string& s) {
        Bundle b;
        std::size_t pos = s.find('\n');
        if (s.rfind("KSFUZZ-BUNDLE 1\n", 0) != 0) return b;
        ++pos;
        while (pos < s.size()) {
            const std::size_t eol = s.find('\n', pos);
            if (eol == std::string::npos) break;
            BundleEntry e;
            unsigned long long pathLen = 0, dataLen = 0;
            char kind = 0;
            if (std::sscanf(s.substr(pos, eol - pos).c_str(), "%c %llu %llu", &kind, &pathLen, &dataLen) != 3) break;
            if (pathLen > s.size() || dataLen > s.size() || eol + 1 + pathLen + dataLen > s.size()) break;
            e.kind = kind;
            e.path = s.substr(eol + 1, pathLen);
            e.data = s.substr(eol + 1 + pathLen, dataLen);
            b.entries.push_back(std::move(e));
            pos = eol + 1 + pathLen + dataLen + 1;
        }
        return b;
    }

    // Every regular file below `dir`, sorted (a seed for the corpus).
    static Bundle fromFolder(const std::filesystem::path& dir) {
        Bundle b;
        std::vector<std::filesystem::path> files;
        for (const auto& it : std::filesystem::recursive_directory_iterator(dir))
            if (it.is_regular_file()) files.push_back(it.path());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) b.entries.push_back({'F', std::filesystem::relative(f, dir).generic_string(), readWhole(f)});
        return b;
    }

    // Writes the entries below `root` (emptied first). Paths are confined to
    // `root`: "..", absolute and NUL pieces are dropped, nothing is written
    // through a symlink, and links are made last. Entries the file system
    // refuses (names too long, a file where a folder should be) are skipped.
    void writeTo(const std::filesystem::path& root) const {
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
        std::filesystem::create_directories(root, ec);
        for (char pass : {'F', 'L'})
            for (const auto& e : entries) {
                if ((pass == 'L') != (e.kind == 'L')) continue;
                const auto rel = confined(e.path);
                if (rel.empty() || !noLinkOnTheWay(root, rel)) continue;
                const auto p = root / rel;
                if (e.kind == 'D') {
                    std::filesystem::create_directories(p, ec);
                    continue;
                }
                std::filesystem::create_directories(p.parent_path(), ec);
                if (!noLinkOnTheWay(root, rel)) continue;
                if (e.kind == 'L') {
                    if (!std::filesystem::exists(std::filesystem::symlink_status(p, ec)))
                        std::filesystem::create_symlink(e.data, p, ec);
                } else if (std::filesystem::symlink_status(p, ec).type() != std::filesystem::file_type::symlink) {
                    writeWhole(p, e.data);
                }
            }
    }

  private:
    static std::filesystem::path confined(const std::string& path) {
        std::filesystem::path out;
        std::string part;
        auto flush = [&] {
            if (!part.empty() && part != "." && part != "..") out /= part;
            part.clear();
        };
        for (char c : path) {
            if (c == '/')
                flush();
            else if (c != '\0')
                part += c;
        }
        flush();
        return out;
    }
    static bool noLinkOnTheWay(const std::filesystem::path& root, const std::filesystem::path& rel) {
        std::filesystem::path p = root;
        std::error_code ec;
        for (const auto& part : rel.parent_path()) {
            p /= part;
            if (std::filesystem::is_symlink(std::filesystem::symlink_status(p, ec))) return false;
        }
        return true;
    }
};

} // namespace kw::fuzz
