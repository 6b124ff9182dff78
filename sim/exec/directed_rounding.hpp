// Float arithmetic with a directed rounding modifier (.rz, .rm, .rp on add, sub, mul, fma,
// mad, div, sqrt and rcp): the host's own IEEE operation, done in the host's rounding mode
// for that direction, so the result is the exactly rounded one the PTX ISA asks for.
#pragma once

#include "kernel/ir.hpp"

namespace gpusim::exec {

// Whether `r` rounds in a direction (toward zero, down or up) rather than to nearest.
constexpr bool is_directed(kernel::Rounding r) {
  return r == kernel::Rounding::Rz || r == kernel::Rounding::Rm || r == kernel::Rounding::Rp;
}
// Whether `op` takes a rounding modifier on floats (the others are approximate or exact).
constexpr bool takes_rounding(kernel::Opcode op) {
  using kernel::Opcode;
  return op == Opcode::Add || op == Opcode::Sub || op == Opcode::Mul || op == Opcode::Fma || op == Opcode::Mad ||
         op == Opcode::Div || op == Opcode::Sqrt || op == Opcode::Rcp;
}

// op(x, y, z) for one of takes_rounding()'s operations, rounded as `r` (is_directed) says.
template <typename F>
F round_directed(kernel::Opcode op, F x, F y, F z, kernel::Rounding r);

}  // namespace gpusim::exec
