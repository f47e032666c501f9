#!/usr/bin/env bash
# Release builds of the prebuilt addons that this Linux machine can make, into
# artifacts/, then checked (scripts/check-binaries.mjs) and copied into their
# npm/<platform>/ packages (scripts/stage-binaries.mjs).
#
#   scripts/build-platforms.sh [platform ...]        (pnpm run build:release)
#   platforms: linux-x64-gnu linux-arm64-gnu linux-x64-musl darwin-arm64 darwin-x64 (default: all five)
#
# Every target links with zig through cargo-zigbuild (`napi build -x`): zig
# carries the glibc 2.17 symbol stubs, musl, and the macOS system library
# stubs, so one toolchain from PyPI replaces five cross compilers. The glibc
# baseline is pinned in the target name (`x86_64-unknown-linux-gnu.2.17`), so
# the addon loads on any Linux with glibc >= 2.17. rustc's warning that
# `xcrun` is missing is expected: zig's macOS stubs stand in for the SDK, and
# MACOSX_DEPLOYMENT_TARGET keeps the required macOS at Node's own floor.
# win32-x64-msvc needs the MSVC libraries, which only a Windows machine has:
# the release workflow (.github/workflows/release.yml) builds it there, and
# builds the macOS ones on macOS runners too.
#
# Needs rustup, python3 (for the zig wheels), node and pnpm (run `pnpm install`
# first). Env DSH_TOOL_SEARCH_TOOLCHAIN: where zig is cached
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/dsh-tool-search/toolchain).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

ZIGLANG_VERSION=0.17.1
CARGO_ZIGBUILD_VERSION=0.24.1
toolchain="${DSH_TOOL_SEARCH_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/dsh-tool-search/toolchain}"
zig_env="$toolchain/zig-$ZIGLANG_VERSION-zigbuild-$CARGO_ZIGBUILD_VERSION"

# platform -> Rust target (with zig's glibc pin) and the oldest macOS to build for
declare -A TARGET=(
  [linux-x64-gnu]=x86_64-unknown-linux-gnu.2.17
  [linux-arm64-gnu]=aarch64-unknown-linux-gnu.2.17
  [linux-x64-musl]=x86_64-unknown-linux-musl
  [darwin-arm64]=aarch64-apple-darwin
  [darwin-x64]=x86_64-apple-darwin
)
declare -A MACOS_MIN=([darwin-arm64]=11.0 [darwin-x64]=10.15)

platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux-x64-gnu linux-arm64-gnu linux-x64-musl darwin-arm64 darwin-x64)
for platform in "${platforms[@]}"; do
  [ -n "${TARGET[$platform]:-}" ] || { echo "build-platforms: cannot build $platform here (one of: ${!TARGET[*]})" >&2; exit 2; }
done

# zig and cargo-zigbuild come as PyPI wheels; a private venv keeps them off the system Python.
if [ ! -x "$zig_env/bin/cargo-zigbuild" ]; then
  echo "build-platforms: installing ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION into $zig_env" >&2
  rm -rf "$zig_env"
  python3 -m venv "$zig_env"
  "$zig_env/bin/pip" install --quiet --disable-pip-version-check "ziglang==$ZIGLANG_VERSION" "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
  # napi's -x looks for a `zig` command; the wheel ships the binary inside the package.
  ln -sf "$("$zig_env/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')/zig" "$zig_env/bin/zig"
fi
export PATH="$zig_env/bin:$PATH"

mkdir -p artifacts
for platform in "${platforms[@]}"; do
  target="${TARGET[$platform]}"
  rustup target add "${target%%.*}" >/dev/null
  echo "build-platforms: $platform <- $target" >&2
  # The loader (index.js) and types come from the host build and do not depend on the
  # target: --no-js skips the loader, and the type file napi always writes is dropped.
  MACOSX_DEPLOYMENT_TARGET="${MACOS_MIN[$platform]:-}" \
    pnpm exec napi build --platform --release --target "$target" -x --output-dir artifacts --no-js
  rm -f artifacts/index.d.ts
done

node scripts/check-binaries.mjs artifacts
node scripts/stage-binaries.mjs artifacts
