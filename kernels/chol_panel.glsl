// Cholesky panel in one dispatch: potrf of the jb x jb diagonal block fused with the TRSM of the panel
// below it (LAPACK xPOTRF's two level-2/3 steps, one barrier-separated dispatch fewer per block).
// pc.n = n (row-major, ld n), pc.p0 = j0, pc.p1 = jb (<= 64). Workgroup size 256, 1 + ceil(rest/64) groups.
// Every workgroup factors the diagonal block itself (redundantly: the block is 16 KB, and a second dispatch
// with its barrier costs more than the 64 steps below); group g >= 1 factors it together with its 64 rows
// j0 + jb + 64 (g - 1) ... as one tall 128 x jb panel. Group 0 sets info and writes L11: in place when it is
// the only group (pc.p2 = 0), else into ws (binding 3, jb x jb, ld 64), since the other groups are reading
// A11 from l in the same dispatch; chol_syrk's extra group copies it into place (pc.p2 = 1).
// One loop over the columns, right-looking and unscaled: step j publishes column j (pivot d_j = a_jj and the
// a_rj below it) through shared memory, one barrier, and every row r of the panel, diagonal block and the
// group's rows alike, subtracts a_rj a_cj / d_j from its columns c > j; at the end L_rc = a_rc / sqrt(d_c).
// For the rows below the block this is the TRSM L21 = A21 L11^-T (forward substitution, folded into the
// same steps), so a block costs jb steps, not 2 jb. Thread (tx, ty) = (lid % 16, lid / 16) keeps rows
// ty + 16 i (i < 4) of the diagonal block (a) and of its own rows (b), columns tx + 16 k, in registers.
// The update is unconditional per element: a column c <= j gets a_cj = 0 (so a finished column stays as
// published), and the entries above the diagonal (dead, never written out) take whatever the rows feed
// them, which only ever reaches other dead entries of the same row. (H200, n = 4096: the former two-phase
// panel, 128 steps with a predicate per element, took 57 us a block.)
// A pivot that is not > 0 (NaN included) stops it: info = j0 + j + 1 (LAPACK's INFO), the leading j
// columns of L11 are written.
// As a function for two shaders: chol_panel.comp (its own dispatch) and chol_ahead.comp (beside the previous
// block's trailing update). The includer declares l, info and ws and may define CHOL_DIAG_UPDATE(j0, jb, a) and
// CHOL_ROWS_UPDATE(r0, j0, jb, a), applied to the diagonal block and to the group's rows as loaded.
#ifndef CHOL_PANEL_GLSL
#define CHOL_PANEL_GLSL
#extension GL_EXT_control_flow_attributes : enable
#ifndef CHOL_DIAG_UPDATE
#define CHOL_DIAG_UPDATE(j0, jb, a)
#define CHOL_ROWS_UPDATE(r0, j0, jb, a)
#endif
shared float colj[2][128];  // column j as step j publishes it (rows 0..63: the block's, 64..127: the group's), by parity
shared float dpiv[64];      // the pivots d_j

// Group g of the panel of block j0 (width jb): to_ws = other groups exist, L11 goes to ws[wsoff:] (ld 64).
void chol_panel(uint g, uint j0, uint jb, bool to_ws, uint wsoff) {
    uint n = pc.n, lid = gl_LocalInvocationID.x;
    uint tx = lid % 16u, ty = lid / 16u;
    if (info[0] != 0u) return;
    float a[4][4], b[4][4];
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = ty + 16u * i, c = tx + 16u * k;
            a[i][k] = c <= r && r < jb ? l[(j0 + r) * n + j0 + c] : 0.0;
            b[i][k] = 0.0;
        }
    CHOL_DIAG_UPDATE(j0, jb, a);
    uint r0 = j0 + jb + (g - 1u) * 64u;
    if (g > 0u) {  // uniform per workgroup (the update macros hold barriers)
        [[unroll]] for (uint i = 0u; i < 4u; ++i)
            [[unroll]] for (uint k = 0u; k < 4u; ++k) {
                uint r = r0 + ty + 16u * i, c = tx + 16u * k;
                b[i][k] = r < n && c < jb ? l[r * n + j0 + c] : 0.0;
            }
        CHOL_ROWS_UPDATE(r0, j0, jb, b);
    }
    uint done = jb;
    for (uint j = 0u; j < jb; ++j) {
        uint p = j & 1u;
        if (tx == (j & 15u))
            [[unroll]] for (uint k = 0u; k < 4u; ++k)
                if (k == j / 16u)
                    [[unroll]] for (uint i = 0u; i < 4u; ++i) {
                        colj[p][ty + 16u * i] = a[i][k];
                        colj[p][64u + ty + 16u * i] = b[i][k];
                    }
        barrier();  // one per step: step j + 1 writes the other buffer, step j + 2 writes after this barrier's successor
        float d = colj[p][j];
        if (!(d > 0.0)) { done = j; break; }  // uniform: every invocation reads the same shared value
        if (lid == 0u) dpiv[j] = d;
        float rd = 1.0 / d, lc[4];
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint c = tx + 16u * k;
            lc[k] = c > j && c < jb ? colj[p][c] * rd : 0.0;
        }
        [[unroll]] for (uint i = 0u; i < 4u; ++i) {
            float ra = colj[p][ty + 16u * i], rb = colj[p][64u + ty + 16u * i];
            [[unroll]] for (uint k = 0u; k < 4u; ++k) {
                a[i][k] = fma(-ra, lc[k], a[i][k]);
                b[i][k] = fma(-rb, lc[k], b[i][k]);
            }
        }
    }
    barrier();  // dpiv
    if (g == 0u) {
        [[unroll]] for (uint i = 0u; i < 4u; ++i)
            [[unroll]] for (uint k = 0u; k < 4u; ++k) {
                uint r = ty + 16u * i, c = tx + 16u * k;
                if (c <= r && r < jb && c < done) {
                    float s = sqrt(dpiv[c]), v = r == c ? s : a[i][k] / s;
                    if (to_ws) ws[wsoff + r * 64u + c] = v;
                    else l[(j0 + r) * n + j0 + c] = v;
                }
            }
        if (done < jb && lid == 0u) info[0] = j0 + done + 1u;
        return;
    }
    if (done < jb) return;  // later dispatches see info and exit; L21 is not part of the answer
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = r0 + ty + 16u * i, c = tx + 16u * k;
            if (r < n && c < jb) l[r * n + j0 + c] = b[i][k] / sqrt(dpiv[c]);
        }
}
#endif
