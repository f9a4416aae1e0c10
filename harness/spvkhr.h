/* SPIR-V rewrite: GL_NV_cooperative_matrix as glslang 12 emits it -> SPV_KHR_cooperative_matrix, so that
 * workgroup-scope matrices (VK_NV_cooperative_matrix2) can be written in the GLSL that Debian 12 compiles.
 * Pure: no Vulkan, no I/O. */
#ifndef VKB_SPVKHR_H
#define VKB_SPVKHR_H
#include <stddef.h>
#include <stdint.h>

/* The rewrite applies to a module that declares an NV cooperative-matrix type of any scope other than Subgroup
 * (SPV_NV_cooperative_matrix allows Subgroup only, so such a module is not valid NV SPIR-V anyway), and to one that
 * names something "vkb_khr_subgroup" (a spec constant, say): subgroup-scope matrices in the KHR form.
 * A MulAdd with signed integer matrices gets KHR's Cooperative Matrix Operands for them (NV reads the signedness off
 * the component type, KHR off the operands).
 * Each NV matrix type becomes a KHR type whose Use (A, B or accumulator) is read from the MulAdds that take it;
 * loads and stores get a row/column-major layout operand, the capability and extension change, and
 * SPV_NV_cooperative_matrix2 is declared (its workgroup scope).
 * Returns 0 and leaves *out NULL when the module needs no rewrite, 1 with a malloc'd *out of *outn words,
 * -1 with a message in err (a type used as both A and B, a layout that is not a constant, ...). */
int vkb_spv_khr(const uint32_t *in, size_t n, uint32_t **out, size_t *outn, char *err, size_t errlen);

#endif
