// Which base pointer each memory instruction's address derives from, as far as ptxas can
// see: a kernel parameter, or a fixed address (a shared or global variable). ptxas moves a
// load above an earlier store only where it can tell the two apart; with no `__restrict__`
// that means the same base (offsets it can compare) or different state spaces.
#pragma once

#include <cstdint>
#include <vector>

#include "kernel/ir.hpp"

namespace gpusim::core {

constexpr uint32_t kUnknownRoot = 0;

// For every instruction: the root of its address operand (ld, st, atom, red), or
// kUnknownRoot (not a memory access, or an address loaded from memory or mixed from two
// roots). Roots are numbered from 1; equal numbers mean the same base.
std::vector<uint32_t> pointer_roots(const kernel::Program& program);

}  // namespace gpusim::core
