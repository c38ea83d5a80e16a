// sling_bench: every Google Benchmark of the project in one binary; it takes Google Benchmark's own
// flags (--benchmark_filter, --benchmark_format=json, ...).
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
