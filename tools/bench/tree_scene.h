// Scene (e) of docs/bench_scenes.md: dynamic tree churn (10,000 proxies, 600 frames, 20% moving), flak's
// DynamicTree against Box2D 2.4's b2DynamicTree and Bullet's btDbvt when built with them, plus
// per-query costs of region and segment queries on the final tree.
#pragma once

namespace flak::bench {

/// Runs the scene and prints a table (or one JSON object with --json). `frames` below 600 is for
/// quick checks only; the reported scene is 600. `rounds` repeats every library that many times,
/// interleaved, pooling the frame times (a shared machine's load then lands on all of them).
/// Returns the process exit code (1 when the libraries disagree on a pair or hit count).
int runTreeScene(int frames, int rounds, bool json);

} // namespace flak::bench
