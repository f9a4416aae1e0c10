#version 450
// A deliberately broken Householder panel for tests/run.sh (`--shader qr_panel=qr_panel_badsign`):
// beta = +sign(alpha) ||x||, so alpha - beta = alpha - sign(alpha) sqrt(alpha^2 + |tail|^2) cancels when the
// column's tail is small against its first element. Gaussian columns rarely have one (the residual stays
// under the threshold); qr fill=tinytail has one at every step.
#extension GL_GOOGLE_include_directive : require
#define QR_BETA_SIGN 1.0
#include "qr_panel.glsl"
