#version 450
// A deliberately broken TSQR panel for tests/run.sh (`--shader qr_tsqr128=qr_tsqr128_badsign`): the LU of
// Q1 - S that reconstructs the Householder vectors takes S_kk = +sign(pivot), so |U_kk| = 1 - |pivot|. The top
// block of a Gaussian panel's Q is small (|pivot| ~ m^-1/2: the residual stays under the threshold); with
// qr fill=tinytail it is ~ diag(+-1) and the pivots cancel.
#extension GL_GOOGLE_include_directive : require
#define NR 128u
#define TSQR_LU_SIGN (-1.0)
#include "qr_tsqr.glsl"
