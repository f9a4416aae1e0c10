/* decomp.h — helpers shared by the decomposition kernels (decomp_chol.c, decomp_qr.c, decomp_svd.c):
 * double-precision products and norms for the LAPACK-style residual checks, test-matrix builders. */
#ifndef VKB_DECOMP_H
#define VKB_DECOMP_H
#include <stddef.h>
#include <gsl/gsl_rng.h>

#define VKB_DC_EPS (1.0 / 16777216.0) /* fp32 unit roundoff 2^-24, LAPACK's SLAMCH('Epsilon') */

/* Flags of vkb_dc_matmul: structure that lets it skip zeros, or compute only what is needed. */
enum { VKB_DC_A_LOWER = 1, VKB_DC_B_UPPER = 2, VKB_DC_C_LOWER = 4 };

/* c (m x n) = a (m x k) * b (k x n), all row-major double. A_LOWER: a[i][p] = 0 for p > i; B_UPPER:
 * b[p][j] = 0 for j < p; C_LOWER: only j <= i is computed (the rest of c is left as is).
 * Blocked (MR x NR register tiles over packed strips of b), rows spread over the host's cores, with the bits of
 * one plain loop per element in ascending p whatever the thread count (decomp_util.c): a check aid, not the
 * reference. */
void vkb_dc_matmul(const double *a, const double *b, double *c, size_t m, size_t k, size_t n, int flags);
/* 1-norm (largest column sum of |x|) of an m x n row-major matrix. */
double vkb_dc_norm1(const double *x, size_t m, size_t n);
/* 1-norm of the symmetric matrix whose lower triangle (j <= i) is stored in x (n x n). */
double vkb_dc_norm1_lower(const double *x, size_t n);
/* ||I - G||_1 for a symmetric n x n Gram matrix G given by its lower triangle. */
double vkb_dc_orth1(double *g, size_t n);
/* fp32 -> double copy (an m x n block with leading dimension ld, into a dense m x n array). */
double *vkb_dc_to_double(const float *x, size_t m, size_t n, size_t ld);
/* Symmetric A = Q^T diag(lambda) Q (n x n, row-major double), Q = H_1...H_K the Householder factor of
 * a QR (GSL) of a random normal n x K matrix, K = min(n, 8): dense, with eigenvalues lambda exactly in
 * exact arithmetic, built in O(K n^2). */
int vkb_dc_sym_from_eigs(gsl_rng *r, size_t n, const double *lambda, double *a);
/* A = U diag(sigma) V^T (m x n, m >= n, row-major double), U and V products of min(., 8) Householder
 * reflectors from QRs (GSL) of random normal matrices: dense, singular values sigma (any order) in exact
 * arithmetic, built in O(8 m n). Returns 0, or -1 out of memory. */
int vkb_dc_from_svals(gsl_rng *r, size_t m, size_t n, const double *sigma, double *a);
/* Exponent of a grading 2^-(span i/(count-1)), rounded to an integer so that scaling by it is exact. */
int vkb_dc_grade(size_t i, size_t count, int span);
/* "name=v1 name=v2 ..." helper: append to a note with a separator. */
void vkb_dc_note(char *note, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
