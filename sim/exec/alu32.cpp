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
#include "exec/lane32.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::MulMode;
using kernel::Opcode;

namespace {

// Every lane, active or not: the operations here cannot fault, and only the lanes executed
// are written back. One function per operation, picked when the program is decoded.
template <typename Fn>
void int_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = Fn{}(a[l], b[l], c[l]);
}
template <typename Fn>
void float_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint32_t>(Fn{}(std::bit_cast<float>(a[l]), std::bit_cast<float>(b[l]), std::bit_cast<float>(c[l])));
}
// Predicate logic: the integer operation's result, as a predicate (0 or 1).
template <typename Fn>
void predicate_lanes32(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* out) {
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
      if (op == Opcode::Min)
        return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) {
          return static_cast<uint32_t>(std::min(as_signed(x), as_signed(y)));
        })
                         : k([](uint32_t x, uint32_t y, uint32_t) { return std::min(x, y); });
      return is_signed ? k([](uint32_t x, uint32_t y, uint32_t) {
        return static_cast<uint32_t>(std::max(as_signed(x), as_signed(y)));
      })
                       : k([](uint32_t x, uint32_t y, uint32_t) { return std::max(x, y); });
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
    default: return nullptr;
  }
}

// The lane loop of `in`, or null where the general path (alu.cpp) must run it: other types,
// .sat, .ftz, carries, or a destination that is not a 32-bit register.
LaneKernel lane32_kernel(const kernel::Program& program, const kernel::Instruction& in) {
  const DataType t = in.type;
  const bool integer = t == DataType::B32 || t == DataType::U32 || t == DataType::S32;
  const bool pred_logic = t == DataType::Pred && (in.op == Opcode::And || in.op == Opcode::Or ||
                                                  in.op == Opcode::Xor || in.op == Opcode::Not);
  if (!(integer || t == DataType::F32 || pred_logic) || in.carry || in.sat || in.ftz || in.num_src > 3) return nullptr;
  if (in.dst.kind != kernel::Operand::Kind::Reg || program.reg_wide[in.dst.reg]) return nullptr;
  if (in.op == Opcode::Selp)
    return int_kernel_of([](uint32_t x, uint32_t y, uint32_t p) { return p & 1u ? x : y; });
  if (t == DataType::F32) return float_kernel(in.op);
  return integer_kernel(in.op, static_cast<MulMode>(in.mode), kernel::is_signed(t), pred_logic);
}

}  // namespace

Lane32Table::Lane32Table(const kernel::Program& program, const kernel::RegisterSlots& slots)
    : ops(program.code.size()), immediates(kWarpSize, 0) {
  for (size_t pc = 0; pc < program.code.size(); ++pc) {
    const kernel::Instruction& in = program.code[pc];
    Lane32Op op;
    op.kernel = lane32_kernel(program, in);
    if (!op.kernel) continue;
    // Each source in place: a 32-bit register not negated, or an immediate (not frame-relative).
    for (int i = 0; i < in.num_src && op.kernel; ++i) {
      const kernel::Operand& o = in.src[i];
      if (o.kind == kernel::Operand::Kind::Reg && !o.negate && !program.reg_wide[o.reg]) {
        op.src[static_cast<size_t>(i)] = {o.reg, slots.slot[o.reg] * kWarpSize};
      } else if (o.kind == kernel::Operand::Kind::Imm && !o.frame) {
        op.src[static_cast<size_t>(i)].base = static_cast<uint32_t>(immediates.size());
        immediates.insert(immediates.end(), kWarpSize, static_cast<uint32_t>(o.imm));
      } else {
        op.kernel = nullptr;
      }
    }
    if (!op.kernel) continue;
    op.dst = in.dst.reg;
    op.dst_base = slots.slot[in.dst.reg] * kWarpSize;
    ops[pc] = op;
  }
}

bool Executor::alu32(WarpState& w, const Instruction& in, uint32_t mask) {
  const Lane32Op& op = lane32_.ops[static_cast<size_t>(&in - program_.code.data())];
  if (!op.kernel) return false;
  const uint32_t* src[3];
  for (size_t i = 0; i < 3; ++i) {
    const Lane32Op::Source& s = op.src[i];
    if (s.reg == kernel::kNoReg) {
      src[i] = &lane32_.immediates[s.base];
    } else {
      if (mask & ~w.defined[s.reg]) return false;  // a lane reads a register it never wrote: gather() gives 0
      src[i] = &w.narrow[s.base];
    }
  }
  uint32_t out[kWarpSize];
  op.kernel(src[0], src[1], src[2], out);
  uint32_t* dst = &w.narrow[op.dst_base];
  if (mask == 0xFFFFFFFFu) std::memcpy(dst, out, sizeof(out));
  else for_each_lane(mask, [&](uint32_t lane) { dst[lane] = out[lane]; });
  w.defined[op.dst] |= mask;
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
    // The signed product from the unsigned one (which SSE2 multiplies two lanes at a time):
    // a = ua - 2^32 [a < 0], so a b = ua ub - 2^32 (ub [a < 0] + ua [b < 0]) mod 2^64.
    if (t == DataType::S32)
      for (int l = 0; l < kWarpSize; ++l) {
        const uint32_t a_negative = static_cast<uint32_t>(static_cast<int32_t>(a[l]) >> 31);
        const uint32_t b_negative = static_cast<uint32_t>(static_cast<int32_t>(b[l]) >> 31);
        const uint32_t high = (a_negative & b[l]) + (b_negative & a[l]);
        out[l] = uint64_t{a[l]} * b[l] - (uint64_t{high} << 32);
      }
    else
      for (int l = 0; l < kWarpSize; ++l) out[l] = uint64_t{a[l]} * b[l];
    if (c)
      for (int l = 0; l < kWarpSize; ++l) out[l] += c[l];
  }
  scatter(w, in.dst.reg, mask, out);
  return true;
}

}  // namespace gpusim::exec
