#version 450
// flak — the device's float rate for the GPU report (tools/bench/fp32_rate.cpp): each invocation
// runs 16 independent chains of fused multiply-adds (two flops each), so that the chains' latency
// is hidden and the arithmetic units, not memory, set the time. The multiplier and addend come
// from the buffer, so the compiler cannot fold the chains; every invocation writes its sum, so it
// cannot drop them.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(std430, set = 0, binding = 0) buffer Io {
    uint iterations;
    float mul;
    float add;
    uint pad;
    float sink[];
};

void main() {
    float x[16];
    for (int i = 0; i < 16; ++i) x[i] = float(gl_GlobalInvocationID.x & 255u) + float(i);
    for (uint k = 0u; k < iterations; ++k)
        for (int i = 0; i < 16; ++i) x[i] = fma(x[i], mul, add);
    float s = 0.0;
    for (int i = 0; i < 16; ++i) s += x[i];
    sink[gl_GlobalInvocationID.x] = s;
}
