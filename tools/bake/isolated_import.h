// flak_bake's import in a child process: whatever the importer does with a hostile file (crash,
// abort, stack overflow, endless loop, unbounded memory), the baker survives and reports it in
// one line naming the file.
#pragma once

#include "import.h"

#include <cstdint>
#include <functional>

namespace flak::bake {

struct ImportLimits {
    std::uint32_t memory_mb = 2048; ///< the child's address space (RLIMIT_AS); 0: no limit
    std::uint32_t seconds = 120;    ///< the child's wall-clock time; 0: no limit
};

/// importMesh(path, options, out) run in a forked child under `limits`; the mesh comes back
/// through a pipe. A child that dies, runs out of its memory or time, or sends a malformed
/// answer gives an error naming the file and the cause. Builds with AddressSanitizer set no
/// memory limit (the sanitizer reserves terabytes of address space); the time limit still holds.
/// `waiting`, when given, is called about once a second while the importer works, with the
/// seconds since it started (for progress reports).
BakeError importMeshIsolated(const std::string& path, const ImportOptions& options,
                             const ImportLimits& limits, SourceMesh& out,
                             const std::function<void(double seconds)>& waiting = nullptr);

} // namespace flak::bake
