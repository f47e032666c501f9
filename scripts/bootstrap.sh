#!/usr/bin/env bash
# Set-up for a fresh machine that has Rust and any Node.js with npm (20 is
# enough): fetches Node 24 and pnpm 11 from the npm registry into a cache
# folder when the machine lacks them, installs the locked dependencies, and
# builds the addon and the plugin.
#
#   . scripts/bootstrap.sh [--browser]     ./run does this; node and pnpm are then on PATH
#   bash scripts/bootstrap.sh [--browser]  set-up only
#
# --browser   also installs Debian's chromium when /usr/bin/chromium is
#             missing and apt-get can run as root (the web check drives it).
# Env DSH_TOOL_SEARCH_TOOLCHAIN: the cache folder
#     (default ${XDG_CACHE_HOME:-$HOME/.cache}/dsh-tool-search/toolchain).
set -euo pipefail

bootstrap_repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bootstrap_cache="${DSH_TOOL_SEARCH_TOOLCHAIN:-${XDG_CACHE_HOME:-$HOME/.cache}/dsh-tool-search/toolchain}"
# DSH 0.1.0-rc.8 needs Node ^22.19.0 || >=24 (built-in zstd for its sessions).
BOOTSTRAP_NODE_VERSION=24.22.3

bootstrap_say() { printf '[bootstrap] %s\n' "$*" >&2; }
bootstrap_fail() { bootstrap_say "$*"; exit 1; }

# True when `node` on PATH can run DSH.
bootstrap_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a >= 24 || (a === 22 && b >= 19) ? 0 : 1)'
}

bootstrap_node() {
  bootstrap_node_ok && return
  local os arch dir
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) bootstrap_fail "no Node $BOOTSTRAP_NODE_VERSION package for $(uname -s); install Node >= 22.19 yourself" ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) bootstrap_fail "no Node package for $(uname -m); install Node >= 22.19 yourself" ;; esac
  dir="$bootstrap_cache/node-$os-$arch-$BOOTSTRAP_NODE_VERSION"
  if [ ! -x "$dir/bin/node" ]; then
    command -v npm >/dev/null 2>&1 || bootstrap_fail "need npm (any Node.js) to fetch Node $BOOTSTRAP_NODE_VERSION, or Node >= 22.19 on PATH"
    bootstrap_say "fetching Node $BOOTSTRAP_NODE_VERSION (npm package node-$os-$arch) into $dir"
    local tmp
    tmp="$(mktemp -d)"
    # The registry's node-<os>-<arch> packages carry the official node binary.
    (cd "$tmp" && npm pack --loglevel=error --no-update-notifier "node-$os-$arch@$BOOTSTRAP_NODE_VERSION" >/dev/null && tar -xzf ./*.tgz) ||
      bootstrap_fail "npm could not fetch node-$os-$arch@$BOOTSTRAP_NODE_VERSION"
    rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  bootstrap_node_ok || bootstrap_fail "$dir/bin/node does not run"
}

# pnpm at the version package.json's packageManager names.
bootstrap_pnpm() {
  local version dir
  version="$(node -p 'require(process.argv[1]).packageManager.split("@")[1]' "$bootstrap_repo/package.json")"
  if [ "$(pnpm --version 2>/dev/null || true)" = "$version" ]; then return; fi
  dir="$bootstrap_cache/pnpm-$version"
  if [ ! -x "$dir/node_modules/.bin/pnpm" ]; then
    command -v npm >/dev/null 2>&1 || bootstrap_fail "need npm to fetch pnpm $version"
    bootstrap_say "fetching pnpm $version into $dir"
    npm install --loglevel=error --no-audit --no-fund --no-update-notifier --prefix "$dir" "pnpm@$version" >/dev/null ||
      bootstrap_fail "npm could not install pnpm@$version"
    [ -x "$dir/node_modules/.bin/pnpm" ] || bootstrap_fail "npm installed pnpm@$version without its command"
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
  [ "$(pnpm --version)" = "$version" ] || bootstrap_fail "pnpm in $dir is not $version"
}

bootstrap_rust() {
  command -v cargo >/dev/null 2>&1 || [ ! -x "$HOME/.cargo/bin/cargo" ] || export PATH="$HOME/.cargo/bin:$PATH"
  command -v cargo >/dev/null 2>&1 || bootstrap_fail "need Rust (cargo); install it with rustup"
}

bootstrap_chromium() {
  [ -x /usr/bin/chromium ] && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    bootstrap_say "installing Debian's chromium for the web check"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    bootstrap_say "warning: /usr/bin/chromium is missing and apt-get cannot run as root here; the web check will fail without it"
  fi
}

# Official Node.js builds trust only the CAs bundled with them, while Debian's node (and curl,
# cargo, pip) use the system store; on a network behind a TLS-inspecting proxy only the system
# store knows the proxy's CA. Let Node use the system bundle too unless told otherwise.
bootstrap_ca() {
  if [ -z "${NODE_EXTRA_CA_CERTS:-}" ] && [ -r /etc/ssl/certs/ca-certificates.crt ]; then
    export NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
  fi
}

bootstrap_main() {
  local browser=false
  for arg in "$@"; do
    case "$arg" in --browser) browser=true ;; *) bootstrap_fail "unknown option $arg" ;; esac
  done
  bootstrap_rust
  bootstrap_ca
  bootstrap_node
  bootstrap_pnpm
  if $browser; then bootstrap_chromium; fi
  bootstrap_say "node $(node --version), pnpm $(pnpm --version), $(cargo --version)"
  (cd "$bootstrap_repo" && pnpm install --frozen-lockfile && pnpm run build)
}

bootstrap_main "$@"
