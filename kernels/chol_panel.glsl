// Cholesky panel in one dispatch: potrf of the jb x jb diagonal block fused with the TRSM of the panel
// below it (LAPACK xPOTRF's two level-2/3 steps, one barrier-separated dispatch fewer per block).
// pc.n = n (row-major, ld n), pc.p0 = j0, pc.p1 = jb (<= 64). Workgroup size 256, 1 + ceil(rest/64) groups.
// Every workgroup factors the diagonal block itself in shared memory (redundantly: the block is 16 KB,
// and a second dispatch with its barrier costs more than the 64 steps below); group g >= 1 then solves
// L21 = A21 L11^-T for the 64 rows j0 + jb + 64 (g - 1) ... Group 0 sets info and writes L11: in place
// when it is the only group (pc.p2 = 0), else into ws (binding 3, jb x jb, ld 64), since the other groups
// are reading A11 from l in the same dispatch; chol_syrk's extra group copies it into place (pc.p2 = 1).
// Both phases keep the block in registers, thread (tx, ty) = (lid % 16, lid / 16) owning rows ty + 16 i
// and columns tx + 16 k (no index division per step), and publish one column per step through shared
// memory: one barrier per column. potrf is the right-looking unscaled form of chol_potrf.comp (step j
// subtracts a_rj a_cj / d_j, columns scaled by 1/sqrt(d_j) at the end); the TRSM is right-looking
// forward substitution (x_j /= l_jj, then x_c -= x_j l_cj for c > j). A pivot that is not > 0 (NaN
// included) stops it: info = j0 + j + 1 (LAPACK's INFO), the leading j columns of L11 are written.
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
shared float Ls[64][65];  // column j of the unscaled factor as step j publishes it, then L11
shared float xc[2][64];   // TRSM: the finished column j of X, double-buffered by step parity

// Group g of the panel of block j0 (width jb): to_ws = other groups exist, L11 goes to ws[wsoff:] (ld 64).
void chol_panel(uint g, uint j0, uint jb, bool to_ws, uint wsoff) {
    uint n = pc.n, lid = gl_LocalInvocationID.x;
    uint tx = lid % 16u, ty = lid / 16u;
    if (info[0] != 0u) return;
    float a[4][4];
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = ty + 16u * i, c = tx + 16u * k;
            a[i][k] = c <= r && r < jb ? l[(j0 + r) * n + j0 + c] : 0.0;
        }
    CHOL_DIAG_UPDATE(j0, jb, a);
    uint done = jb;
    for (uint j = 0u; j < jb; ++j) {
        [[unroll]] for (uint k = 0u; k < 4u; ++k)
            if (tx + 16u * k == j)
                [[unroll]] for (uint i = 0u; i < 4u; ++i)
                    if (ty + 16u * i >= j && ty + 16u * i < jb) Ls[ty + 16u * i][j] = a[i][k];
        barrier();
        float d = Ls[j][j];
        if (!(d > 0.0)) { done = j; break; }  // uniform: every invocation reads the same shared value
        float rd = 1.0 / d;
        [[unroll]] for (uint i = 0u; i < 4u; ++i)
            [[unroll]] for (uint k = 0u; k < 4u; ++k) {
                uint r = ty + 16u * i, c = tx + 16u * k;
                if (c > j && c <= r && r < jb) a[i][k] -= Ls[r][j] * Ls[c][j] * rd;
            }
    }
    // Ls now holds the unscaled factor's columns 0..done-1 (each final when published); scale them.
    barrier();
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = ty + 16u * i, c = tx + 16u * k;
            if (c <= r && r < jb && c < done) {
                float s = sqrt(Ls[c][c]);
                a[i][k] = r == c ? s : Ls[r][c] / s;
            }
        }
    barrier();
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = ty + 16u * i, c = tx + 16u * k;
            if (c <= r && r < jb && c < done) {
                Ls[r][c] = a[i][k];
                if (g == 0u && !to_ws) l[(j0 + r) * n + j0 + c] = a[i][k];
                if (g == 0u && to_ws) ws[wsoff + r * 64u + c] = a[i][k];
            }
        }
    if (g == 0u) {
        if (done < jb && lid == 0u) info[0] = j0 + done + 1u;
        return;
    }
    if (done < jb) return;  // later dispatches see info and exit; L21 is not part of the answer
    barrier();
    uint r0 = j0 + jb + (g - 1u) * 64u;
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = r0 + ty + 16u * i, c = tx + 16u * k;
            a[i][k] = r < n && c < jb ? l[r * n + j0 + c] : 0.0;
        }
    CHOL_ROWS_UPDATE(r0, j0, jb, a);
    for (uint j = 0u; j < jb; ++j) {
        float ljj = Ls[j][j];
        [[unroll]] for (uint k = 0u; k < 4u; ++k)
            if (tx + 16u * k == j)
                [[unroll]] for (uint i = 0u; i < 4u; ++i) {
                    a[i][k] = a[i][k] / ljj;
                    xc[j & 1u][ty + 16u * i] = a[i][k];
                }
        barrier();
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint c = tx + 16u * k;
            if (c > j && c < jb) {
                float lcj = Ls[c][j];
                [[unroll]] for (uint i = 0u; i < 4u; ++i) a[i][k] -= xc[j & 1u][ty + 16u * i] * lcj;
            }
        }
    }
    [[unroll]] for (uint i = 0u; i < 4u; ++i)
        [[unroll]] for (uint k = 0u; k < 4u; ++k) {
            uint r = r0 + ty + 16u * i, c = tx + 16u * k;
            if (r < n && c < jb) l[r * n + j0 + c] = a[i][k];
        }
}
#endif
