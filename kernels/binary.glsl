// Binary elementwise ops, one vec4 per invocation. Spec constants: 1 = op, 2 = broadcast.
//   op: 0 add, 1 sub, 2 mul, 3 div, 4 scale_add (c = alpha*a + b, never contracted to an fma)
//   broadcast: 0 none (b has n elements), 1 row (b has pc.m elements, b[i % m]), 2 scalar (b[0])
#include "common.glsl"
#include "types.glsl"
#include "ieee.glsl"
layout(constant_id = 1) const uint OP = 0u;
layout(constant_id = 2) const uint BCAST = 0u;
layout(binding = 0) readonly buffer A4 { T4 a4[]; };
layout(binding = 0) readonly buffer A1 { T a1[]; };
layout(binding = 1) readonly buffer B4 { T4 b4[]; };
layout(binding = 1) readonly buffer B1 { T b1[]; };
layout(binding = 2) writeonly buffer C4 { T4 c4[]; };
layout(binding = 2) writeonly buffer C1 { T c1[]; };

vec4 apply(vec4 a, vec4 b) {
    precise vec4 r;
    if (OP == 0u) r = a + b;
    else if (OP == 1u) r = a - b;
    else if (OP == 2u) r = a * b;
    else if (OP == 3u) r = a / b;
    else { precise vec4 s = pc.alpha * a; r = s + b; }
    return r;
}

float bval(uint j) { return float(BCAST == 0u ? b1[j] : BCAST == 1u ? b1[j % pc.m] : b1[0]); }

void main() {
    uint i = vkb_global_id();
    uint n = pc.n;
    if (4u * i + 3u < n) {
        vec4 a = vec4(a4[i]);
        vec4 b = BCAST == 0u ? vec4(b4[i]) : vec4(bval(4u * i), bval(4u * i + 1u), bval(4u * i + 2u), bval(4u * i + 3u));
        uint extra = 0u;
        VKB_SLOW_READ(extra, a4, i, n / 4u);
        a.x = vkb_slow(a.x, extra);
        c4[i] = T4(apply(a, b));
    } else {
        for (uint j = 4u * i; j < n; ++j) c1[j] = T(apply(vec4(float(a1[j])), vec4(bval(j))).x);
    }
}
