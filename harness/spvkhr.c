/* GL_NV_cooperative_matrix SPIR-V (glslang 12) -> SPV_KHR_cooperative_matrix with workgroup scope. See spvkhr.h.
 *
 * Debian 12's glslang compiles GL_NV_cooperative_matrix only, and accepts gl_ScopeWorkgroup as the scope of an NV
 * matrix type. The two extensions differ in four places, all mechanical:
 *   type:   NV (result, component, scope, rows, cols)        KHR adds a Use: A 0, B 1, accumulator 2
 *   load:   NV (type, result, pointer, stride, colmajor-bool) KHR (type, result, pointer, layout, stride)
 *   store:  NV (pointer, object, stride, colmajor-bool)       KHR (pointer, object, layout, stride)
 *   muladd, length: same operands, new opcodes.
 * The Use is not in the NV module: it is read from the MulAdds, so every matrix type must be an operand of one, and
 * in one role only (write distinct A and B types: BM x BK and BK x BN with BK != BN, for instance). */
#include "spvkhr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_EXTENSION = 10, OP_CAPABILITY = 17, OP_TYPE_INT = 21, OP_CONST_TRUE = 41, OP_CONST_FALSE = 42,
    OP_CONSTANT = 43,
    NV_CAP = 5357, NV_TYPE = 5358, NV_LOAD = 5359, NV_STORE = 5360, NV_MULADD = 5361, NV_LENGTH = 5362,
    KHR_CAP = 6022, KHR_TYPE = 4456, KHR_LOAD = 4457, KHR_STORE = 4458, KHR_MULADD = 4459, KHR_LENGTH = 4460,
    SCOPE_SUBGROUP = 3, OP_NAME = 5, OP_UNDEF = 1, OP_TYPE_POINTER = 32, STORAGE_BUFFER = 12,
    /* SPV_NV_tensor_addressing + SPV_NV_cooperative_matrix2's tensor loads */
    CAP_TENSOR = 5439, CAP_CM_TENSOR = 5433, TL_TYPE = 5370, TL_CREATE = 5372, TL_SET_DIM = 5373, TL_SET_STRIDE = 5374,
    LOAD_TENSOR = 5367,
};

/* Opcodes whose first two operands are (result type, result): enough to know the type of a MulAdd operand. */
static int typed_result(uint32_t op)
{
    static const uint16_t ops[] = {1, 44, 46, 51, 55, 57, 59, 61, 65, 66, 80, 81, 83, 113, 114, 115, 127, 129, 131, 133,
                                   136, 143, 169, 245, NV_LOAD, NV_MULADD};
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (ops[i] == op) return 1;
    return 0;
}

static int is_string(const uint32_t *w, uint32_t wc, const char *s)
{
    size_t len = strlen(s), bytes = (size_t)(wc - 1) * 4;
    return bytes > len && memcmp(w + 1, s, len + 1) == 0;
}

/* Append an OpExtension with string s at o; returns the words written. */
static size_t put_extension(uint32_t *o, const char *s)
{
    size_t len = strlen(s), words = (len + 1 + 3) / 4;
    o[0] = (uint32_t)((1 + words) << 16) | OP_EXTENSION;
    memset(o + 1, 0, words * 4);
    memcpy(o + 1, s, len);
    return 1 + words;
}

/* An NV load (w at its first word) that becomes a tensor load: at least 6 words, of a workgroup-scope matrix type, from a
 * storage-buffer pointer. */
static int tensor_load(const uint32_t *w, const uint32_t *ti, const uint32_t *type_of, const uint32_t *storage,
                       uint32_t bound)
{
    if ((w[0] >> 16) < 6 || w[1] >= bound || w[3] >= bound || w[5] >= bound) return 0;
    uint32_t scope1 = ti[4 * (size_t)w[1]], pt = type_of[w[3]];
    return scope1 && scope1 != SCOPE_SUBGROUP + 1u && pt < bound && storage[pt] == STORAGE_BUFFER;
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); goto error; } while (0)
#define LATER(...) do { if (!later[0]) snprintf(later, sizeof(later), __VA_ARGS__); } while (0)

/* A 6-word NV MulAdd's Cooperative Matrix Operands for KHR: MatrixA/B/C/ResultSignedComponents (0x1, 0x2, 0x4, 0x8) for
 * its operands of a signed integer matrix type (msign by type id), 0 when none is. */
