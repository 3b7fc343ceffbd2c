// Replaced global allocation functions that count calls while armed.
#pragma once

#include <cstddef>

namespace flak::test {

/// Starts counting allocations (operator new/delete always; malloc-family too where the binary
/// can interpose them: glibc without sanitizers). With FLAK_ALLOCATION_TRACE set in the
/// environment (glibc), each counted call also prints its stack to stderr (addresses relative to
/// each object: `addr2line -e BINARY OFFSET` names them).
void armAllocationTrap();
/// Stops counting and returns the allocations seen since arming.
std::size_t disarmAllocationTrap();
/// True when the malloc family is interposed in this build: malloc, calloc, realloc, reallocarray,
/// memalign, aligned_alloc, posix_memalign, valloc and pvalloc.
bool mallocIsTrapped();

} // namespace flak::test
