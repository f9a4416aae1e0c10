#version 450
// Householder QR of one panel, one row per loop trip (the first version, QR_U = 1): qr unroll=1, for
// timing against the default qr_panel.comp (QR_U = 8). See qr_panel.glsl.
#extension GL_GOOGLE_include_directive : require
#define QR_U 1u
#include "qr_panel.glsl"
