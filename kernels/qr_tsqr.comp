#version 450
// QR panel as TSQR, 256-row leaves and tree nodes (fan-in 8): see qr_tsqr.glsl
#extension GL_GOOGLE_include_directive : require
#include "qr_tsqr.glsl"