static uint32_t muladd_signs(const uint32_t *w, const uint32_t *type_of, const unsigned char *msign, uint32_t bound)
{
    uint32_t m = 0;
    for (int r = 0; r < 3; r++)
        if (w[3 + r] < bound && type_of[w[3 + r]] < bound && msign[type_of[w[3 + r]]]) m |= 1u << r;
    if (w[1] < bound && msign[w[1]]) m |= 8u;
    return m;
}

int vkb_spv_khr(const uint32_t *in, size_t n, uint32_t **out, size_t *outn, char *err, size_t errlen)
{
    *out = NULL, *outn = 0;
    uint32_t *type_of = NULL, *use = NULL, *o = NULL, *storage = NULL, *ti = NULL;
    unsigned char *sint = NULL;  /* signed integer type ids; then, by matrix type id, 1 where its components are signed */
    int64_t *cval = NULL;  /* a scalar constant's value (bools 0 / 1); -1 when the id is not one */
    if (n < 5 || in[0] != 0x07230203u) {
        snprintf(err, errlen, "not a SPIR-V module");
        return -1;
    }
    const uint32_t bound = in[3];
    type_of = calloc(bound, sizeof(*type_of));
    use = calloc(bound, sizeof(*use));
    cval = malloc(bound * sizeof(*cval));
    if (!type_of || !use || !cval) FAIL("out of memory");
    for (uint32_t i = 0; i < bound; i++) cval[i] = -1;

    /* Pass 1: constants, types of values, matrix types and their scope, the Use of each from the MulAdds. */
    uint32_t uint_type = 0, first_type_at = 0;
    int wide = 0, ntypes = 0, ncap = 0, next = 0;  /* NV capabilities and extensions: what grows in the output */
    uint32_t before[3] = {0, 0, 0};  /* uint constants 0, 1, 2 declared before the first matrix type */
    char later[200] = "";            /* the first reason the rewrite cannot be done, reported only if it is needed */
    int tensor = 0, ntl = 0;         /* the marker (OpName "vkb_tensor_loads"); loads that become tensor loads */
    int nsigned = 0;                 /* MulAdds with a signed integer operand: each gains an operands word */
    /* ti[4 id]: a matrix type's scope + 1 (0: not a matrix type), rows, cols, its index among the matrix types */
    storage = calloc(bound, sizeof(*storage)), ti = calloc(4 * (size_t)bound, sizeof(*ti)), sint = calloc(bound, 1);
    if (!storage || !ti || !sint) FAIL("out of memory");
    for (size_t at = 5; at < n;) {
        const uint32_t *w = in + at;
        uint32_t wc = w[0] >> 16, op = w[0] & 0xffffu;
        if (wc == 0 || at + wc > n) FAIL("SPIR-V word %zu: instruction of %u words runs past the end", at, wc);
        if (op == OP_TYPE_INT && wc >= 4 && w[2] == 32 && w[3] == 0 && w[1] < bound) uint_type = w[1];
        if (op == OP_TYPE_INT && wc >= 4 && w[3] == 1 && w[1] < bound) sint[w[1]] = 1;
        ncap += op == OP_CAPABILITY && wc == 2 && w[1] == NV_CAP;
        next += op == OP_EXTENSION && is_string(w, wc, "SPV_NV_cooperative_matrix");
        if ((op == OP_CONST_TRUE || op == OP_CONST_FALSE) && wc >= 3 && w[2] < bound) cval[w[2]] = op == OP_CONST_TRUE;
        if (op == OP_CONSTANT && wc == 4 && w[2] < bound) {
            cval[w[2]] = w[3];
            if (w[1] == uint_type && w[3] < 3 && !first_type_at && !before[w[3]]) before[w[3]] = w[2];
        }
        if (op == NV_TYPE && (wc != 6 || w[1] >= bound || w[2] >= bound || w[3] >= bound || cval[w[3]] < 0 ||
                              cval[w[3]] > 255)) {
            LATER("SPIR-V word %zu: a matrix type without a constant scope", at);  /* left as it is */
        } else if (op == NV_TYPE) {
            if (!uint_type) LATER("SPIR-V word %zu: a matrix type before the 32-bit unsigned integer type", at);
            /* KHR reads integer components as unsigned unless the MulAdd's operands say otherwise: the MulAdds that take
             * a signed type get those operands below (NV reads the signedness off the component type) */
            if (cval[w[3]] != SCOPE_SUBGROUP) wide = 1;
            if (!first_type_at) first_type_at = (uint32_t)at;
            uint32_t *e = ti + 4 * (size_t)w[1];
            e[0] = (uint32_t)cval[w[3]] + 1u, e[1] = w[4], e[2] = w[5], e[3] = (uint32_t)ntypes++;
            if (sint[w[2]]) sint[w[1]] = 1;
        }
        if (typed_result(op) && wc >= 3 && w[1] < bound && w[2] < bound) type_of[w[2]] = w[1];
        if (op == OP_TYPE_POINTER && wc == 4 && w[1] < bound) storage[w[1]] = w[2];
        if (op == OP_NAME && wc >= 3 && is_string(w + 1, wc - 1, "vkb_tensor_loads")) tensor = 1;
        /* the other marker: a module of subgroup-scope matrices only that asks for the KHR form all the same */
        if (op == OP_NAME && wc >= 3 && is_string(w + 1, wc - 1, "vkb_khr_subgroup")) wide = 1;
        if (op == NV_MULADD) {
            if (wc != 6) {
                LATER("SPIR-V word %zu: MulAdd of %u words", at, wc);
                at += wc;
                continue;
            }
            const uint32_t roles[3][2] = {{w[3], 1}, {w[4], 2}, {w[5], 4}};  /* A, B, C: Use bits 1, 2, 4 */
            for (int r = 0; r < 3; r++) {
                uint32_t t = roles[r][0] < bound ? type_of[roles[r][0]] : 0;
                if (!t) LATER("SPIR-V word %zu: cannot tell the type of MulAdd operand %%%u", at, roles[r][0]);
                else use[t] |= roles[r][1];
            }
            if (w[1] < bound) use[w[1]] |= 4;
            nsigned += muladd_signs(w, type_of, sint, bound) != 0;
        }
        at += wc;
    }
    if (!wide) {  /* valid NV SPIR-V as it is: whatever the rewrite could not have done does not matter */
        free(type_of), free(use), free(cval), free(storage), free(ti), free(sint);
        return 0;
    }
    if (later[0]) FAIL("%s", later);
    /* With the marker, each workgroup-scope load from a storage buffer becomes a tensor load: a layout of the matrix's
     * own rows x cols at the load's stride, from the same element pointer (whole tiles: nothing to clamp). */
    if (tensor)
        for (size_t at = 5; at < n; at += in[at] >> 16)
            if ((in[at] & 0xffffu) == NV_LOAD && tensor_load(in + at, ti, type_of, storage, bound)) {
                if (cval[in[at + 5]] != 0) FAIL("SPIR-V word %zu: a tensor load must be row-major", at);
                if ((in[at] >> 16) > 7 || ((in[at] >> 16) == 7 && in[at + 6]))  /* volatile, aligned ...: not carried */
                    FAIL("SPIR-V word %zu: a tensor load with memory access operands", at);
                ntl++;
            }
    if (!uint_type) FAIL("no 32-bit unsigned integer type for the Use and layout operands");

    /* New ids for the uint constants 0, 1, 2 not declared before the first matrix type. */
    uint32_t cid[3], next_id = bound;
    for (int i = 0; i < 3; i++) cid[i] = before[i] ? before[i] : next_id++;
    uint32_t tl_type = ntl ? next_id++ : 0, undef0 = next_id;  /* undef of matrix type i: undef0 + i */
    if (ntl) next_id += (uint32_t)ntypes;
    /* Growth: 3 constants (12 words), the layout type (4); per NV extension three more names of <= 8 words; per NV
     * capability two more (4); per matrix type its Use and an undef (4); per tensor load 23 words for its 6 or 7. */
    o = malloc((n + 16 + 24 * (size_t)next + 4 * (size_t)ncap + 4 * (size_t)ntypes + 17 * (size_t)ntl + (size_t)nsigned) *
               sizeof(*o));
    if (!o) FAIL("out of memory");
    memcpy(o, in, 5 * sizeof(*o));
    o[3] = next_id;
    size_t k = 5;
    for (size_t at = 5; at < n;) {
        const uint32_t *w = in + at;
        uint32_t wc = w[0] >> 16, op = w[0] & 0xffffu;
        if (op == OP_CAPABILITY && wc == 2 && w[1] == NV_CAP) {
            o[k++] = (2u << 16) | OP_CAPABILITY, o[k++] = KHR_CAP;
            if (ntl) o[k++] = (2u << 16) | OP_CAPABILITY, o[k++] = CAP_TENSOR, o[k++] = (2u << 16) | OP_CAPABILITY, o[k++] = CAP_CM_TENSOR;
        } else if (op == OP_EXTENSION && is_string(w, wc, "SPV_NV_cooperative_matrix")) {
            k += put_extension(o + k, "SPV_KHR_cooperative_matrix");
            k += put_extension(o + k, "SPV_NV_cooperative_matrix2");
            if (ntl) k += put_extension(o + k, "SPV_NV_tensor_addressing");
        } else if (op == NV_TYPE) {
            if (at == first_type_at) {
                for (int i = 0; i < 3; i++)
                    if (!before[i]) o[k++] = (4u << 16) | OP_CONSTANT, o[k++] = uint_type, o[k++] = cid[i], o[k++] = (uint32_t)i;
                if (ntl) o[k++] = (4u << 16) | TL_TYPE, o[k++] = tl_type, o[k++] = cid[2], o[k++] = cid[0];  /* 2-D, no clamp */
            }
            uint32_t u = use[w[1]];
            if (u != 1 && u != 2 && u != 4)
                FAIL("matrix type %%%u is %s: the rewrite reads each type's Use from the MulAdds, so give A, B and the "
                     "accumulator distinct types", w[1], u ? "used in more than one role" : "not an operand of a MulAdd");
            o[k++] = (7u << 16) | KHR_TYPE;
            memcpy(o + k, w + 1, 5 * sizeof(*o)), k += 5;
            o[k++] = cid[u == 1 ? 0 : u == 2 ? 1 : 2];
            if (ntl)  /* the initial value a tensor load takes for clamped elements (none here) */
                o[k++] = (3u << 16) | OP_UNDEF, o[k++] = w[1], o[k++] = undef0 + ti[4 * (size_t)w[1] + 3];
        } else if (op == NV_LOAD && ntl && tensor_load(w, ti, type_of, storage, bound)) {
            const uint32_t *e = ti + 4 * (size_t)w[1];  /* the type's rows and cols */
            uint32_t l0 = next_id++, l1 = next_id++, l2 = next_id++;
            o[k++] = (3u << 16) | TL_CREATE, o[k++] = tl_type, o[k++] = l0;
            o[k++] = (6u << 16) | TL_SET_DIM, o[k++] = tl_type, o[k++] = l1, o[k++] = l0, o[k++] = e[1], o[k++] = e[2];
            o[k++] = (6u << 16) | TL_SET_STRIDE, o[k++] = tl_type, o[k++] = l2, o[k++] = l1, o[k++] = w[4], o[k++] = cid[1];
            o[k++] = (8u << 16) | LOAD_TENSOR, o[k++] = w[1], o[k++] = w[2], o[k++] = w[3];
            o[k++] = undef0 + e[3], o[k++] = l2, o[k++] = 0, o[k++] = 0;  /* memory, tensor operands: None */
        } else if (op == NV_LOAD || op == NV_STORE) {
            /* load: type result pointer stride colmajor [access]; store: pointer object stride colmajor [access] */
            uint32_t s = op == NV_LOAD ? 4 : 3;  /* word index of the stride */
            if (wc < s + 2 || w[s + 1] >= bound || cval[w[s + 1]] < 0)
                FAIL("SPIR-V word %zu: matrix %s whose column-major operand is not a constant", at,
                     op == NV_LOAD ? "load" : "store");
            memcpy(o + k, w, wc * sizeof(*o));
            o[k] = (wc << 16) | (op == NV_LOAD ? KHR_LOAD : KHR_STORE);
            o[k + s] = cid[cval[w[s + 1]] ? 1 : 0];  /* RowMajorKHR 0, ColumnMajorKHR 1 */
            o[k + s + 1] = w[s];
            k += wc;
        } else {
            memcpy(o + k, w, wc * sizeof(*o));
            if (op == NV_MULADD) o[k] = (wc << 16) | KHR_MULADD;
            if (op == NV_LENGTH) o[k] = (wc << 16) | KHR_LENGTH;
            uint32_t sg = op == NV_MULADD ? muladd_signs(w, type_of, sint, bound) : 0;
            if (sg) o[k] = ((wc + 1) << 16) | KHR_MULADD, o[k + wc] = sg, k++;  /* Cooperative Matrix Operands */
            k += wc;
        }
        at += wc;
    }
    free(type_of), free(use), free(cval), free(storage), free(ti), free(sint);
    o[3] = next_id;
    *out = o, *outn = k;
    return 1;
error:
    free(type_of), free(use), free(cval), free(storage), free(ti), free(sint), free(o);
    return -1;
}
