// setp: comparisons, one warp at a time. The comparison and the type are chosen once per
// warp instruction, not per lane (it is among the most frequent instructions), and the
// result is built as a lane mask.
#include <bit>
#include <cmath>
#include <cstring>

#include "exec/executor.hpp"
#include "exec/lane_ops.hpp"
#include "exec/small_float.hpp"
#include "exec/value.hpp"
#include "util/host_clones.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {

using kernel::CmpOp;
using kernel::DataType;

namespace {

template <CmpOp Op, typename F>
bool compare_float(F a, F b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (Op) {
    case CmpOp::Eq: return !unordered && a == b;
    case CmpOp::Ne: return !unordered && a != b;
    case CmpOp::Lt: case CmpOp::Lo: return !unordered && a < b;
    case CmpOp::Le: case CmpOp::Ls: return !unordered && a <= b;
    case CmpOp::Gt: case CmpOp::Hi: return !unordered && a > b;
    case CmpOp::Ge: case CmpOp::Hs: return !unordered && a >= b;
    case CmpOp::Equ: return unordered || a == b;
    case CmpOp::Neu: return unordered || a != b;
    case CmpOp::Ltu: return unordered || a < b;
    case CmpOp::Leu: return unordered || a <= b;
    case CmpOp::Gtu: return unordered || a > b;
    case CmpOp::Geu: return unordered || a >= b;
    case CmpOp::Num: return !unordered;
    case CmpOp::Nan: return unordered;
  }
  return false;
}

// Integers arrive normalised to int64 (signed types, sign-extended) or uint64 (the rest).
template <CmpOp Op, typename I>
bool compare_integer(I a, I b) {
  using U = std::make_unsigned_t<I>;
  switch (Op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return a != b;
    case CmpOp::Lt: return a < b;
    case CmpOp::Le: return a <= b;
    case CmpOp::Gt: return a > b;
    case CmpOp::Ge: return a >= b;
    case CmpOp::Lo: return U(a) < U(b);
    case CmpOp::Ls: return U(a) <= U(b);
    case CmpOp::Hi: return U(a) > U(b);
    case CmpOp::Hs: return U(a) >= U(b);
    default: return false;
  }
}

// The lanes of `mask` for which the comparison holds, as a mask. The operands are read as
// `Raw` and compared as T, of the same size: a 32-bit register's lanes compared in place as
// float or int32_t, without a copy. With `Ftz` (setp.ftz.f32), subnormal operands compare as
// zeros of their sign.
template <CmpOp Op, typename T, typename Raw, bool Ftz = false>
GPUSIM_AVX2_CLONES_TEMPLATE uint32_t lanes_where(uint32_t mask, const Raw* a, const Raw* b) {
  static_assert(sizeof(T) == sizeof(Raw));
  const auto holds_at = [a, b](uint32_t lane) {
    T x = std::bit_cast<T>(a[lane]), y = std::bit_cast<T>(b[lane]);
    if constexpr (Ftz) x = flush_f32(x), y = flush_f32(y);
    if constexpr (std::is_floating_point_v<T>) return compare_float<Op>(x, y);
    else return compare_integer<Op>(x, y);
  };
  if (mask == 0xFFFFFFFFu) {  // a full warp: the comparisons in one loop that vectorises, then packed
    uint8_t holds[kWarpSize];
    for (uint32_t lane = 0; lane < kWarpSize; ++lane) holds[lane] = holds_at(lane);
    return util::pack_lanes(holds);
  }
  uint32_t out = 0;
  for_each_lane(mask, [&](uint32_t lane) { out |= uint32_t{holds_at(lane)} << lane; });
  return out;
}

// The comparison `op` of lanes read as Raw, compared as T (of the same size).
template <typename T, typename Raw, bool Ftz = false>
auto compare_kernel_as(CmpOp op) -> uint32_t (*)(uint32_t, const Raw*, const Raw*) {
  switch (op) {
    case CmpOp::Eq: return &lanes_where<CmpOp::Eq, T, Raw, Ftz>;
    case CmpOp::Ne: return &lanes_where<CmpOp::Ne, T, Raw, Ftz>;
    case CmpOp::Lt: return &lanes_where<CmpOp::Lt, T, Raw, Ftz>;
    case CmpOp::Le: return &lanes_where<CmpOp::Le, T, Raw, Ftz>;
    case CmpOp::Gt: return &lanes_where<CmpOp::Gt, T, Raw, Ftz>;
    case CmpOp::Ge: return &lanes_where<CmpOp::Ge, T, Raw, Ftz>;
    case CmpOp::Lo: return &lanes_where<CmpOp::Lo, T, Raw, Ftz>;
    case CmpOp::Ls: return &lanes_where<CmpOp::Ls, T, Raw, Ftz>;
    case CmpOp::Hi: return &lanes_where<CmpOp::Hi, T, Raw, Ftz>;
    case CmpOp::Hs: return &lanes_where<CmpOp::Hs, T, Raw, Ftz>;
    case CmpOp::Equ: return &lanes_where<CmpOp::Equ, T, Raw, Ftz>;
    case CmpOp::Neu: return &lanes_where<CmpOp::Neu, T, Raw, Ftz>;
    case CmpOp::Ltu: return &lanes_where<CmpOp::Ltu, T, Raw, Ftz>;
    case CmpOp::Leu: return &lanes_where<CmpOp::Leu, T, Raw, Ftz>;
    case CmpOp::Gtu: return &lanes_where<CmpOp::Gtu, T, Raw, Ftz>;
    case CmpOp::Geu: return &lanes_where<CmpOp::Geu, T, Raw, Ftz>;
    case CmpOp::Num: return &lanes_where<CmpOp::Num, T, Raw, Ftz>;
    case CmpOp::Nan: return &lanes_where<CmpOp::Nan, T, Raw, Ftz>;
  }
  return nullptr;
}

// Compared as T, read as Raw (of the same size).
template <typename T, typename Raw>
uint32_t compare_as(CmpOp op, uint32_t mask, const Raw* a, const Raw* b) {
  const auto holds = compare_kernel_as<T, Raw>(op);
  return holds ? holds(mask, a, b) : 0;
}
// The comparison of f32 lanes, their subnormals flushed first where `ftz` (setp.ftz.f32):
// one pick for the decoded form and the general path.
auto compare_f32_kernel(CmpOp op, bool ftz) -> uint32_t (*)(uint32_t, const uint32_t*, const uint32_t*) {
  return ftz ? compare_kernel_as<float, uint32_t, true>(op) : compare_kernel_as<float, uint32_t>(op);
}
uint32_t compare_f32(CmpOp op, bool ftz, uint32_t mask, const uint32_t* a, const uint32_t* b) {
  const auto holds = compare_f32_kernel(op, ftz);
  return holds ? holds(mask, a, b) : 0;
}

template <typename T>
uint32_t compare_lanes(CmpOp op, uint32_t mask, const T* a, const T* b) {
  return compare_as<T>(op, mask, a, b);
}

}  // namespace

