#!/usr/bin/env bash
# Downloads (does not install) the Debian 12 packages that building
# kernelwright-cli needs beyond a compiler and CMake, for a GPU host that reaches
# no registry: tests/gpu/run_on_gpu.sh unpacks them into a private prefix.
# usage: tests/gpu/fetch_debs.sh DIR
set -euo pipefail
dir=${1:?usage: fetch_debs.sh DIR}
mkdir -p "$dir" && cd "$dir"
apt-get download \
  libcurl4-openssl-dev libcurl4 libfmt-dev libfmt9 libspdlog-dev libspdlog1.10 libsqlite3-dev libsqlite3-0 \
  libssl-dev libssl3 nlohmann-json3-dev \
  libnghttp2-14 libpsl5 librtmp1 libssh2-1 libldap-2.5-0 libbrotli1 libsasl2-2 libidn2-0 libgssapi-krb5-2 libkrb5-3 \
  libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 libzstd1 libunistring2 libgnutls30 libhogweed6 libnettle8 \
  libtasn1-6 libp11-kit0 libgmp10 libffi8 \
  bubblewrap libcap2 libselinux1 libpcre2-8-0
ls
