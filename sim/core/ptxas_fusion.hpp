// ptxas merges some PTX pairs into one SASS instruction: shl/shr by a constant + add ->
// LEA / LEA.HI, add + add -> IADD3, mul + add -> IMAD / IMAD.WIDE, and a 32-to-64-bit
// widening into the instruction that uses it. gpusim executes PTX, so without this the
// address arithmetic of every kernel costs an extra issue cycle and an extra dependent
// latency per pair (shared-memory pointer chase 10% slow on H100).
#pragma once

#include <vector>

#include "core/instruction_class.hpp"
#include "kernel/ir.hpp"

namespace gpusim::core {

// Marks the producer of each such pair free (no issue cycle, no latency, no unit time):
// only where its result has one definition and one use, the user is an eligible
// consumer, and that consumer has not already absorbed another producer. The consumer
// becomes what ptxas makes of the pair: an IMAD (on the FP32 pipe where
// `imad_on_fp32`) or an ALU instruction (LEA, IADD3) that no other pipe can take. A 64-bit add
// of a mul.wide is, where `imad_on_fp32`, one IMAD.WIDE: one issue slot, its result after
// `wide_latency`.
void fuse_like_ptxas(const kernel::Program& program, std::vector<InstructionTiming>& timing, bool imad_on_fp32,
                     int wide_latency);

}  // namespace gpusim::core