LaneOp decode_compare(const kernel::Program& program, const kernel::Instruction& in) {
  LaneOp op;
  // 32- or 64-bit operands, one predicate or two, and no predicate to combine with (setp()'s
  // in-place path, and its widened one for 64 bits).
  const DataType t = in.type;
  if (in.bool_op != kernel::BoolOp::None || in.num_src != 2 || in.dst.kind != kernel::Operand::Kind::Reg ||
      program.reg_wide[in.dst.reg])
    return op;
  if (in.dst2.kind == kernel::Operand::Kind::Reg) {
    if (program.reg_wide[in.dst2.reg]) return op;
    op.dst2 = in.dst2.reg;
  } else if (in.dst2.kind != kernel::Operand::Kind::None) {
    return op;
  }
  const auto cmp = static_cast<CmpOp>(in.mode);
  op.compare = t == DataType::F32   ? compare_f32_kernel(cmp, in.ftz)
               : t == DataType::S32 ? compare_kernel_as<int32_t, uint32_t>(cmp)
               : t == DataType::U32 || t == DataType::B32 ? compare_kernel_as<uint32_t, uint32_t>(cmp)
                                                           : nullptr;
  if (op.compare) {
    op.form = LaneOp::Form::Compare;
    return op;
  }
  op.wide_compare = t == DataType::F64   ? compare_kernel_as<double, uint64_t>(cmp)
                    : t == DataType::S64 ? compare_kernel_as<int64_t, uint64_t>(cmp)
                    : t == DataType::U64 || t == DataType::B64 ? compare_kernel_as<uint64_t, uint64_t>(cmp)
                                                                : nullptr;
  if (op.wide_compare) {
    op.form = LaneOp::Form::WideCompare;
    op.src[0].wide = op.src[1].wide = true;
  }
  return op;
}

