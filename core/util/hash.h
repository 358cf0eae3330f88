#pragma once
#include <string>
#include <string_view>

namespace kw {

// Incremental SHA-256 (OpenSSL's libcrypto). Used for content addressing:
// result-cache keys, problem and KB file fingerprints.
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    // Each part is length-prefixed so that ("ab","c") and ("a","bc") differ.
    Sha256& addField(std::string_view bytes);
    std::string hexDigest();

  private:
    void* ctx_;
};

std::string sha256Hex(std::string_view bytes);

} // namespace kw
