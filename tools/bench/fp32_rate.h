// flak_bench_gpu: the device's float rate, measured (shaders/fp32_rate.comp).
#pragma once

#include <flak/gpu/gpu_collider.h>

#include <string>

namespace flak::bench {

struct Fp32Rate {
    bool measured = false;     ///< false: `error` says why
    double gflops = 0.0;       ///< fused multiply-adds count as two flops
    double seconds = 0.0;      ///< the timed dispatch
    bool device_timed = false; ///< timestamp queries (else the host's submit-to-fence time)
    std::string error;
};

/// Runs the rate shader on the device's queue until one dispatch takes at least 20 ms (or a limit
/// of iterations is reached) and reports the rate of that dispatch. Uses its own buffer,
/// pipeline and command pool, all destroyed before it returns.
Fp32Rate measureFp32Rate(const GpuDeviceInfo& device);

} // namespace flak::bench
