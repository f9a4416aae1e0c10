// Shared-memory tiled product core for the decomposition kernels (Cholesky trailing update, QR block
// reflector updates). The including shader defines, before #include:
//   TM, TN     output tile (rows x cols); RM, RN: per-thread micro-tile; TK: k-step staged in shared memory
//   A_KFAST    1 when tile_a(r, k) is contiguous along k in memory (so loads walk k fastest), else 0
//   B_KFAST    the same for tile_b(k, c)
//   float tile_a(uint r, uint k), float tile_b(uint k, uint c): operands, 0 outside the matrix
// Workgroup size must be (TM/RM)*(TN/RN). Thread (tx, ty) owns rows ty + i*(TM/RM), cols tx + j*(TN/RN):
// strided so that shared reads are broadcasts (A) or consecutive (B), conflict-free.
#ifndef DECOMP_TILE_GLSL
#define DECOMP_TILE_GLSL
const uint TILE_WG = (TM / RM) * (TN / RN);
const uint TILE_TX = TN / RN;
const uint TILE_TY = TM / RM;
shared float sA[TK][TM + 1];
shared float sB[TK][TN + 1];

// acc += A(0:TM, 0:K) * B(0:K, 0:TN)
void tile_mul(uint K, inout float acc[RM][RN]) {
    uint lid = gl_LocalInvocationID.x, tx = lid % TILE_TX, ty = lid / TILE_TX;
    for (uint k0 = 0u; k0 < K; k0 += TK) {
        for (uint e = lid; e < TK * TM; e += TILE_WG) {
            uint k = A_KFAST != 0 ? e % TK : e / TM, r = A_KFAST != 0 ? e / TK : e % TM;
            sA[k][r] = k0 + k < K ? tile_a(r, k0 + k) : 0.0;
        }
        for (uint e = lid; e < TK * TN; e += TILE_WG) {
            uint k = B_KFAST != 0 ? e % TK : e / TN, c = B_KFAST != 0 ? e / TK : e % TN;
            sB[k][c] = k0 + k < K ? tile_b(k0 + k, c) : 0.0;
        }
        barrier();
        for (uint k = 0u; k < TK; ++k) {
            float a[RM], b[RN];
            for (uint i = 0u; i < RM; ++i) a[i] = sA[k][ty + i * TILE_TY];
            for (uint j = 0u; j < RN; ++j) b[j] = sB[k][tx + j * TILE_TX];
            for (uint i = 0u; i < RM; ++i)
                for (uint j = 0u; j < RN; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier();
    }
}
uint tile_row(uint i) { return gl_LocalInvocationID.x / TILE_TX + i * TILE_TY; }
uint tile_col(uint j) { return gl_LocalInvocationID.x % TILE_TX + j * TILE_TX; }
#endif
