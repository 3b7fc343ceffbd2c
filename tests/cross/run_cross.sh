#!/usr/bin/env bash
# The cross-architecture check behind `tools/run cross aarch64|ppc64` (run from the repository root):
#   1. build tests/cross for the target (build/cross-<arch>, toolchain cmake/toolchains/<triple>.cmake)
#      and run its tests under qemu-user through ctest (CMAKE_CROSSCOMPILING_EMULATOR);
#   2. the endian check: this machine (x86-64) bakes blobs little- and big-endian
#      (build/cross-host/flak_blob_digest bake); the target must print, for the blob in its own byte
#      order, exactly the answers this machine prints for its own, and must refuse the blob in the
#      other order with BlobWrongEndian, then swap it in place and print the same answers again;
#   3. the world check: flak_world_digest (the scenes' hit-stream hashes) must print the same lines
#      on the target as here (aarch64 and big-endian ppc64 alike).
# FLAK_JOBS sets the build and ctest parallelism (default 2).
set -euo pipefail
arch=${1:-}
case "$arch" in
  aarch64) triple=aarch64-linux-gnu; qemu=qemu-aarch64; target_order=le ;;
  ppc64)   triple=powerpc64-linux-gnu; qemu=qemu-ppc64; target_order=be ;;
  *) echo "usage: $0 aarch64|ppc64" >&2; exit 2 ;;
esac
jobs=${FLAK_JOBS:-2}
host_dir=build/cross-host
dir=build/cross-$arch
log() { printf '[flak cross %s] %s\n' "$arch" "$*" >&2; }
emulate() { "$qemu" -L "/usr/$triple" "$@"; }

t0=$(date +%s)
log "building the host digests ($host_dir) and the $arch tests ($dir) with -j$jobs"
cmake -S tests/cross -B "$host_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLAK_CROSS_TESTS=OFF >/dev/null
cmake --build "$host_dir" -j "$jobs" --target flak_blob_digest flak_world_digest
cmake -S tests/cross -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/toolchains/$triple.cmake" >/dev/null
cmake --build "$dir" -j "$jobs"
t1=$(date +%s)
log "built in $((t1 - t0)) s; running the tests under $qemu"
ctest --test-dir "$dir" -j "$jobs" --output-on-failure --no-tests=error
t2=$(date +%s)
log "tests passed in $((t2 - t1)) s"

# The endian check.
blobs="$dir/blobs"
rm -rf "$blobs"
mkdir -p "$blobs"
"$host_dir/flak_blob_digest" bake "$blobs"
other_order=$([ "$target_order" = le ] && echo be || echo le)
for blob in "$blobs"/*.le.blob; do
  name=$(basename "$blob" .le.blob)
  expected=$("$host_dir/flak_blob_digest" query "$blob")
  native=$(emulate "$dir/flak_blob_digest" query "$blobs/$name.$target_order.blob")
  swapped=$(emulate "$dir/flak_blob_digest" query --foreign "$blobs/$name.$other_order.blob" 2>/dev/null)
  if [ "$native" != "$expected" ] || [ "$swapped" != "$expected" ]; then
    log "endian check FAILED on $name: x86-64 ($name.le) / $arch ($name.$target_order) / $arch swapped ($name.$other_order):"
    diff <(echo "$expected") <(echo "$native") >&2 || true
    diff <(echo "$expected") <(echo "$swapped") >&2 || true
    exit 1
  fi
  log "endian check: $name: $(echo "$expected" | wc -l) query digests identical (x86-64 on $name.le," \
      "$arch on $name.$target_order, $arch on $name.$other_order refused then swapped)"
done

# The world check.
expected=$("$host_dir/flak_world_digest")
actual=$(emulate "$dir/flak_world_digest")
if [ "$actual" != "$expected" ]; then
  log "world check FAILED: hit streams differ between x86-64 and $arch:"
  diff <(echo "$expected") <(echo "$actual") >&2 || true
  exit 1
fi
log "world check: hit-stream hashes identical on x86-64 and $arch:"
echo "$actual" >&2
log "all checks passed in $(($(date +%s) - t0)) s (build $((t1 - t0)) s, tests $((t2 - t1)) s, checks $(($(date +%s) - t2)) s)"
log "CPU time (user, system) of this script, then of the builds, tests and checks:"
times >&2
