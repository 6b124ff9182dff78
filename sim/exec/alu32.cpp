// The most frequent arithmetic - 32-bit integer (division and remainder too), f32 and
// predicate logic - a warp at a time on the narrow registers in place: no widening of
// every operand to 64 bits and back. What writes a 64-bit register: alu64.cpp.
// Each instruction is decoded once per program (lane_ops.cpp); an issue runs its lane loop.
// Results are those of the general path (alu.cpp) bit for bit; whatever this does not
// cover (other types, .sat, carries, negated or unwritten operands) goes there.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "exec/directed_rounding.hpp"
#include "exec/executor.hpp"
#include "exec/integer_divide.hpp"
#include "exec/lane_ops.hpp"
#include "exec/value.hpp"
#include "util/host_clones.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::MulMode;
using kernel::Opcode;

namespace {

// Every lane, active or not: the operations here cannot fault, and only the lanes executed
// are written back. One function per operation, picked when the program is decoded.
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void int_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = Fn{}(a[l], b[l], c[l]);
}
// With `Ftz` (.ftz), subnormal operands and results are zeros of their sign, as in alu.cpp.
template <typename Fn, bool Ftz>
GPUSIM_AVX2_CLONES_TEMPLATE void float_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) {
    float x = std::bit_cast<float>(a[l]), y = std::bit_cast<float>(b[l]), z = std::bit_cast<float>(c[l]);
    if constexpr (Ftz) x = flush_f32(x), y = flush_f32(y);  // z: only fma's addend, which has its own lanes
    const float v = Fn{}(x, y, z);
    out[l] = std::bit_cast<uint32_t>(Ftz ? flush_f32(v) : v);
  }
}
// Predicate logic: the integer operation's result, as a predicate (0 or 1).
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void predicate_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = Fn{}(a[l], b[l], c[l]) & 1u;
}
// Integer division and remainder, a shift or a mask where every lane divides by one power of two.
template <bool Signed, bool Quotient>
GPUSIM_AVX2_CLONES_TEMPLATE void divide_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t*, uint32_t* out) {
  divide_lanes<uint32_t, Signed, Quotient>(a, b, out);
}

template <typename Fn>
LaneKernel int_kernel_of(Fn) {
  return &int_lanes32<Fn>;
}
template <typename Fn>
LaneKernel predicate_kernel_of(Fn) {
  return &predicate_lanes32<Fn>;
}
template <bool Ftz, typename Fn>
LaneKernel float_kernel_of(Fn) {
  return &float_lanes32<Fn, Ftz>;
}

uint32_t high_signed(uint32_t x, uint32_t y) {
  const int64_t p = int64_t{static_cast<int32_t>(x)} * static_cast<int32_t>(y);
  return static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
}
uint32_t high(uint32_t x, uint32_t y) { return static_cast<uint32_t>(uint64_t{x} * y >> 32); }
int32_t as_signed(uint32_t v) { return static_cast<int32_t>(v); }
uint32_t from_signed(int32_t v) { return static_cast<uint32_t>(v); }

LaneKernel integer_kernel(Opcode op, MulMode mul, bool is_signed, bool predicate) {
  const auto k = [predicate](auto fn) { return predicate ? predicate_kernel_of(fn) : int_kernel_of(fn); };
  switch (op) {
    case Opcode::Add: return k([](uint32_t x, uint32_t y, uint32_t) { return x + y; });
    case Opcode::Sub: return k([](uint32_t x, uint32_t y, uint32_t) { return x - y; });
    case Opcode::Mul:
    case Opcode::Mad: {
      const bool mad = op == Opcode::Mad;
      if (mul == MulMode::Lo)
        return mad ? k([](uint32_t x, uint32_t y, uint32_t z) { return x * y + z; })
                   : k([](uint32_t x, uint32_t y, uint32_t) { return x * y; });
      if (mul == MulMode::Hi && is_signed)
        return mad ? k([](uint32_t x, uint32_t y, uint32_t z) { return high_signed(x, y) + z; })
                   : k([](uint32_t x, uint32_t y, uint32_t) { return high_signed(x, y); });
      if (mul == MulMode::Hi)
        return mad ? k([](uint32_t x, uint32_t y, uint32_t z) { return high(x, y) + z; })
                   : k([](uint32_t x, uint32_t y, uint32_t) { return high(x, y); });
      return nullptr;  // .wide writes 64 bits
    }
    case Opcode::And: return k([](uint32_t x, uint32_t y, uint32_t) { return x & y; });
    case Opcode::Or: return k([](uint32_t x, uint32_t y, uint32_t) { return x | y; });
    case Opcode::Xor: return k([](uint32_t x, uint32_t y, uint32_t) { return x ^ y; });
    case Opcode::Not: return k([](uint32_t x, uint32_t, uint32_t) { return ~x; });
    case Opcode::Neg: return k([](uint32_t x, uint32_t, uint32_t) { return 0u - x; });
    case Opcode::Shl: return k([](uint32_t x, uint32_t n, uint32_t) { return n >= 32 ? 0u : x << n; });
    case Opcode::Shr:
      if (is_signed)
        return k([](uint32_t x, uint32_t n, uint32_t) {
          return static_cast<uint32_t>(static_cast<int32_t>(x) >> std::min(n, 31u));
        });
      return k([](uint32_t x, uint32_t n, uint32_t) { return n >= 32 ? 0u : x >> n; });
    case Opcode::Min:
    case Opcode::Max: {
      const bool min = op == Opcode::Min;
      if (is_signed)
        return min ? k([](uint32_t x, uint32_t y, uint32_t) { return from_signed(std::min(as_signed(x), as_signed(y))); })
                   : k([](uint32_t x, uint32_t y, uint32_t) { return from_signed(std::max(as_signed(x), as_signed(y))); });
      return min ? k([](uint32_t x, uint32_t y, uint32_t) { return std::min(x, y); })
                 : k([](uint32_t x, uint32_t y, uint32_t) { return std::max(x, y); });
    }
    case Opcode::Div:
    case Opcode::Rem: {
      const bool quotient = op == Opcode::Div;
      if (!predicate)
        return is_signed ? (quotient ? &divide_lanes32<true, true> : &divide_lanes32<true, false>)
                         : (quotient ? &divide_lanes32<false, true> : &divide_lanes32<false, false>);
      if (quotient)
        return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, true, true>(x, y); })
                         : k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, false, true>(x, y); });
      return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, true, false>(x, y); })
                       : k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, false, false>(x, y); });
    }
    default: return nullptr;
  }
}

