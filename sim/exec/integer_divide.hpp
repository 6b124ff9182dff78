// Integer division and remainder of one lane, for the decoded forms (alu32.cpp, alu64.cpp),
// which run every lane of the warp, executed or not. So a lane dividing by zero is one not
// executed (run_decoded sends a warp with an executed one to alu.cpp, which faults): any
// value does there, as long as the host does not trap. Nor may it on the signed minimum
// over -1, whose quotient wraps to itself and whose remainder is 0 (alu.cpp's, in 64 bits).
// So 0 and -1 divide as 1, and -1's quotient is negated.
#pragma once

#include <type_traits>

namespace gpusim::exec {

template <typename U, bool Signed, bool Quotient>
U divide(U x, U y) {
  using S = std::make_signed_t<U>;
  const bool minus_one = y == static_cast<U>(-1);
  const U d = Signed ? (y == 0 || minus_one ? U{1} : y) : y + U{y == 0};
  if constexpr (!Signed) return Quotient ? x / d : x % d;
  const U r = static_cast<U>(Quotient ? static_cast<S>(x) / static_cast<S>(d) : static_cast<S>(x) % static_cast<S>(d));
  return Quotient && minus_one ? U{0} - r : r;
}

}  // namespace gpusim::exec
