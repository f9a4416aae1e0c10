#version 450
// QR panel as TSQR, 128-row leaves and tree nodes (fan-in 4, 30 KiB of shared memory): see qr_tsqr.glsl
#extension GL_GOOGLE_include_directive : require
#define NR 128u
#include "qr_tsqr.glsl"
