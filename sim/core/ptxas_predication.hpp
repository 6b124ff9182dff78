// ptxas turns a short if-then into predicated instructions: the branch around the body goes
// and every warp issues the body, its lanes switched off by the condition. block_sums'
// tree levels (`if (tid < half) s[tid] += s[tid + half]`) cost every warp at every level on
// the H100, not only the warps with work (micro_predication: a skipped body of two shared
// loads, an add and a store costs as much as a run one). gpusim executes PTX, whose branches
// skip the body, so it rewrites such blocks as ptxas does before timing them.
#pragma once

#include <vector>

#include "core/instruction_class.hpp"
#include "kernel/ir.hpp"

namespace gpusim::core {

// Which blocks ptxas predicates, weighed in quarters of an instruction as gpusim issues them
// (folded ones weigh nothing). At the kernel's top level (validate/probes/if_conversion.py,
// CUDA 13.0, validate/results/if_conversion_sm90.csv): at most 20 instructions, a shared store
// weighing 1.25 and a global one 4 (20 dependent multiply-adds and 8 shared load/store pairs
// are predicated, 24 and 10 are not; 4 global stores are, 5 are not). Inside a loop ptxas is
// stricter: at most 8, from the SASS of the validated kernels (validate/sass/: scan_block's
// 8-instruction tree level is predicated, its 10-instruction one and scan_block_padded's 12
// are not; spmv_ell's 7 and micro_predication's 6 are). The probe's synthetic loop bodies
// stop at 6 to 7 (7 dependent multiply-adds stay a branch): ptxas weighs more than the count,
// which this rule does not model. A body that ends the kernel stays a branch (@P EXIT).
constexpr int kPredicatedBodyCost = 80;
constexpr int kPredicatedLoopBodyCost = 32;

// `program` with each such block's branch made a branch to the next instruction (which
// issues as nothing: classify_program) and its body guarded by the branch's condition,
// negated. Values, addresses and control flow stay what they were. `timing` is
// classify_program's for `program` (folded instructions cost nothing).
kernel::Program predicate_like_ptxas(const kernel::Program& program, const std::vector<InstructionTiming>& timing);

}  // namespace gpusim::core
