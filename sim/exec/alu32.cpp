// The most frequent arithmetic - 32-bit integer, f32 and predicate logic - a warp at a
// time on the narrow registers in place: no widening of every operand to 64 bits and back;
// and the 64-bit address arithmetic of indexing code (add/sub of 64-bit integers, mul/mad.wide).
// Results are those of the general path (alu.cpp) bit for bit; whatever this does not
// cover (other types, .sat, .ftz, carries, wide or unwritten operands) goes there.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "exec/executor.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::MulMode;
using kernel::Opcode;

namespace {

// Every lane, active or not: the operations here cannot fault, and only `mask` is written back.
template <typename Fn>
void lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out, Fn fn) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = fn(a[l], b[l], c[l]);
}

template <typename Fn>
void float_lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out, Fn fn) {
  lanes(a, b, c, out, [&](uint32_t x, uint32_t y, uint32_t z) {
    return std::bit_cast<uint32_t>(fn(std::bit_cast<float>(x), std::bit_cast<float>(y), std::bit_cast<float>(z)));
  });
}

bool integer_op(Opcode op, MulMode mul, bool is_signed, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                uint32_t* out) {
  const auto run = [&](auto fn) { lanes(a, b, c, out, fn); };
  switch (op) {
    case Opcode::Add: run([](uint32_t x, uint32_t y, uint32_t) { return x + y; }); return true;
    case Opcode::Sub: run([](uint32_t x, uint32_t y, uint32_t) { return x - y; }); return true;
    case Opcode::Mul:
    case Opcode::Mad: {
      const bool mad = op == Opcode::Mad;
      if (mul == MulMode::Lo) {
        run([mad](uint32_t x, uint32_t y, uint32_t z) { return x * y + (mad ? z : 0u); });
      } else if (mul == MulMode::Hi && is_signed) {
        run([mad](uint32_t x, uint32_t y, uint32_t z) {
          const int64_t p = int64_t{static_cast<int32_t>(x)} * static_cast<int32_t>(y);
          return static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32) + (mad ? z : 0u);
        });
      } else if (mul == MulMode::Hi) {
        run([mad](uint32_t x, uint32_t y, uint32_t z) {
          return static_cast<uint32_t>(uint64_t{x} * y >> 32) + (mad ? z : 0u);
        });
      } else {
        return false;  // .wide writes 64 bits
      }
      return true;
    }
    case Opcode::And: run([](uint32_t x, uint32_t y, uint32_t) { return x & y; }); return true;
    case Opcode::Or: run([](uint32_t x, uint32_t y, uint32_t) { return x | y; }); return true;
    case Opcode::Xor: run([](uint32_t x, uint32_t y, uint32_t) { return x ^ y; }); return true;
    case Opcode::Not: run([](uint32_t x, uint32_t, uint32_t) { return ~x; }); return true;
    case Opcode::Neg: run([](uint32_t x, uint32_t, uint32_t) { return 0u - x; }); return true;
    case Opcode::Shl: run([](uint32_t x, uint32_t n, uint32_t) { return n >= 32 ? 0u : x << n; }); return true;
    case Opcode::Shr:
      if (is_signed)
        run([](uint32_t x, uint32_t n, uint32_t) {
          return static_cast<uint32_t>(static_cast<int32_t>(x) >> std::min(n, 31u));
        });
      else
        run([](uint32_t x, uint32_t n, uint32_t) { return n >= 32 ? 0u : x >> n; });
      return true;
    case Opcode::Min:
    case Opcode::Max: {
      const bool min = op == Opcode::Min;
      if (is_signed)
        run([min](uint32_t x, uint32_t y, uint32_t) {
          const int32_t sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y);
          return static_cast<uint32_t>(min ? std::min(sx, sy) : std::max(sx, sy));
        });
      else
        run([min](uint32_t x, uint32_t y, uint32_t) { return min ? std::min(x, y) : std::max(x, y); });
      return true;
    }
    default: return false;
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

