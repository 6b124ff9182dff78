// Register slots by liveness, as ptxas allocates physical registers. PTX names a new virtual
// register for nearly every value (nvcc's tiled matrix multiply: 115 of 32 bits), and every
// warp keeps 32 lanes of each slot, so one slot per register made the warps' state most of a
// large grid's memory. Two registers of a kind that are never live at once in any thread
// share a slot. Liveness is per thread: a warp's lanes write only their own copies, so
// divergence needs nothing more; a guarded write keeps the old value where its guard is
// false, so it does not end the register's earlier life.
//
// Slots are assigned to the code as it runs (after ptxas-like reordering, core/gpu.cpp), so
// the executor computes them for the program it is given. The kernel and each device function
// get slots of their own: a caller's registers stay live across its calls.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/ir.hpp"

namespace gpusim::kernel {

struct RegisterSlots {
  std::vector<uint32_t> slot;  // per register: its slot within its kind
  uint32_t narrow = 0, wide = 0;  // slots of each kind
};

// Programs too large to analyse cheaply get the parser's one slot per register.
RegisterSlots assign_register_slots(const Program& program);

}  // namespace gpusim::kernel
