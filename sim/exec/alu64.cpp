// What writes a 64-bit register, a warp at a time (decoded once per program, lane_ops.cpp):
// the 64-bit integer arithmetic of indexing code (add, sub, mul and mad.lo, neg, min, max,
// logic, shifts, mul/mad.wide of 32-bit operands), integer division and remainder, and f64
// arithmetic. Results are those of the general path (alu.cpp) bit for bit; whatever this
// does not cover (.sat, carries, .rz/.rm/.rp, the high halves of products, negated or
// unwritten operands) goes there.
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
GPUSIM_AVX2_CLONES_TEMPLATE void divide64(const uint64_t* a, const uint64_t* b, uint64_t* out) {
  divide_lanes<uint64_t, Signed, Quotient>(a, b, out);
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

// 64-bit integer products (mul.lo, mad.lo: the low 64 bits, whatever the sign), negation,
// complement, min and max.
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void int_lanes64(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = Fn{}(a[l], b[l], c[l]);
}
template <typename Fn>
GPUSIM_AVX2_CLONES_TEMPLATE void double_lanes(const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint64_t>(
        Fn{}(std::bit_cast<double>(a[l]), std::bit_cast<double>(b[l]), std::bit_cast<double>(c[l])));
}
// f64 fused multiply-add: one instruction on hosts with FMA, a libm call per lane without;
// both exactly rounded.
__attribute__((target_clones("fma", "default"))) void fma_lanes64(const uint64_t* a, const uint64_t* b,
                                                                   const uint64_t* c, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint64_t>(
        std::fma(std::bit_cast<double>(a[l]), std::bit_cast<double>(b[l]), std::bit_cast<double>(c[l])));
}

bool signed_less(uint64_t x, uint64_t y) { return static_cast<int64_t>(x) < static_cast<int64_t>(y); }

TernaryKernel integer64_kernel(Opcode op, MulMode mul, bool is_signed) {
  const auto k = [](auto fn) -> TernaryKernel { return &int_lanes64<decltype(fn)>; };
  switch (op) {
    case Opcode::Mul:
      return mul == MulMode::Lo ? k([](uint64_t x, uint64_t y, uint64_t) { return x * y; }) : nullptr;
    case Opcode::Mad:
      return mul == MulMode::Lo ? k([](uint64_t x, uint64_t y, uint64_t z) { return x * y + z; }) : nullptr;
    case Opcode::Neg: return k([](uint64_t x, uint64_t, uint64_t) { return 0 - x; });
    case Opcode::Not: return k([](uint64_t x, uint64_t, uint64_t) { return ~x; });
    case Opcode::Min:
      if (is_signed)
        return k([](uint64_t x, uint64_t y, uint64_t) { return signed_less(x, y) ? x : y; });
      return k([](uint64_t x, uint64_t y, uint64_t) { return std::min(x, y); });
    case Opcode::Max:
      if (is_signed)
        return k([](uint64_t x, uint64_t y, uint64_t) { return signed_less(x, y) ? y : x; });
      return k([](uint64_t x, uint64_t y, uint64_t) { return std::max(x, y); });
    default: return nullptr;
  }
}

TernaryKernel double_kernel(Opcode op) {
  const auto k = [](auto fn) -> TernaryKernel { return &double_lanes<decltype(fn)>; };
  switch (op) {
    case Opcode::Add: return k([](double x, double y, double) { return x + y; });
    case Opcode::Sub: return k([](double x, double y, double) { return x - y; });
    case Opcode::Mul: return k([](double x, double y, double) { return x * y; });
    case Opcode::Mad:
    case Opcode::Fma: return &fma_lanes64;
    case Opcode::Div: return k([](double x, double y, double) { return x / y; });
    case Opcode::Neg: return k([](double x, double, double) { return -x; });
    case Opcode::Abs: return k([](double x, double, double) { return std::fabs(x); });
    case Opcode::Min: return k([](double x, double y, double) { return ptx_min(x, y); });
    case Opcode::Max: return k([](double x, double y, double) { return ptx_max(x, y); });
    case Opcode::Sqrt: return k([](double x, double, double) { return std::sqrt(x); });
    case Opcode::Rsqrt: return k([](double x, double, double) { return 1.0 / std::sqrt(x); });
    case Opcode::Rcp: return k([](double x, double, double) { return 1.0 / x; });
    default: return nullptr;
  }
}

}  // namespace

LaneOp decode_wide_arithmetic(const kernel::Instruction& in) {
  LaneOp op;
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
  if (op.form != LaneOp::Form::None) return op;
  // The rest take up to three 64-bit sources.
  if (t == DataType::F64 && !in.ftz && !is_directed(in.rounding)) op.ternary = double_kernel(in.op);
  else if (sixty_four) op.ternary = integer64_kernel(in.op, static_cast<MulMode>(in.mode), t == DataType::S64);
  if (op.ternary) {
    op.form = LaneOp::Form::WideTernary;
    op.src[0].wide = op.src[1].wide = op.src[2].wide = true;
  }
  return op;
}

}  // namespace gpusim::exec
