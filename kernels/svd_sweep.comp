#version 450
// End of a Jacobi sweep (one invocation): count it unless already converged; a sweep without any
// rotation sets the converged flag, which turns the remaining rounds into early exits.
#extension GL_GOOGLE_include_directive : require
#include "svd_common.glsl"

void main() {
    if (info[1] != 0u) return;
    info[0] += 1u;
    if (info[2] == 0u) info[1] = 1u;
    info[2] = 0u;
}
