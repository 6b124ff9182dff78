// Rounding modifiers on results that are not exact: float arithmetic with .rz, .rm or .rp
// (add, sub, mul, fma, mad, div, sqrt, rcp), and cvt of an integer or double to a narrower
// float with .rn, .rz, .rm or .rp. The host's own IEEE operation, done in the host's rounding
// mode for that direction, so the result is the exactly rounded one the PTX ISA asks for.
#pragma once

#include <limits>

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

// `exact` as F, rounded as `r` (is_directed) says.
template <typename F>
F narrowed_directed(long double exact, kernel::Rounding r);

// `exact` (any 64-bit integer or double: long double holds each exactly) as F, rounded as `r`
// says: to nearest (.rn, or none: here, inline), toward zero (.rz), down (.rm) or up (.rp).
template <typename F>
F narrowed(long double exact, kernel::Rounding r) {
  static_assert(std::numeric_limits<long double>::digits >= 64, "an int64 must convert to long double exactly");
  return is_directed(r) ? narrowed_directed<F>(exact, r) : static_cast<F>(exact);
}

}  // namespace gpusim::exec
