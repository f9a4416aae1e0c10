#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken dense_coopmat_g (emulated, 4 x 1 fragments of 8 tokens) for the harness's own tests
// (tests/run.sh): it reads lay=frag's fragments in PTX's A order (component i: row g + 8 ((i >> 1) & 1), column 2t +
// (i & 1) + 8 (i >> 2)) instead of the order the host lays them out in (frag_slot: rows first), so half of each
// fragment's elements are read from the wrong place, and the every-element check must FAIL.
#define VKB_COOP_EMU
#define DG_WN 4u
#define DG_MT 1u
#define DG_LN 8u
#define DG_FRAG_LANE(r, c) (4u * ((r) % 8u) + ((c) % 8u) / 2u)
#define DG_FRAG_COMP(r, c) (4u * ((c) / 8u) + 2u * ((r) / 8u) + ((c) & 1u))
#include "dense_coopmat_g.glsl"
