// IEEE-style narrow floats as raw bits: binary16 (half, f16) and bfloat16 (bf16). Decoding
// is exact; encoding rounds once from double with the instruction's rounding mode, and
// NaN becomes the canonical 0x7FFF, as PTX specifies for f16 and bf16 results.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

#include "kernel/ir.hpp"

namespace gpusim::exec {

struct SmallFloatFormat {
  int exponent_bits;
  int mantissa_bits;
};
inline constexpr SmallFloatFormat kHalf{5, 10};
inline constexpr SmallFloatFormat kBfloat16{8, 7};

inline double decode_small_float(uint32_t bits, SmallFloatFormat f) {
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  const uint32_t man = bits & ((1u << f.mantissa_bits) - 1);
  const uint32_t exp = bits >> f.mantissa_bits & ((1u << f.exponent_bits) - 1);
  const bool negative = bits >> (f.exponent_bits + f.mantissa_bits) & 1u;
  double v;
  if (exp == (1u << f.exponent_bits) - 1) v = man ? std::nan("") : INFINITY;
  else if (exp == 0) v = std::ldexp(static_cast<double>(man), 1 - bias - f.mantissa_bits);
  else v = std::ldexp(static_cast<double>(man | (1u << f.mantissa_bits)), static_cast<int>(exp) - bias - f.mantissa_bits);
  return negative ? -v : v;
}

// Whether `bits` (16 of them) is a subnormal of format f: exponent 0, not a zero.
inline bool is_subnormal(uint32_t bits, SmallFloatFormat f) {
  const uint32_t exponent_mask = ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
  return (bits & exponent_mask) == 0 && (bits & 0x7FFFu) != 0;
}
// An operand's value; with `ftz`, a subnormal is a zero of its sign (.ftz on f16 and f16x2).
inline double decode_operand(uint32_t bits, SmallFloatFormat f, bool ftz) {
  const double v = decode_small_float(bits, f);
  return ftz && is_subnormal(bits, f) ? std::copysign(0.0, v) : v;
}

// Rounds a non-negative multiple count to an integer by the PTX rounding mode (on the
// magnitude, so rm/rp swap for negative values).
inline double round_magnitude(double q, kernel::Rounding r, bool negative) {
  switch (r) {
    case kernel::Rounding::Rz: return std::trunc(q);
    case kernel::Rounding::Rm: return negative ? std::ceil(q) : std::floor(q);
    case kernel::Rounding::Rp: return negative ? std::floor(q) : std::ceil(q);
    default: return std::nearbyint(q);  // round to nearest, ties to even
  }
}

inline uint32_t encode_small_float(double v, SmallFloatFormat f, kernel::Rounding r = kernel::Rounding::Rn) {
  const int total = 1 + f.exponent_bits + f.mantissa_bits;
  if (std::isnan(v)) return (1u << (total - 1)) - 1;  // 0x7FFF
  const bool negative = std::signbit(v);
  const uint32_t sign = uint32_t{negative} << (total - 1);
  const uint32_t inf = ((1u << f.exponent_bits) - 1) << f.mantissa_bits;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | inf;
  const int bias = (1 << (f.exponent_bits - 1)) - 1;
  int e = 0;
  std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exponent = std::max(e - 1, 1 - bias);  // subnormals share the smallest exponent
  double q = round_magnitude(std::ldexp(a, f.mantissa_bits - exponent), r, negative);  // units of the last place
  if (q >= std::ldexp(1.0, f.mantissa_bits + 1)) {  // rounded up to the next binade
    q /= 2;
    ++exponent;
  }
  const auto units = static_cast<uint32_t>(q);
  if (exponent > bias) {  // overflow: infinity, or the largest finite value when rounding toward zero
    const bool to_inf = r == kernel::Rounding::Rn || r == kernel::Rounding::None ||
                        (r == kernel::Rounding::Rp && !negative) || (r == kernel::Rounding::Rm && negative);
    return sign | (to_inf ? inf : inf - 1);
  }
  if (units < (1u << f.mantissa_bits)) return sign | units;  // subnormal (or zero)
  return sign | static_cast<uint32_t>(exponent + bias) << f.mantissa_bits | (units & ((1u << f.mantissa_bits) - 1));
}

inline bool is_half_type(kernel::DataType t) { return kernel::is_half(t); }
inline SmallFloatFormat format_of(kernel::DataType t) {
  return t == kernel::DataType::BF16 || t == kernel::DataType::BF16X2 ? kBfloat16 : kHalf;
}

// Any float register value as a double, and back (f16, bf16, f32, f64).
inline double float_value(uint64_t bits, kernel::DataType t) {
  switch (t) {
    case kernel::DataType::F16: return decode_small_float(static_cast<uint32_t>(bits & 0xFFFF), kHalf);
    case kernel::DataType::BF16: return decode_small_float(static_cast<uint32_t>(bits & 0xFFFF), kBfloat16);
    case kernel::DataType::F32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    default: return std::bit_cast<double>(bits);
  }
}

}  // namespace gpusim::exec
