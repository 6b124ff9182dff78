// The most frequent arithmetic - 32-bit integer, f32 and predicate logic - a warp at a
// time on the narrow registers in place: no widening of every operand to 64 bits and back;
// the 64-bit arithmetic of indexing code (add, sub, logic and shifts of 64-bit integers,
// mul/mad.wide); and integer division and remainder of both widths.
// Each instruction is decoded once per program (lane_ops.cpp); an issue runs its lane loop.
// Results are those of the general path (alu.cpp) bit for bit; whatever this does not
// cover (other types, .sat, .ftz, carries, negated or unwritten operands) goes there.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "exec/directed_rounding.hpp"
#include "exec/executor.hpp"
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
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void float_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint32_t>(
        Fn{}(std::bit_cast<float>(a[l]), std::bit_cast<float>(b[l]), std::bit_cast<float>(c[l])));
}
// Predicate logic: the integer operation's result, as a predicate (0 or 1).
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void predicate_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = Fn{}(a[l], b[l], c[l]) & 1u;
}
template <typename Fn>
LaneKernel int_kernel_of(Fn) {
  return &int_lanes32<Fn>;
}
template <typename Fn>
LaneKernel predicate_kernel_of(Fn) {
  return &predicate_lanes32<Fn>;
}
template <typename Fn>
LaneKernel float_kernel_of(Fn) {
  return &float_lanes32<Fn>;
}

uint32_t high_signed(uint32_t x, uint32_t y) {
  const int64_t p = int64_t{static_cast<int32_t>(x)} * static_cast<int32_t>(y);
  return static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32);
}
uint32_t high(uint32_t x, uint32_t y) { return static_cast<uint32_t>(uint64_t{x} * y >> 32); }
int32_t as_signed(uint32_t v) { return static_cast<int32_t>(v); }
uint32_t from_signed(int32_t v) { return static_cast<uint32_t>(v); }

// Division and remainder run on every lane too, so a lane dividing by zero is one not
// executed (run_decoded sends a warp with an executed one to alu.cpp, which faults): any
// value does there, as long as the host does not trap. Nor may it on the signed minimum
// over -1, whose quotient wraps to itself and whose remainder is 0 (alu.cpp's, in 64 bits).
// So 0 and -1 divide as 1, and -1's quotient is negated.
template <typename U>
U safe_divisor(U y) {
  return y == 0 || y == static_cast<U>(-1) ? U{1} : y;
}
template <typename U, bool Signed, bool Quotient>
U divide(U x, U y) {
  using S = std::make_signed_t<U>;
  const U d = Signed ? safe_divisor(y) : y + U{y == 0};
  if constexpr (!Signed) return Quotient ? x / d : x % d;
  const U r = static_cast<U>(Quotient ? static_cast<S>(x) / static_cast<S>(d) : static_cast<S>(x) % static_cast<S>(d));
  return Quotient && y == static_cast<U>(-1) ? U{0} - r : r;
}

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
      return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, true, true>(x, y); })
                       : k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, false, true>(x, y); });
    case Opcode::Rem:
      return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, true, false>(x, y); })
                       : k([](uint32_t x, uint32_t y, uint32_t) { return divide<uint32_t, false, false>(x, y); });
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

LaneKernel float_kernel(Opcode op) {
  const auto k = [](auto fn) { return float_kernel_of(fn); };
  switch (op) {
    case Opcode::Add: return k([](float x, float y, float) { return x + y; });
    case Opcode::Sub: return k([](float x, float y, float) { return x - y; });
    case Opcode::Mul: return k([](float x, float y, float) { return x * y; });
    case Opcode::Mad:
    case Opcode::Fma: return &fma_lanes;
    case Opcode::Neg: return k([](float x, float, float) { return -x; });
    case Opcode::Abs: return k([](float x, float, float) { return std::fabs(x); });
    case Opcode::Min: return k([](float x, float y, float) { return ptx_min(x, y); });
    case Opcode::Max: return k([](float x, float y, float) { return ptx_max(x, y); });
    // IEEE division and square root round exactly, in vector code as in scalar: the general path's bits.
    case Opcode::Div: return k([](float x, float y, float) { return x / y; });
    case Opcode::Sqrt: return k([](float x, float, float) { return std::sqrt(x); });
    case Opcode::Rsqrt: return k([](float x, float, float) { return 1.0f / std::sqrt(x); });
    case Opcode::Rcp: return k([](float x, float, float) { return 1.0f / x; });
    default: return nullptr;
  }
}

