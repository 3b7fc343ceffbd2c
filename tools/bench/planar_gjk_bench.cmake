# Benchmark sources of this kernel family (appended to FLAK_BENCH_KERNEL_SOURCES).
list(APPEND FLAK_BENCH_KERNEL_SOURCES
  planar_gjk_bench.cpp)
