#!/usr/bin/env bash
# The .deb of the build tree the suite built: cpack packages what is there
# (packaging never builds), dpkg-deb says what the package declares and holds,
# and the tree unpacked with dpkg -x runs: kernelwright-cli --version, a bundled
# problem checked with the installed resources, the man page renders, bash
# completion completes. AppStream, desktop-entry and lintian checks run where
# their tools are installed.
# usage: tst_package.sh BUILD_DIR
set -euo pipefail

build=$(cd "${1:?usage: tst_package.sh BUILD_DIR}" && pwd)
scratch=$(mktemp -d /tmp/kernelwright-package.XXXXXX) # outside the build tree: the binaries must not take it for theirs
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "--- $* ($SECONDS s)"; }

for need in cpack dpkg-deb dpkg-shlibdeps; do
    command -v "$need" >/dev/null || fail "$need is missing (apt-get install dpkg-dev cmake)"
done
[ -x "$build/app/cli/kernelwright-cli" ] || fail "$build/app/cli/kernelwright-cli is not built: build the tree first"
gui=0
grep -q '^KW_BUILD_GUI:BOOL=ON' "$build/CMakeCache.txt" && gui=1

step "cpack"
(cd "$scratch" && cpack -G DEB -B "$scratch/out" --config "$build/CPackConfig.cmake" >"$scratch/cpack.log" 2>&1) ||
    { cat "$scratch/cpack.log"; fail "cpack failed"; }
