// Element type of a shader built from a shared body: T (storage scalar), T4 (storage vec4).
// Define VKB_F16 before including to get fp16 storage with fp32 arithmetic.
#ifdef VKB_F16
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#define T float16_t
#define T4 f16vec4
#else
#define T float
#define T4 vec4
#endif
