// A function template compiled twice, for hosts with AVX2 and for the rest, the one to run
// chosen when the program loads (GCC's target_clones; plain functions use the attribute
// directly). Clang does not multiversion function templates: there they get the baseline
// build only (the fuzzing build). Either way the results are the same bits.
#pragma once

#if defined(__clang__)
#define GPUSIM_AVX2_CLONES_TEMPLATE
#else
#define GPUSIM_AVX2_CLONES_TEMPLATE __attribute__((target_clones("avx2", "default")))
#endif