// The lane loop of `in` as a 32-bit operation, or null where the general path (alu.cpp) must
// run it: other types, .sat, .ftz, carries, or a destination that is not a 32-bit register.
LaneKernel narrow_kernel(const kernel::Instruction& in) {
  const DataType t = in.type;
  const bool integer = t == DataType::B32 || t == DataType::U32 || t == DataType::S32;
  const bool pred_logic = t == DataType::Pred && (in.op == Opcode::And || in.op == Opcode::Or ||
                                                  in.op == Opcode::Xor || in.op == Opcode::Not);
  if (!(integer || t == DataType::F32 || pred_logic) || in.carry || in.sat || in.ftz || in.num_src > 3) return nullptr;
  if (in.op == Opcode::Selp)
    return int_kernel_of([](uint32_t x, uint32_t y, uint32_t p) { return p & 1u ? x : y; });
  if (t == DataType::F32) return is_directed(in.rounding) ? nullptr : float_kernel(in.op);  // .rz/.rm/.rp: alu.cpp
  return integer_kernel(in.op, static_cast<MulMode>(in.mode), kernel::is_signed(t), pred_logic);
}

__attribute__((target_clones("avx2", "default"))) void add64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] + b[l];
}
__attribute__((target_clones("avx2", "default"))) void sub64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] - b[l];
}
__attribute__((target_clones("avx2", "default"))) void and64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] & b[l];
}
__attribute__((target_clones("avx2", "default"))) void or64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] | b[l];
}
__attribute__((target_clones("avx2", "default"))) void xor64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] ^ b[l];
}
// 64-bit shifts by a 32-bit count: past 63 a logical shift gives 0, an arithmetic one the sign.
template <int Kind>  // 0: shl, 1: shr.u64/b64, 2: shr.s64
GPUSIM_AVX2_CLONES_TEMPLATE void shift64(const uint64_t* a, const uint32_t* n, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) {
    if constexpr (Kind == 2) out[l] = static_cast<uint64_t>(static_cast<int64_t>(a[l]) >> std::min(n[l], 63u));
    else if constexpr (Kind == 1) out[l] = n[l] >= 64 ? 0 : a[l] >> n[l];
    else out[l] = n[l] >= 64 ? 0 : a[l] << n[l];
  }
}
template <bool Signed, bool Quotient>
void divide64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = divide<uint64_t, Signed, Quotient>(a[l], b[l]);
}
// mul/mad.wide.s32: whole-warp signed products; a clone for hosts with AVX2 multiplies four
// lanes at a time (vpmuldq), where baseline x86-64 (SSE2) has no signed 32-bit multiply to
// 64 bits. The products are exact, so the answer does not depend on the host.
__attribute__((target_clones("avx2", "default"))) void signed_products(const uint32_t* a, const uint32_t* b,
                                                                        uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = static_cast<uint64_t>(int64_t{static_cast<int32_t>(a[l])} * static_cast<int32_t>(b[l]));
}
template <bool Signed, bool Add>
void widening(const uint32_t* a, const uint32_t* b, const uint64_t* c, uint64_t* out) {
  if constexpr (Signed) signed_products(a, b, out);
  else for (int l = 0; l < kWarpSize; ++l) out[l] = uint64_t{a[l]} * b[l];
  if constexpr (Add)
    for (int l = 0; l < kWarpSize; ++l) out[l] += c[l];
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
  if (in.carry || in.sat) return op;
  const DataType t = in.type;
  const bool sixty_four = t == DataType::S64 || t == DataType::U64 || t == DataType::B64;
  const bool mad = in.op == Opcode::Mad;
  if ((in.op == Opcode::Mul || mad) && static_cast<MulMode>(in.mode) == MulMode::Wide &&
      (t == DataType::S32 || t == DataType::U32)) {
    op.form = LaneOp::Form::Widening;
    op.widening = t == DataType::S32 ? (mad ? &widening<true, true> : &widening<true, false>)
                                     : (mad ? &widening<false, true> : &widening<false, false>);
    op.src[2].wide = true;  // the addend
  } else if ((in.op == Opcode::Add || in.op == Opcode::Sub) && in.num_src == 2 && sixty_four) {
    op.form = LaneOp::Form::Wide;
    op.wide = in.op == Opcode::Add ? &add64 : &sub64;
    op.src[0].wide = op.src[1].wide = true;
  } else if ((in.op == Opcode::And || in.op == Opcode::Or || in.op == Opcode::Xor) && in.num_src == 2 && sixty_four) {
    op.form = LaneOp::Form::Wide;
    op.wide = in.op == Opcode::And ? &and64 : in.op == Opcode::Or ? &or64 : &xor64;
    op.src[0].wide = op.src[1].wide = true;
  } else if ((in.op == Opcode::Shl || in.op == Opcode::Shr) && sixty_four) {
    op.form = LaneOp::Form::WideShift;  // the count is 32 bits
    op.shift = in.op == Opcode::Shl ? &shift64<0> : t == DataType::S64 ? &shift64<2> : &shift64<1>;
    op.src[0].wide = true;
  } else if ((in.op == Opcode::Div || in.op == Opcode::Rem) && (t == DataType::S64 || t == DataType::U64)) {
    const bool quotient = in.op == Opcode::Div;
    op.form = LaneOp::Form::WideDivide;
    op.wide = t == DataType::S64 ? (quotient ? &divide64<true, true> : &divide64<true, false>)
                                 : (quotient ? &divide64<false, true> : &divide64<false, false>);
    op.src[0].wide = op.src[1].wide = true;
  }
  return op;
}

}  // namespace gpusim::exec
