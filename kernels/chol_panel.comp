#version 450
// Cholesky panel in one dispatch (potrf of the diagonal block fused with the TRSM below it): chol_panel.glsl.
// pc.n = n, pc.p0 = j0, pc.p1 = jb (<= 64), pc.p2 = 1: L11 to ws at pc.q1 (else in place). Workgroup size 256,
// 1 + ceil(rest/64) groups.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
layout(binding = 1) buffer L { float l[]; };
layout(binding = 2) buffer Info { uint info[]; };
layout(binding = 3) writeonly buffer WS { float ws[]; };
#include "chol_panel.glsl"

void main() { chol_panel(vkb_group_id(), pc.p0, pc.p1, pc.p2 != 0u, pc.q1); }
