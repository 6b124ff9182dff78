// ptxas's stall counts (Volta onward): a fixed-latency result (FP32, integer, FP64, a compare's
// predicate) has no scoreboard; ptxas makes the instruction before its consumer hold the warp for
// the cycles left, counted in the block's static issue order. The hardware pays that count from
// the instruction's issue even when a wait for memory came between the producer and the
// consumer (validate/probes/loop_cost.py: a loop whose compare precedes the add that waits for
// its load takes 22 cycles a trip more than one whose compare follows it).
#pragma once

#include <vector>

#include "core/instruction_class.hpp"
#include "kernel/ir.hpp"

namespace gpusim::core {

// Whether `t`'s result is ready after a fixed latency, without a scoreboard.
bool has_fixed_latency(const InstructionTiming& t);

// Sets each instruction's `stall`: the cycles from its issue to the next instruction's in a
// static schedule of its basic block, where every instruction issues as soon as its
// fixed-latency operands from the same block are ready.
void set_static_stalls(const kernel::Program& program, std::vector<InstructionTiming>& timing);

}  // namespace gpusim::core
