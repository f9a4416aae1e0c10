#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken dense_coopmat_g (emulated, 2 x 2 fragments of 16 tokens) for the harness's own tests
// (tests/run.sh): with lay=fragx it reads x's K rows r, r + 1 of a step from one word (uvec4 r / 2 % 8, half r % 2),
// as an unpermuted load would, instead of where W's permutation put them (uvec4 r % 8, half r / 8: fragx_col), so
// W's and x's K orders disagree and the every-element check must FAIL.
#define VKB_COOP_EMU
#define DG_WN 2u
#define DG_MT 2u
#define DG_FRAGX_VEC(r) (((r) / 2u) % 8u)
#define DG_FRAGX_HALF(r) ((r) % 2u)
#include "dense_coopmat_g.glsl"
