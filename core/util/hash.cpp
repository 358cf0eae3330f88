#include "util/hash.h"

#include <openssl/evp.h>

#include <cstdint>
#include <cstdio>

namespace kw {

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    EVP_DigestInit_ex(static_cast<EVP_MD_CTX*>(ctx_), EVP_sha256(), nullptr);
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(static_cast<EVP_MD_CTX*>(ctx_));
}

Sha256& Sha256::addField(std::string_view bytes) {
    auto* ctx = static_cast<EVP_MD_CTX*>(ctx_);
    const std::uint64_t size = bytes.size();
    EVP_DigestUpdate(ctx, &size, sizeof size);
    EVP_DigestUpdate(ctx, bytes.data(), bytes.size());
    return *this;
}

std::string Sha256::hexDigest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(static_cast<EVP_MD_CTX*>(ctx_), digest, &length);
    std::string hex;
    hex.reserve(length * 2);
    char byte[3];
    for (unsigned int i = 0; i < length; ++i) {
        std::snprintf(byte, sizeof byte, "%02x", digest[i]);
        hex += byte;
    }
    return hex;
}

std::string sha256Hex(std::string_view bytes) {
    Sha256 hasher;
    hasher.addField(bytes);
    return hasher.hexDigest();
}

} // namespace kw
