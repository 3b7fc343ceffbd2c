// flak — what the CPU offers beyond the build's baseline, asked once at run time.
#pragma once

namespace flak {

/// Whether forms that need AVX2 may run here: an x86 build with GCC or Clang and FLAK_AVX2 on
/// (the default; FLAK_NO_AVX2 turns it off), on a CPU that has AVX2. Asked once, then cached;
/// false on every other build and CPU. The triangle tests and the BVH builder's binning and SAH
/// sweep take their AVX2 forms only then, with the same answers as without.
bool cpuHasAvx2();

} // namespace flak