deb=$(ls "$scratch"/out/*.deb)
echo "$deb: $(du -h "$deb" | cut -f1)"

step "dpkg-deb --info"
info=$(dpkg-deb --info "$deb")
echo "$info" | sed -n '/^ [A-Z][A-Za-z-]*:/p'
field() { echo "$info" | sed -n "s/^ $1: //p"; }
[ "$(field Package)" = kernelwright ] || fail "Package is '$(field Package)'"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is '$(field Architecture)'"
depends=$(field Depends)
for dep in libc6 libsqlite3 libcurl libspdlog g++; do
    [[ $depends == *"$dep"* ]] || fail "Depends lacks $dep: $depends"
done
((gui)) && { [[ $depends == *libqt6widgets6* ]] || fail "Depends lacks Qt 6 Widgets: $depends"; }
for rec in bubblewrap python3 poppler-utils; do
    [[ $(field Recommends) == *"$rec"* ]] || fail "Recommends lacks $rec"
done

step "dpkg-deb --contents"
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
expect=(./usr/bin/kernelwright-cli
        ./usr/share/kernelwright/problems/cpu/mbdt/problem.json
        ./usr/share/kernelwright/harness/cpp/judge_main.cpp
        ./usr/share/kernelwright/kb/guidance/
        ./usr/share/man/man1/kernelwright-cli.1.gz
        ./usr/share/bash-completion/completions/kernelwright-cli
        ./usr/share/doc/kernelwright/copyright
        ./usr/share/doc/kernelwright/changelog.gz)
if ((gui)); then
    expect+=(./usr/bin/kernelwright
             ./usr/share/applications/io.github.kernelwright.Kernelwright.desktop
             ./usr/share/metainfo/io.github.kernelwright.Kernelwright.metainfo.xml
             ./usr/share/icons/hicolor/scalable/apps/io.github.kernelwright.Kernelwright.svg)
    for size in 48 64 128 256; do expect+=(./usr/share/icons/hicolor/${size}x${size}/apps/io.github.kernelwright.Kernelwright.png); done
fi
for path in "${expect[@]}"; do
    grep -qxF "$path" <<<"$contents" || fail "the package lacks $path"
done
grep -q '^./usr/local' <<<"$contents" && fail "files under /usr/local"
kb_docs=$(grep -c '^./usr/share/kernelwright/kb/.*\.md$' <<<"$contents" || true)
((kb_docs >= 50)) || fail "only $kb_docs knowledge-base documents"

step "dpkg -x and run"
dpkg -x "$deb" "$scratch/root"
cli="$scratch/root/usr/bin/kernelwright-cli"
# Nothing may point the binary back at the source tree or the build's settings.
run() { env -u KW_RESOURCES_DIR -u KW_KB_DIRS HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/data" \
            XDG_CONFIG_HOME="$scratch/home/config" XDG_CACHE_HOME="$scratch/home/cache" "$cli" "$@"; }
version=$(run --version)
[ "$version" = "kernelwright-cli $(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")" ] || fail "--version said '$version'"
echo "$version"
run problem check mbdt >"$scratch/check.txt" 2>&1 || { cat "$scratch/check.txt"; fail "problem check mbdt"; }
grep -q "^$scratch/root/usr/share/kernelwright/problems/cpu/mbdt: ok" "$scratch/check.txt" ||
    { cat "$scratch/check.txt"; fail "problem check did not use the installed problem"; }
head -1 "$scratch/check.txt"
run problem list | grep -q gpu_softmax || fail "problem list lacks the bundled GPU problems"
run kb validate >"$scratch/kb.txt" 2>&1 || { cat "$scratch/kb.txt"; fail "kb validate on the installed KB"; }
run export --help | grep -q 'export trajectories' || fail "export --help"

step "man page"
man_out=$(MANWIDTH=100 man -l "$scratch/root/usr/share/man/man1/kernelwright-cli.1.gz" 2>"$scratch/man.err")
[ -s "$scratch/man.err" ] && { cat "$scratch/man.err"; fail "the man page has roff warnings"; }
for part in "KERNELWRIGHT-CLI(1)" "export trajectories SEARCH" "search COMMAND" "--min-speedup"; do
    grep -qF -- "$part" <<<"$man_out" || fail "the man page lacks '$part'"
done

step "bash completion"
complete_line() { # WORDS... : what completing the last word offers
    PATH="$scratch/root/usr/bin:$PATH" env -u KW_RESOURCES_DIR bash -c '
        source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kernelwright_cli; echo "${COMPREPLY[*]}"' \
        "$scratch/root/usr/share/bash-completion/completions/kernelwright-cli" "$@"
}
[[ $(complete_line kernelwright-cli ex) == export ]] || fail "command completion: '$(complete_line kernelwright-cli ex)'"
[[ $(complete_line kernelwright-cli export tr) == trajectories ]] || fail "verb completion"
[[ $(complete_line kernelwright-cli export trajectories 1 --fo) == --format ]] || fail "option completion"
[[ $(complete_line kernelwright-cli export trajectories 1 --format o) == openai-chat ]] || fail "value completion"
[[ " $(complete_line kernelwright-cli problem check mb) " == *" mbdt "* ]] || fail "problem completion: '$(complete_line kernelwright-cli problem check mb)'"
[[ " $(complete_line kernelwright-cli --db ws.db search start --pol) " == *" --policy "* ]] || fail "search option completion"

if ((gui)); then
    if command -v appstreamcli >/dev/null; then
        step "appstreamcli validate"
        appstreamcli validate --no-net --explain "$scratch/root/usr/share/metainfo/io.github.kernelwright.Kernelwright.metainfo.xml" ||
            fail "AppStream metadata"
    fi
    if command -v desktop-file-validate >/dev/null; then
        step "desktop-file-validate"
        desktop-file-validate "$scratch/root/usr/share/applications/io.github.kernelwright.Kernelwright.desktop" || fail "desktop entry"
    fi
fi
if command -v lintian >/dev/null; then
    step "lintian"
    # Errors fail the test; warnings are printed for people to read.
    lintian --tag-display-limit 0 "$deb" >"$scratch/lintian.txt" 2>&1 || true
    cat "$scratch/lintian.txt"
    grep -q '^E: ' "$scratch/lintian.txt" && fail "lintian reported errors"
fi
step "ok"
