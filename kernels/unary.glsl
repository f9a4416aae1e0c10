// Unary elementwise ops, one vec4 per invocation. Spec constant 1 = op:
//   0 relu (NaN propagates), 1 gelu (tanh form, evaluated as x * sigmoid(2y): same function, no overflow, no cancellation),
//   2 silu x/(1+e^-x), 3 sigmoid 1/(1+e^-x)
#include "common.glsl"
#include "types.glsl"
#include "ieee.glsl"
layout(constant_id = 1) const uint OP = 0u;
layout(binding = 0) readonly buffer A4 { T4 a4[]; };
layout(binding = 0) readonly buffer A1 { T a1[]; };
layout(binding = 1) writeonly buffer C4 { T4 c4[]; };
layout(binding = 1) writeonly buffer C1 { T c1[]; };

vec4 apply(vec4 x) {
    if (OP == 0u) {
        // A select: NaN stays NaN (max() may drop it). A negative subnormal is negative too, but a device that
        // flushes denormals compares it as -0 (an H200 returned -1.4e-45 for relu(-1.4e-45)): its bits say so.
        uvec4 b = floatBitsToUint(x);
        uvec4 negsub = uvec4(greaterThan(b, uvec4(0x80000000u))) * uvec4(lessThanEqual(b, uvec4(0x807FFFFFu)));
        return mix(mix(x, vec4(0.0), lessThan(x, vec4(0.0))), vec4(0.0), notEqual(negsub, uvec4(0u)));
    }
    if (OP == 1u) {
        vec4 y = 0.7978845608028654 * (x + 0.044715 * x * x * x);
        return x / (1.0 + exp(-2.0 * y));
    }
    if (OP == 2u) return x / (1.0 + exp(-x));
    return 1.0 / (1.0 + exp(-x));
}

void main() {
    uint i = vkb_global_id();
    uint n = pc.n;
    if (4u * i + 3u < n) {
        vec4 a = vec4(a4[i]);
        uint extra = 0u;
        VKB_SLOW_READ(extra, a4, i, n / 4u);
        a.x = vkb_slow(a.x, extra);
        c4[i] = T4(apply(a));
    } else {
        for (uint j = 4u * i; j < n; ++j) c1[j] = T(apply(vec4(float(a1[j]))).x);
    }
}
