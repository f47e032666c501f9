#!/usr/bin/env bash
# Fuzzes the Rust core: each cargo-fuzz target in fuzz/ for a bounded time, one after another,
# then a table of target, seconds, runs and crashes. Exits non-zero if any target crashed (a
# panic, a stack overflow, an out-of-memory or an input slower than 10 s), leaving the input in
# fuzz/artifacts/<target>/ and the libFuzzer log in fuzz/logs/<target>.log. Move a fixed crash's
# input to fuzz/regressions/<target>/, where every later run replays it.
#
#   scripts/fuzz.sh                 every target, 60 s each
#   FUZZ_SECONDS=600 scripts/fuzz.sh replay
#
# Needs a nightly Rust toolchain (cargo-fuzz builds with sanitizers) and Node (seeds); installs
# cargo-fuzz from crates.io when it is missing. The corpus libFuzzer grows stays in fuzz/corpus/.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
all_targets=(catalog_search schema_walk analyzer replay model_file glossary_file)
targets=("${@:-${all_targets[@]}}")

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "fuzz: a nightly toolchain is needed: rustup toolchain install nightly --profile minimal" >&2
  exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked
fi

mkdir -p fuzz/logs
node fuzz/seeds.mjs
if ! cargo +nightly fuzz build >fuzz/logs/build.log 2>&1; then
  grep -v '^ *[0-9]*: ' fuzz/logs/build.log | tail -n 30 >&2
  echo "fuzz: the targets did not build; see fuzz/logs/build.log" >&2
  exit 2
fi

# Longest input per target: a few real tools with their schemas, or a real session's tool events;
# analyzer text is a query or a description.
max_len() {
  case "$1" in
    analyzer) echo 4096 ;;
    *) echo 12288 ;;
  esac
}

rows=()
failed=0
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
  log="fuzz/logs/$target.log"
  marker="$(mktemp)"
  start=$SECONDS
  status=0
  # Inputs that once crashed a target stay in fuzz/regressions/<target>/, replayed at every start.
  inputs=("fuzz/corpus/$target" "fuzz/seeds/$target")
  [[ -d "fuzz/regressions/$target" ]] && inputs+=("fuzz/regressions/$target")
  cargo +nightly fuzz run "$target" "${inputs[@]}" -- \
    -max_total_time="$seconds" -max_len="$(max_len "$target")" -dict=fuzz/json.dict \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1 || status=$?
  elapsed=$((SECONDS - start))
  runs="$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
  [[ -n "$runs" ]] || runs="$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#' || true)"
  crashes="$(find "fuzz/artifacts/$target" -type f -newer "$marker" | wc -l)"
  rm -f "$marker"
  if [[ "$status" -ne 0 && "$crashes" -eq 0 ]]; then crashes="?"; fi
  if [[ "$status" -ne 0 || "$crashes" != 0 ]]; then
    failed=1
    echo "fuzz: $target failed (exit $status); see $log and fuzz/artifacts/$target/" >&2
  fi
  rows+=("$(printf '%-16s %8s %12s %8s' "$target" "$elapsed" "${runs:-0}" "$crashes")")
done

printf '%-16s %8s %12s %8s\n' target seconds runs crashes
printf '%s\n' "${rows[@]}"
exit "$failed"
