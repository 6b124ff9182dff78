// ptxas list-schedules each basic block: independent work (a loop's counter update, the
// next address) moves up into the gaps a dependent chain leaves, so a loop's compare is
// ready long before its branch. gpusim issues in order, so it issues PTX in the order
// ptxas would: every basic block reordered by a cycle-driven list scheduler (highest
// latency-weighted height first, ties in PTX order), keeping every register dependence,
// the order of memory operations, barriers as fences and the block's branch last.
#pragma once

#include <vector>

#include "core/instruction_class.hpp"
#include "kernel/ir.hpp"

namespace gpusim::core {

// The program with each basic block reordered; block starts (branch targets and
// reconvergence points) keep their PCs. `timing` is classify_program's for `program`.
// `register_budget` (ptxas's registers per thread; 0: none) holds back a load whose result
// would take the live values past it while other work can issue.
kernel::Program schedule_like_ptxas(const kernel::Program& program, const std::vector<InstructionTiming>& timing,
                                    int register_budget = 0);

}  // namespace gpusim::core
