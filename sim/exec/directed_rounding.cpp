// Compiled with -frounding-math (sim/CMakeLists.txt): the compiler then assumes neither the
// default rounding mode nor that it may fold or move these operations across fesetround.
// The operands go through volatile objects after the mode is set, and the result before it
// is put back, so the operation itself runs in between (in_direction).
#include "exec/directed_rounding.hpp"

#include <cfenv>
#include <cmath>
#include <limits>

namespace gpusim::exec {

namespace {

// fn(), run in the host's rounding mode for the direction `r` asks for (is_directed).
template <typename Fn>
auto in_direction(kernel::Rounding r, Fn fn) {
  const int mode = r == kernel::Rounding::Rz ? FE_TOWARDZERO : r == kernel::Rounding::Rm ? FE_DOWNWARD : FE_UPWARD;
  const int before = std::fegetround();
  std::fesetround(mode);
  const auto result = fn();
  std::fesetround(before);
  return result;
}

}  // namespace

template <typename F>
F round_directed(kernel::Opcode op, F x, F y, F z, kernel::Rounding r) {
  using kernel::Opcode;
  return in_direction(r, [&] {
    const volatile F vx = x, vy = y, vz = z;
    volatile F out;
    switch (op) {
      case Opcode::Add: out = vx + vy; break;
      case Opcode::Sub: out = vx - vy; break;
      case Opcode::Mul: out = vx * vy; break;
      case Opcode::Fma:
      case Opcode::Mad: out = std::fma(F{vx}, F{vy}, F{vz}); break;
      case Opcode::Div: out = vx / vy; break;
      case Opcode::Sqrt: out = std::sqrt(F{vx}); break;
      case Opcode::Rcp: out = F{1} / vx; break;
      default: out = std::numeric_limits<F>::quiet_NaN(); break;
    }
    return F{out};
  });
}

template <typename F>
F narrowed_directed(long double exact, kernel::Rounding r) {
  return in_direction(r, [&] {
    const volatile long double v = exact;
    const volatile F out = static_cast<F>(v);
    return F{out};
  });
}

template float round_directed(kernel::Opcode, float, float, float, kernel::Rounding);
template double round_directed(kernel::Opcode, double, double, double, kernel::Rounding);
template float narrowed_directed(long double, kernel::Rounding);
template double narrowed_directed(long double, kernel::Rounding);

}  // namespace gpusim::exec