void Executor::setp(WarpState& w, const BlockState& b, const kernel::Instruction& in, uint32_t mask) {
  const CmpOp op = static_cast<CmpOp>(in.mode);
  uint32_t p = 0;
  uint32_t upper = 0;  // setp.f16x2 p|q: q compares the upper halves
  const bool pair = in.type == DataType::F16X2 || in.type == DataType::BF16X2;
  // 32-bit operands are compared in place, without a widened copy.
  const bool narrow = in.type == DataType::S32 || in.type == DataType::U32 || in.type == DataType::B32 ||
                      in.type == DataType::F32;
  uint32_t scratch_a[kWarpSize], scratch_b[kWarpSize];
  const uint32_t* na = narrow ? narrow_view(w, in.src[0], mask, scratch_a) : nullptr;
  const uint32_t* nb = na ? narrow_view(w, in.src[1], mask, scratch_b) : nullptr;
  if (nb) {
    if (in.type == DataType::F32) {
      p = compare_f32(op, in.ftz, mask, na, nb);
    } else if (in.type == DataType::S32) {
      p = compare_as<int32_t>(op, mask, na, nb);
    } else {
      p = compare_lanes(op, mask, na, nb);
    }
  } else {
    uint64_t va[kWarpSize], vb[kWarpSize];
    gather(w, b, in.src[0], mask, va);
    gather(w, b, in.src[1], mask, vb);
    if (is_half_type(in.type)) {
      const SmallFloatFormat format = format_of(in.type);
      // .ftz (f16 and f16x2): subnormal operands compare as zeros of their sign.
      const auto half = [&](uint64_t v, int h) {
        return decode_operand(static_cast<uint32_t>(v >> (16 * h) & 0xFFFF), format, in.ftz);
      };
      double fa[kWarpSize] = {}, fb[kWarpSize] = {};
      for_each_lane(mask, [&](uint32_t l) { fa[l] = half(va[l], 0), fb[l] = half(vb[l], 0); });
      p = compare_lanes(op, mask, fa, fb);
      if (pair) {
        for_each_lane(mask, [&](uint32_t l) { fa[l] = half(va[l], 1), fb[l] = half(vb[l], 1); });
        upper = compare_lanes(op, mask, fa, fb);
      }
    } else if (in.type == DataType::F32 || in.type == DataType::F64) {
      double fa[kWarpSize], fb[kWarpSize];
      uint32_t sa[kWarpSize], sb[kWarpSize];  // f32 bits, compared as floats
      if (in.type == DataType::F32) {
        for_each_lane(mask, [&](uint32_t l) {
          sa[l] = static_cast<uint32_t>(va[l]), sb[l] = static_cast<uint32_t>(vb[l]);
        });
        p = compare_f32(op, in.ftz, mask, sa, sb);
      } else {
        for_each_lane(mask, [&](uint32_t l) { fa[l] = as_f64(va[l]), fb[l] = as_f64(vb[l]); });
        p = compare_lanes(op, mask, fa, fb);
      }
    } else if (kernel::is_signed(in.type)) {
      int64_t ia[kWarpSize], ib[kWarpSize];
      for_each_lane(mask, [&](uint32_t l) { ia[l] = as_int(va[l], in.type), ib[l] = as_int(vb[l], in.type); });
      p = compare_lanes(op, mask, ia, ib);
    } else {
      const int bits = kernel::type_bits(in.type);
      uint64_t ua[kWarpSize], ub[kWarpSize];
      for_each_lane(mask, [&](uint32_t l) { ua[l] = low_bits(va[l], bits), ub[l] = low_bits(vb[l], bits); });
      p = compare_lanes(op, mask, ua, ub);
    }
  }
  uint32_t q = pair ? upper : ~p & mask;
  if (in.bool_op != kernel::BoolOp::None) {
    uint64_t vc[kWarpSize];
    gather(w, b, in.src[2], mask, vc);
    uint32_t c = 0;
    for_each_lane(mask, [&](uint32_t l) { c |= static_cast<uint32_t>(vc[l] & 1u) << l; });
    const auto combine = [&](uint32_t x) {
      switch (in.bool_op) {
        case kernel::BoolOp::And: return x & c;
        case kernel::BoolOp::Or: return (x | c) & mask;
        default: return (x ^ c) & mask;
      }
    };
    p = combine(p);
    q = combine(q);
  }
  write_predicate(w, in.dst.reg, mask, p);
  if (in.dst2.kind == kernel::Operand::Kind::Reg) write_predicate(w, in.dst2.reg, mask, q);
}

namespace {

// Each lane's bit of `holds`, 0 or 1, in one loop that vectorises: tested against
// util::kLaneBit, as baseline x86-64 (SSE2) has no shift by a variable; with AVX2 eight
// lanes at a time.
__attribute__((target_clones("avx2", "default"))) void unpack_predicate(uint32_t holds, uint32_t* dst) {
  for (uint32_t l = 0; l < kWarpSize; ++l) dst[l] = (holds & util::kLaneBit[l]) != 0;
}

}  // namespace

void Executor::write_predicate(WarpState& w, uint32_t reg, uint32_t mask, uint32_t holds) const {
  const size_t base = size_t{slots_.slot[reg]} * kWarpSize;
  if (mask == 0xFFFFFFFFu && !program_.reg_wide[reg]) {  // the common case: a full warp at once
    unpack_predicate(holds, &w.narrow[base]);
    w.defined[reg] |= mask;
    return;
  }
  uint8_t flags[kWarpSize];
  util::unpack_lanes(holds, flags);
  if (program_.reg_wide[reg]) {
    uint64_t* dst = &w.wide[base];
    for_each_lane(mask, [dst, &flags](uint32_t l) { dst[l] = flags[l]; });
  } else {
    uint32_t* dst = &w.narrow[base];
    for_each_lane(mask, [dst, &flags](uint32_t l) { dst[l] = flags[l]; });
  }
  w.defined[reg] |= mask;
}

}  // namespace gpusim::exec
