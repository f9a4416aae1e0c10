// W's rows as the per-subgroup BitLinear MMA kernels stream them (bitnet_mma_sg.glsl, bitnet_mma_kp.glsl): lane l of a
// subgroup loads rows l, l + SS, .. of its RS rows, one 64-weight group (uvec4) each per step, into a named register set.
// The includer declares PANEL, SS, RS and LPL = ceil(RS / SS) first; LOADW's caller has c0 and cend (the subgroup's
// groups), lane and r0 (its first row) in scope.
#ifndef BITNET_MMA_ROWS_GLSL
#define BITNET_MMA_ROWS_GLSL

// The uvec4 (64-weight group g) of row r in W: row-major T2, or (PANEL) 16-row panels, group major: a panel's groups
// are one contiguous run and the 16 lanes loading one panel's rows read 256 contiguous bytes (reference/bitnet_linear.c
// panel_row).
uint w_at(uint r, uint g) { return PANEL != 0u ? ((r / 16u) * pc.p0 + g) * 16u + r % 16u : r * pc.p0 + g; }

// Group c0 + S of this lane's rows into register set P (zeros past N and the subgroup's groups).
#define LOADW(P, S) {                                                                                 \
        uint g_ = c0 + (S);                                                                           \
        [[unroll]] for (uint q = 0u; q < LPL; ++q) {                                                  \
            uint r_ = lane + q * SS;                                                                  \
            P[q] = r_ < RS && r0 + r_ < pc.n && g_ < cend ? VB_W[w_at(r0 + r_, g_)] : uvec4(0u);        \
        }                                                                                             \
    }
#endif
