#version 450
#extension GL_GOOGLE_include_directive : require
// A deliberately broken bitnet_hmma (emulated, 2 x 1 fragments) for the harness's own tests (tests/run.sh): it reads
// lay=hfrag's weights in PTX's A order (component i: row g + 8 ((i >> 1) & 1), column 2t + (i & 1) + 8 (i >> 2))
// instead of the order the host lays them out in (frag_slot: rows first), so half of each fragment's weights come from
// the wrong place, and the exact check must FAIL.
#define VKB_COOP_EMU
#define HM_WN 2u
#define HM_MT 1u
#define HM_SLOT(r, p) uvec2(4u * ((r) % 8u) + ((p) % 8u) / 2u, 4u * ((p) / 8u) + 2u * ((r) / 8u) + ((p) & 1u))
#include "bitnet_hmma.glsl"
