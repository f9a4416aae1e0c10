#version 450
// Householder QR of one panel: see qr_panel.glsl
#extension GL_GOOGLE_include_directive : require
#include "qr_panel.glsl"
