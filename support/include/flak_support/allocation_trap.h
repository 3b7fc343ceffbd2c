// Replaced global allocation functions that count calls while armed.
#pragma once

#include <cstddef>

namespace flak::test {

/// Starts counting allocations (operator new/delete always; malloc-family too where the binary
/// can interpose them: glibc without sanitizers).
void armAllocationTrap();
/// Stops counting and returns the allocations seen since arming.
std::size_t disarmAllocationTrap();
/// True when malloc/calloc/realloc are interposed in this build.
bool mallocIsTrapped();

} // namespace flak::test
