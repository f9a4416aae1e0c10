// The matrix-unit probes' shape (lM x lN x lK fragments) and subgroup grid (GM x GN accumulators): specialization
// constants 1..5, shared by kernels/peak_coopmat.glsl and kernels/peak_coopmat_smem.glsl (reference/peak.c sets them).
#extension GL_EXT_control_flow_attributes : enable
#extension GL_KHR_shader_subgroup_basic : require
#include "common.glsl"

layout(constant_id = 1) const uint lM = 16;
layout(constant_id = 2) const uint lN = 16;
layout(constant_id = 3) const uint lK = 16;
layout(constant_id = 4) const uint GM = 2;
layout(constant_id = 5) const uint GN = 4;