bool float_op(Opcode op, const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  const auto run = [&](auto fn) { float_lanes(a, b, c, out, fn); };
  switch (op) {
    case Opcode::Add: run([](float x, float y, float) { return x + y; }); return true;
    case Opcode::Sub: run([](float x, float y, float) { return x - y; }); return true;
    case Opcode::Mul: run([](float x, float y, float) { return x * y; }); return true;
    case Opcode::Mad:
    case Opcode::Fma: fma_lanes(a, b, c, out); return true;
    case Opcode::Neg: run([](float x, float, float) { return -x; }); return true;
    case Opcode::Abs: run([](float x, float, float) { return std::fabs(x); }); return true;
    case Opcode::Min: run([](float x, float y, float) { return ptx_min(x, y); }); return true;
    case Opcode::Max: run([](float x, float y, float) { return ptx_max(x, y); }); return true;
    default: return false;
  }
}

}  // namespace

bool Executor::alu32(WarpState& w, const Instruction& in, uint32_t mask) {
  const DataType t = in.type;
  const bool integer = t == DataType::B32 || t == DataType::U32 || t == DataType::S32;
  const bool pred_logic = t == DataType::Pred && (in.op == Opcode::And || in.op == Opcode::Or ||
                                                  in.op == Opcode::Xor || in.op == Opcode::Not);
  const bool selp = in.op == Opcode::Selp && (integer || t == DataType::F32);
  if (!(integer || t == DataType::F32 || pred_logic) || in.carry || in.sat || in.ftz || in.num_src > 3) return false;
  if (in.dst.kind != Operand::Kind::Reg || program_.reg_wide[in.dst.reg]) return false;
  static constexpr uint32_t kZeros[kWarpSize] = {};
  uint32_t scratch[3][kWarpSize];
  const uint32_t* src[3] = {kZeros, kZeros, kZeros};
  for (int i = 0; i < in.num_src; ++i)
    if (!(src[i] = narrow_view(w, in.src[i], mask, scratch[i]))) return false;
  uint32_t out[kWarpSize];
  if (selp) {
    lanes(src[0], src[1], src[2], out, [](uint32_t x, uint32_t y, uint32_t p) { return p & 1u ? x : y; });
  } else if (t == DataType::F32) {
    if (!float_op(in.op, src[0], src[1], src[2], out)) return false;
  } else {
    if (!integer_op(in.op, static_cast<MulMode>(in.mode), kernel::is_signed(t), src[0], src[1], src[2], out))
      return false;
    if (pred_logic)
      for (uint32_t& v : out) v &= 1u;
  }
  scatter32(w, in.dst.reg, mask, out);
  return true;
}

bool Executor::alu_wide(WarpState& w, const Instruction& in, uint32_t mask) {
  if (in.dst.kind != Operand::Kind::Reg || !program_.reg_wide[in.dst.reg] || in.carry || in.sat) return false;
  const DataType t = in.type;
  const bool wide_mul = (in.op == Opcode::Mul || in.op == Opcode::Mad) &&
                        static_cast<MulMode>(in.mode) == MulMode::Wide && (t == DataType::S32 || t == DataType::U32);
  const bool add = (in.op == Opcode::Add || in.op == Opcode::Sub) && in.num_src == 2 &&
                   (t == DataType::S64 || t == DataType::U64 || t == DataType::B64);
  if (!wide_mul && !add) return false;
  uint64_t out[kWarpSize];
  if (add) {
    uint64_t scratch[2][kWarpSize];
    const uint64_t* a = wide_view(w, in.src[0], mask, scratch[0]);
    const uint64_t* b = a ? wide_view(w, in.src[1], mask, scratch[1]) : nullptr;
    if (!b) return false;
    if (in.op == Opcode::Add) for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] + b[l];
    else for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] - b[l];
  } else {
    uint32_t scratch[2][kWarpSize];
    uint64_t addend[kWarpSize];
    const uint32_t* a = narrow_view(w, in.src[0], mask, scratch[0]);
    const uint32_t* b = a ? narrow_view(w, in.src[1], mask, scratch[1]) : nullptr;
    const uint64_t* c = in.op == Opcode::Mad && b ? wide_view(w, in.src[2], mask, addend) : nullptr;
    if (!b || (in.op == Opcode::Mad && !c)) return false;
    if (t == DataType::S32)
      for (int l = 0; l < kWarpSize; ++l)
        out[l] = static_cast<uint64_t>(int64_t{static_cast<int32_t>(a[l])} * static_cast<int32_t>(b[l]));
    else
      for (int l = 0; l < kWarpSize; ++l) out[l] = uint64_t{a[l]} * b[l];
    if (c)
      for (int l = 0; l < kWarpSize; ++l) out[l] += c[l];
  }
  scatter(w, in.dst.reg, mask, out);
  return true;
}

}  // namespace gpusim::exec