// f32 fused multiply-add of every lane: without FMA in the baseline instruction set,
// std::fma is a libm call per lane; a clone for hosts with FMA does it in one instruction.
// Both give the exactly rounded result, so the answer does not depend on the host.
__attribute__((target_clones("fma", "default"))) void fma_lanes(const uint32_t* a, const uint32_t* b,
                                                                 const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint32_t>(
        std::fma(std::bit_cast<float>(a[l]), std::bit_cast<float>(b[l]), std::bit_cast<float>(c[l])));
}
// The same with .ftz: subnormal operands and result flushed.
__attribute__((target_clones("fma", "default"))) void fma_lanes_ftz(const uint32_t* a, const uint32_t* b,
                                                                     const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint32_t>(flush_f32(std::fma(flush_f32(std::bit_cast<float>(a[l])),
                                                        flush_f32(std::bit_cast<float>(b[l])),
                                                        flush_f32(std::bit_cast<float>(c[l])))));
}

LaneKernel float_kernel(Opcode op, bool ftz) {
  const auto k = [ftz](auto fn) { return ftz ? float_kernel_of<true>(fn) : float_kernel_of<false>(fn); };
  switch (op) {
    case Opcode::Add: return k([](float x, float y, float) { return x + y; });
    case Opcode::Sub: return k([](float x, float y, float) { return x - y; });
    case Opcode::Mul: return k([](float x, float y, float) { return x * y; });
    case Opcode::Mad:
    case Opcode::Fma: return ftz ? &fma_lanes_ftz : &fma_lanes;
    case Opcode::Neg: return k([](float x, float, float) { return -x; });
    case Opcode::Abs: return k([](float x, float, float) { return std::fabs(x); });
    case Opcode::Min: return k([](float x, float y, float) { return ptx_min(x, y); });
    case Opcode::Max: return k([](float x, float y, float) { return ptx_max(x, y); });
    // IEEE division and square root round exactly, in vector code as in scalar: the general path's bits.
    case Opcode::Div: return k([](float x, float y, float) { return x / y; });
    case Opcode::Sqrt: return k([](float x, float, float) { return std::sqrt(x); });
    case Opcode::Rsqrt: return k([](float x, float, float) { return 1.0f / std::sqrt(x); });
    case Opcode::Rcp: return k([](float x, float, float) { return 1.0f / x; });
    // .approx: the host's libm, as in alu.cpp (a call per lane either way, the same function).
    case Opcode::Ex2: return k([](float x, float, float) { return std::exp2(x); });
    case Opcode::Lg2: return k([](float x, float, float) { return std::log2(x); });
    case Opcode::Sin: return k([](float x, float, float) { return std::sin(x); });
    case Opcode::Cos: return k([](float x, float, float) { return std::cos(x); });
    default: return nullptr;
  }
}

// The lane loop of `in` as a 32-bit operation, or null where the general path (alu.cpp) must
// run it: other types, .sat, .ftz (but on f32), carries, or a destination that is not a 32-bit register.
LaneKernel narrow_kernel(const kernel::Instruction& in) {
  const DataType t = in.type;
  const bool integer = t == DataType::B32 || t == DataType::U32 || t == DataType::S32;
  const bool pred_logic = t == DataType::Pred && (in.op == Opcode::And || in.op == Opcode::Or ||
                                                  in.op == Opcode::Xor || in.op == Opcode::Not);
  if (!(integer || t == DataType::F32 || pred_logic) || in.carry || in.sat || in.num_src > 3) return nullptr;
  if (in.op == Opcode::Selp)
    return int_kernel_of([](uint32_t x, uint32_t y, uint32_t p) { return p & 1u ? x : y; });
  if (t == DataType::F32) return is_directed(in.rounding) ? nullptr : float_kernel(in.op, in.ftz);  // .rz/.rm/.rp: alu.cpp
  if (in.ftz) return nullptr;  // f32 only
  return integer_kernel(in.op, static_cast<MulMode>(in.mode), kernel::is_signed(t), pred_logic);
}

}  // namespace

LaneOp decode_arithmetic(const kernel::Program& program, const kernel::Instruction& in) {
  LaneOp op;
  if (in.dst.kind != kernel::Operand::Kind::Reg) return op;
  if (!program.reg_wide[in.dst.reg]) {
    op.narrow = narrow_kernel(in);
    const bool integer_division = (in.op == Opcode::Div || in.op == Opcode::Rem) && in.type != DataType::F32;
    if (op.narrow) op.form = integer_division ? LaneOp::Form::NarrowDivide : LaneOp::Form::Narrow;
    return op;
  }
  return decode_wide_arithmetic(in);
}

}  // namespace gpusim::exec
