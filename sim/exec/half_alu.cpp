// Half-precision and bfloat16 arithmetic, scalar (f16, bf16) and paired (f16x2, bf16x2:
// two values in one 32-bit register, low half first). Each result is computed exactly in
// double and rounded once to the narrow format.
#include <algorithm>
#include <cmath>

#include "exec/executor.hpp"
#include "exec/small_float.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::Opcode;

void Executor::half_alu(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask, const uint64_t* ra,
                        const uint64_t* rb, const uint64_t* rc) {
  const SmallFloatFormat f = format_of(in.type);
  const int parts = in.type == DataType::F16X2 || in.type == DataType::BF16X2 ? 2 : 1;
  const auto operand = [&](uint64_t reg, int h) {
    return decode_operand(static_cast<uint32_t>(reg >> (16 * h) & 0xFFFF), f, in.ftz);
  };
  uint64_t out[kWarpSize];
  for_each_lane(mask, [&](uint32_t lane) {
    uint64_t result = 0;
    for (int h = 0; h < parts; ++h) {
      const uint32_t raw = static_cast<uint32_t>(ra[lane] >> (16 * h) & 0xFFFF);
      uint32_t bits;
      if (in.op == Opcode::Neg || in.op == Opcode::Abs) {  // sign-bit operations, NaN included
        bits = in.op == Opcode::Neg ? raw ^ 0x8000u : raw & 0x7FFFu;
      } else {
        const double x = operand(ra[lane], h);
        const double y = in.num_src > 1 ? operand(rb[lane], h) : 0.0;
        const double z = in.num_src > 2 ? operand(rc[lane], h) : 0.0;
        double v;
        switch (in.op) {
          case Opcode::Add: v = x + y; break;
          case Opcode::Sub: v = x - y; break;
          case Opcode::Mul: v = x * y; break;
          case Opcode::Fma:
          case Opcode::Mad: v = std::fma(x, y, z); break;
          case Opcode::Min: v = std::isnan(x) ? y : std::isnan(y) ? x : std::min(x, y); break;
          case Opcode::Max: v = std::isnan(x) ? y : std::isnan(y) ? x : std::max(x, y); break;
          case Opcode::Ex2: v = std::exp2(x); break;
          case Opcode::Sqrt: v = std::sqrt(x); break;
          case Opcode::Rsqrt: v = 1.0 / std::sqrt(x); break;
          case Opcode::Rcp: v = 1.0 / x; break;
          default:
            fault(w, b, lane, std::string(kernel::opcode_name(in.op)) + "." + kernel::type_name(in.type) + " is not supported");
        }
        if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
        bits = encode_small_float(v, f, in.rounding);
        if (in.ftz && is_subnormal(bits, f)) bits &= 0x8000u;
      }
      result |= uint64_t{bits} << (16 * h);
    }
    out[lane] = result;
  });
  scatter(w, in.dst.reg, mask, out);
}

}  // namespace gpusim::exec
