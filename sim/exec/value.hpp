// Raw register bits and their typed views: registers hold 64 bits, and each
// instruction reads them as its own type.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernel/ir.hpp"

namespace gpusim::exec {

inline uint64_t low_bits(uint64_t v, int bits) { return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1); }

inline int64_t sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  const uint64_t m = uint64_t{1} << (bits - 1);
  v = low_bits(v, bits);
  return static_cast<int64_t>((v ^ m) - m);
}

inline float as_f32(uint64_t v) { return std::bit_cast<float>(static_cast<uint32_t>(v)); }
inline double as_f64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t from_f32(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t from_f64(double d) { return std::bit_cast<uint64_t>(d); }

// A register value of type t as a signed or unsigned 64-bit integer.
inline int64_t as_int(uint64_t v, kernel::DataType t) {
  const int bits = kernel::type_bits(t);
  return kernel::is_signed(t) ? sign_extend(v, bits) : static_cast<int64_t>(low_bits(v, bits));
}

// Float (of type `src`) to integer with the instruction's rounding (.rni, .rmi, .rpi; any
// other truncates), clamped to the destination range (cvt: convert.cpp, and its decoded
// forms). NaN gives 0, but from f64 or to a 64-bit integer the destination's top bit alone
// (PTX ISA, cvt: 1 << (BitWidth(dst) - 1)).
inline uint64_t float_to_int(double v, kernel::Rounding r, kernel::DataType dst, kernel::DataType src) {
  const int bits = kernel::type_bits(dst);
  if (std::isnan(v)) return src == kernel::DataType::F64 || bits == 64 ? uint64_t{1} << (bits - 1) : 0;
  switch (r) {
    case kernel::Rounding::Rni: v = std::nearbyint(v); break;
    case kernel::Rounding::Rmi: v = std::floor(v); break;
    case kernel::Rounding::Rpi: v = std::ceil(v); break;
    default: v = std::trunc(v); break;
  }
  if (kernel::is_signed(dst)) {
    const double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1) - 1;
    const double c = std::clamp(v, lo, hi);
    return low_bits(static_cast<uint64_t>(c == std::ldexp(1.0, 63) ? std::numeric_limits<int64_t>::max()
                                                                    : static_cast<int64_t>(c)),
                    bits);
  }
  const double hi = std::ldexp(1.0, bits) - 1;
  const double c = std::clamp(v, 0.0, hi);
  return c >= std::ldexp(1.0, 64) - 1 ? ~uint64_t{0} : low_bits(static_cast<uint64_t>(c), bits);
}

// PTX min/max: a NaN operand yields the other operand.
template <typename F>
F ptx_min(F x, F y) {
  return std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y);
}
template <typename F>
F ptx_max(F x, F y) {
  return std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y);
}

inline float flush_f32(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

}  // namespace gpusim::exec
