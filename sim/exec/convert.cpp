// cvt and cvta: conversions between integer, float and half types with the instruction's
// rounding and saturation, and between generic and state-space addresses.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/directed_rounding.hpp"
#include "exec/executor.hpp"
#include "exec/small_float.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::Opcode;
using kernel::Rounding;

namespace {

double round_float(double v, Rounding r) {
  switch (r) {
    case Rounding::Rni: return std::nearbyint(v);
    case Rounding::Rzi: return std::trunc(v);
    case Rounding::Rmi: return std::floor(v);
    case Rounding::Rpi: return std::ceil(v);
    default: return v;
  }
}

}  // namespace

void Executor::convert(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const DataType dst = in.type;
  const int bits = kernel::type_bits(dst);
  if (in.op == Opcode::Cvta) {
    // mode 1: cvta.to.SPACE (generic -> space); mode 0: cvta.SPACE (space -> generic).
    const uint64_t window = in.space == kernel::StateSpace::Shared  ? kernel::kSharedWindow
                            : in.space == kernel::StateSpace::Local ? kernel::kLocalWindow
                                                                    : 0;
    uint64_t v[kWarpSize];
    gather(w, b, in.src[0], mask, v);
    // The same add and mask for every lane, worked out once: a loop that vectorises.
    const uint64_t delta = in.mode == 1 ? 0 - window : window, keep = low_bits(~uint64_t{0}, bits);
    for_each_lane(mask, [&](uint32_t lane) { v[lane] = (v[lane] + delta) & keep; });
    scatter(w, in.dst.reg, mask, v);
    return;
  }
  const DataType src = in.type2 == DataType::None ? dst : in.type2;
  uint64_t values[kWarpSize], second[kWarpSize];
  gather(w, b, in.src[0], mask, values);
  if (in.num_src > 1) gather(w, b, in.src[1], mask, second);  // cvt.rn.f16x2.f32 d, hi, lo
  const bool packed = dst == DataType::F16X2 || dst == DataType::BF16X2;
  if (!kernel::is_float(src) && !kernel::is_float(dst) && !in.sat && !packed) {  // integer to integer: the common case
    // The source's bits, sign-extended by (x ^ m) - m (m its sign bit; 0 unsigned: no change),
    // then the destination's: masks worked out once, a loop that vectorises.
    const int src_bits = kernel::type_bits(src);
    const uint64_t from = low_bits(~uint64_t{0}, src_bits), keep = low_bits(~uint64_t{0}, bits);
    const uint64_t sign = kernel::is_signed(src) && src_bits > 0 && src_bits < 64 ? uint64_t{1} << (src_bits - 1) : 0;
    // A register wider than the destination's type holds the result sign-extended from a
    // signed type, zero-extended from any other (PTX ISA 9.4.1; as_int, as masks worked out once).
    const uint64_t dst_sign = kernel::is_signed(dst) && bits < 64 ? uint64_t{1} << (bits - 1) : 0;
    for_each_lane(mask, [&](uint32_t lane) {
      values[lane] = (((((values[lane] & from) ^ sign) - sign) & keep) ^ dst_sign) - dst_sign;
    });
    scatter(w, in.dst.reg, mask, values);
    return;
  }
  if (packed && (in.num_src != 2 || !kernel::is_float(src)))
    fault(w, b, static_cast<uint32_t>(std::countr_zero(mask | 1u)), "cvt to a packed pair needs two float sources");
  const auto to_small = [&](uint64_t raw) {
    double v = float_value(raw, src);
    if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
    return uint64_t{encode_small_float(v, format_of(dst), in.rounding)};
  };
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t a = values[lane];
    uint64_t out;
    if (packed) {
      out = to_small(a) << 16 | to_small(second[lane]);
    } else if (kernel::is_float(src) && (dst == DataType::F16 || dst == DataType::BF16)) {
      out = to_small(a);
    } else if (kernel::is_float(src) && kernel::is_float(dst)) {
      double v = float_value(a, src);
      if (in.ftz && src == DataType::F32) v = flush_f32(static_cast<float>(v));
      if (src != DataType::F16 && src != DataType::BF16) v = round_float(v, in.rounding);
      if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
      if (dst == DataType::F32) {
        const float f = narrowed<float>(v, in.rounding);
        out = from_f32(in.ftz ? flush_f32(f) : f);
      } else {
        out = from_f64(v);
      }
    } else if (kernel::is_float(src)) {
      double v = float_value(a, src);
      if (in.ftz && src == DataType::F32) v = flush_f32(static_cast<float>(v));  // a subnormal converts as a zero
      out = static_cast<uint64_t>(as_int(float_to_int(v, in.rounding, dst, src), dst));  // 9.4.1, as above
    } else if (dst == DataType::F16 || dst == DataType::BF16) {
      const int64_t s = as_int(a, src);
      const double v = kernel::is_signed(src) ? static_cast<double>(s) : static_cast<double>(static_cast<uint64_t>(s));
      out = encode_small_float(in.sat ? std::clamp(v, 0.0, 1.0) : v, format_of(dst), in.rounding);
    } else if (kernel::is_float(dst)) {
      const int64_t s = as_int(a, src);
      const long double exact = kernel::is_signed(src) ? static_cast<long double>(s)
                                                       : static_cast<long double>(static_cast<uint64_t>(s));
      // Rounded once, directly to the destination's type, as the hardware does.
      if (dst == DataType::F32) {
        const float f = narrowed<float>(exact, in.rounding);
        out = from_f32(in.sat ? std::clamp(f, 0.0f, 1.0f) : f);
      } else {
        const double v = narrowed<double>(exact, in.rounding);
        out = from_f64(in.sat ? std::clamp(v, 0.0, 1.0) : v);
      }
    } else {
      int64_t v = as_int(a, src);
      if (in.sat) {
        if (kernel::is_signed(dst)) {
          const int64_t lo = bits >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
          const int64_t hi = bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
          v = kernel::is_signed(src) ? std::clamp(v, lo, hi)
                                     : static_cast<int64_t>(std::min<uint64_t>(static_cast<uint64_t>(v), static_cast<uint64_t>(hi)));
        } else if (kernel::is_signed(src) && v < 0) {
          v = 0;
        } else if (bits < 64) {
          v = static_cast<int64_t>(std::min<uint64_t>(static_cast<uint64_t>(v), (uint64_t{1} << bits) - 1));
        }
      }
      out = static_cast<uint64_t>(as_int(static_cast<uint64_t>(v), dst));  // 9.4.1, as above
    }
    values[lane] = out;
  });
  scatter(w, in.dst.reg, mask, values);
}

}  // namespace gpusim::exec
