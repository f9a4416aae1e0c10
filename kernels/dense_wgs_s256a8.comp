#version 450
// twin: bda -- make also builds dense_wgs_s256a8_bda.spv from this stub with VKB_BDA: its buffers by address (kernels/bda.glsl)
// dense_f16 algo=wgs (y = x W^T, W^T read column-major from W) on matmul_coopmat_wg.glsl's staged workgroup-scope
// loop: 256 invocations, loads 8 steps ahead
#extension GL_GOOGLE_include_directive : require
#define VKB_WG_DEFAULT 256
#define VKB_WG_STAGED 1
#define VKB_WG_AHEAD 8
#define VKB_WG_BT 1
#include "matmul_coopmat_wg.glsl"
