// Integer division and remainder of one lane, for the decoded forms (alu32.cpp, alu64.cpp),
// which run every lane of the warp, executed or not. So a lane dividing by zero is one not
// executed (run_decoded sends a warp with an executed one to alu.cpp, which faults): any
// value does there, as long as the host does not trap. Nor may it on the signed minimum
// over -1, whose quotient wraps to itself and whose remainder is 0 (alu.cpp's, in 64 bits).
// So 0 and -1 divide as 1, and -1's quotient is negated.
#pragma once

#include <bit>
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

// Every lane's quotient or remainder (divide()). Where every lane divides by one power of
// two, 2^k (a reduction's stride, an index over a power-of-two tile; signed, below the sign
// bit), a shift or a mask: a hardware division takes tens of host cycles a lane (callgrind
// counts each as one instruction). Signed, both truncate towards zero, as PTX's do: a
// negative x's remainder is that of |x| negated, and its quotient is shifted after adding
// 2^k - 1.
template <typename U, bool Signed, bool Quotient, int kLanes = 32>
inline void divide_lanes(const U* a, const U* b, U* out) {
  using S = std::make_signed_t<U>;
  constexpr U kSignBit = U{1} << (sizeof(U) * 8 - 1);
  const U d = b[0];
  bool one_divisor = true;
  for (int l = 1; l < kLanes; ++l) one_divisor &= b[l] == d;
  if (one_divisor && std::has_single_bit(d) && (!Signed || d != kSignBit)) {
    const int shift = std::countr_zero(d);
    const U below = d - 1;
    for (int l = 0; l < kLanes; ++l) {
      if constexpr (!Signed) {
        out[l] = Quotient ? a[l] >> shift : a[l] & below;
      } else {
        const auto sign = static_cast<U>(static_cast<S>(a[l]) >> (sizeof(U) * 8 - 1));  // all ones where x < 0
        out[l] = Quotient ? static_cast<U>(static_cast<S>(a[l] + (sign & below)) >> shift)
                          : ((((a[l] ^ sign) - sign) & below) ^ sign) - sign;
      }
    }
    return;
  }
  for (int l = 0; l < kLanes; ++l) out[l] = divide<U, Signed, Quotient>(a[l], b[l]);
}

}  // namespace gpusim::exec
