// Arithmetic, logic, comparison, conversion and move semantics.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/directed_rounding.hpp"
#include "exec/executor.hpp"
#include "exec/small_float.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::CmpOp;
using kernel::DataType;
using kernel::MulMode;
using kernel::Opcode;
using kernel::Operand;

namespace {

uint64_t bit_reverse(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((v >> i) & 1u) << (bits - 1 - i);
  return r;
}

// Applies fn to every lane of mask: one instantiation per operation, so the opcode
// switch runs once per warp instruction, not once per lane.
template <typename F, typename Fn>
void float_lanes(uint32_t mask, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out, bool ftz,
                 bool sat, Fn fn) {
  for_each_lane(mask, [&](uint32_t l) {
    F x, y, z;
    if constexpr (sizeof(F) == 4) {
      x = as_f32(a[l]), y = as_f32(b[l]), z = as_f32(c[l]);
      if (ftz) x = flush_f32(x), y = flush_f32(y), z = flush_f32(z);
    } else {
      x = as_f64(a[l]), y = as_f64(b[l]), z = as_f64(c[l]);
    }
    F v = fn(x, y, z);
    if constexpr (sizeof(F) == 4) {
      if (ftz) v = flush_f32(v);
    }
    if (sat) v = std::isnan(v) ? F(0) : std::clamp(v, F(0), F(1));
    if constexpr (sizeof(F) == 4) out[l] = from_f32(v);
    else out[l] = from_f64(v);
  });
}

template <typename Fn>
void int_lanes(uint32_t mask, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out, Fn fn) {
  for_each_lane(mask, [&](uint32_t l) { out[l] = fn(a[l], b[l], c[l]); });
}

template <typename F>
bool float_alu(Opcode op, uint32_t mask, const uint64_t* a, const uint64_t* b, const uint64_t* c, uint64_t* out,
               bool ftz, bool sat, kernel::Rounding rounding) {
  const auto run = [&](auto fn) { float_lanes<F>(mask, a, b, c, out, ftz, sat, fn); };
  if (is_directed(rounding) && takes_rounding(op)) {  // .rz, .rm, .rp: rare, at the host's mode for them
    run([op, rounding](F x, F y, F z) { return round_directed(op, x, y, z, rounding); });
    return true;
  }
  switch (op) {
    case Opcode::Add: run([](F x, F y, F) { return x + y; }); return true;
    case Opcode::Sub: run([](F x, F y, F) { return x - y; }); return true;
    case Opcode::Mul: run([](F x, F y, F) { return x * y; }); return true;
    case Opcode::Mad:
    case Opcode::Fma: run([](F x, F y, F z) { return std::fma(x, y, z); }); return true;
    case Opcode::Div: run([](F x, F y, F) { return x / y; }); return true;
    case Opcode::Min: run([](F x, F y, F) { return ptx_min(x, y); }); return true;
    case Opcode::Max: run([](F x, F y, F) { return ptx_max(x, y); }); return true;
    case Opcode::Abs: run([](F x, F, F) { return std::fabs(x); }); return true;
    case Opcode::Neg: run([](F x, F, F) { return -x; }); return true;
    case Opcode::Sqrt: run([](F x, F, F) { return std::sqrt(x); }); return true;
    case Opcode::Rsqrt: run([](F x, F, F) { return F(1) / std::sqrt(x); }); return true;
    case Opcode::Rcp: run([](F x, F, F) { return F(1) / x; }); return true;
    case Opcode::Ex2: run([](F x, F, F) { return std::exp2(x); }); return true;
    case Opcode::Lg2: run([](F x, F, F) { return std::log2(x); }); return true;
    case Opcode::Sin: run([](F x, F, F) { return std::sin(x); }); return true;
    case Opcode::Cos: run([](F x, F, F) { return std::cos(x); }); return true;
    case Opcode::Copysign: run([](F x, F y, F) { return std::copysign(y, x); }); return true;
    default: return false;
  }
}

}  // namespace

// Extended-precision arithmetic: add.cc/addc, sub.cc/subc (the flag is the borrow),
// mad.lo.cc/madc; the carry is a per-lane condition code.
void Executor::carry_chain(WarpState& w, const Instruction& in, uint32_t mask, const uint64_t* ra, const uint64_t* rb,
                           const uint64_t* rc) {
  const int bits = kernel::type_bits(in.type);
  const auto ux = [bits](uint64_t v) { return low_bits(v, bits); };
  const bool hi = static_cast<MulMode>(in.mode) == MulMode::Hi;
  uint64_t out[kWarpSize];
  uint32_t flags = w.carry_flag;
  for_each_lane(mask, [&](uint32_t l) {
    const unsigned __int128 cin = (in.carry & kernel::kCarryIn) ? (w.carry_flag >> l & 1u) : 0;
    unsigned __int128 wide = 0;
    bool carry = false;
    if (in.op == Opcode::Sub) {
      const unsigned __int128 take = static_cast<unsigned __int128>(ux(rb[l])) + cin;
      wide = static_cast<unsigned __int128>(ux(ra[l])) - take;
      carry = take > ux(ra[l]);  // borrow
    } else {
      unsigned __int128 x = ux(ra[l]), y = ux(rb[l]);
      if (in.op == Opcode::Mad) {
        unsigned __int128 p = x * y;
        if (hi && kernel::is_signed(in.type))
          p = static_cast<unsigned __int128>(static_cast<__int128>(sign_extend(ra[l], bits)) * sign_extend(rb[l], bits));
        x = ux(static_cast<uint64_t>(hi ? p >> bits : p));
        y = ux(rc[l]);
      }
      wide = x + y + cin;
      carry = (wide >> bits) != 0;
    }
    out[l] = ux(static_cast<uint64_t>(wide));
    if (in.carry & kernel::kCarryOut) flags = (flags & ~(1u << l)) | (uint32_t{carry} << l);
  });
  w.carry_flag = flags;
  scatter(w, in.dst.reg, mask, out);
}

void Executor::alu(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  uint64_t ra[kWarpSize], rb[kWarpSize], rc[kWarpSize], out[kWarpSize];
  if (in.num_src > 0) gather(w, b, in.src[0], mask, ra);
  if (in.num_src > 1) gather(w, b, in.src[1], mask, rb);
  if (in.num_src > 2) gather(w, b, in.src[2], mask, rc);
  const DataType t = in.type;
  const int bits = kernel::type_bits(t);
  const auto unsupported = [&] {
    fault(w, b, static_cast<uint32_t>(std::countr_zero(mask | 1u)),
          std::string(kernel::opcode_name(in.op)) + "." + kernel::type_name(t) + " is not supported");
  };

  if (in.op == Opcode::Prmt) return permute(w, b, in, mask);
  if (in.op == Opcode::Shf) return funnel_shift(w, b, in, mask);
  if (in.op == Opcode::Selp) {  // d = c ? a : b, any type
    int_lanes(mask, ra, rb, rc, out, [bits](uint64_t x, uint64_t y, uint64_t p) { return low_bits(p & 1u ? x : y, bits); });
    scatter(w, in.dst.reg, mask, out);
    return;
  }
  if (is_half_type(t)) return half_alu(w, b, in, mask, ra, rb, rc);
  if (t == DataType::F32 || t == DataType::F64) {
    const bool ok = t == DataType::F32 ? float_alu<float>(in.op, mask, ra, rb, rc, out, in.ftz, in.sat, in.rounding)
                                       : float_alu<double>(in.op, mask, ra, rb, rc, out, false, in.sat, in.rounding);
    if (!ok) unsupported();
    scatter(w, in.dst.reg, mask, out);
    return;
  }
  if (kernel::is_float(t)) unsupported();
  if (in.carry) {
    carry_chain(w, in, mask, ra, rb, rc);
    return;
  }

  const bool is_signed = kernel::is_signed(t);
  const MulMode mul = static_cast<MulMode>(in.mode);
  const auto run = [&](auto fn) { int_lanes(mask, ra, rb, rc, out, fn); };
  const auto sx = [bits](uint64_t v) { return sign_extend(v, bits); };
  const auto ux = [bits](uint64_t v) { return low_bits(v, bits); };
  int out_bits = bits;
  switch (in.op) {
    case Opcode::Add: run([](uint64_t x, uint64_t y, uint64_t) { return x + y; }); break;
    case Opcode::Sub: run([](uint64_t x, uint64_t y, uint64_t) { return x - y; }); break;
    case Opcode::Mul:
    case Opcode::Mad: {
      const bool mad = in.op == Opcode::Mad;
      const int shift = mul == MulMode::Hi ? bits : 0;
      if (mul == MulMode::Wide) out_bits = 2 * bits;
      if (is_signed)
        run([&](uint64_t x, uint64_t y, uint64_t z) {
          const __int128 p = static_cast<__int128>(sx(x)) * sx(y);
          return static_cast<uint64_t>(p >> shift) + (mad ? z : 0);
        });
      else
        run([&](uint64_t x, uint64_t y, uint64_t z) {
          const unsigned __int128 p = static_cast<unsigned __int128>(ux(x)) * ux(y);
          return static_cast<uint64_t>(p >> shift) + (mad ? z : 0);
        });
      break;
    }
    case Opcode::Div:
    case Opcode::Rem: {
      const bool div = in.op == Opcode::Div;
      for_each_lane(mask, [&](uint32_t lane) {
        const uint64_t ua = ux(ra[lane]), ub = ux(rb[lane]);
        if (ub == 0) fault(w, b, lane, std::string("integer ") + (div ? "division" : "remainder") + " by zero");
        if (is_signed) {
          const int64_t sa = sx(ra[lane]), sb = sx(rb[lane]);
          const bool overflow = bits == 64 && sa == std::numeric_limits<int64_t>::min() && sb == -1;
          out[lane] = static_cast<uint64_t>(div ? (overflow ? sa : sa / sb) : (overflow ? 0 : sa % sb));
        } else {
          out[lane] = div ? ua / ub : ua % ub;
        }
      });
      break;
    }
    case Opcode::Min:
      if (is_signed) run([&](uint64_t x, uint64_t y, uint64_t) { return static_cast<uint64_t>(std::min(sx(x), sx(y))); });
      else run([&](uint64_t x, uint64_t y, uint64_t) { return std::min(ux(x), ux(y)); });
      break;
    case Opcode::Max:
      if (is_signed) run([&](uint64_t x, uint64_t y, uint64_t) { return static_cast<uint64_t>(std::max(sx(x), sx(y))); });
      else run([&](uint64_t x, uint64_t y, uint64_t) { return std::max(ux(x), ux(y)); });
      break;
    case Opcode::Abs:
      run([&](uint64_t x, uint64_t, uint64_t) {
        const int64_t v = sx(x);
        return v < 0 ? -static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      });
      break;
    case Opcode::Neg: run([](uint64_t x, uint64_t, uint64_t) { return -x; }); break;
    case Opcode::And: run([](uint64_t x, uint64_t y, uint64_t) { return x & y; }); break;
    case Opcode::Or: run([](uint64_t x, uint64_t y, uint64_t) { return x | y; }); break;
    case Opcode::Xor: run([](uint64_t x, uint64_t y, uint64_t) { return x ^ y; }); break;
    case Opcode::Not: run([](uint64_t x, uint64_t, uint64_t) { return ~x; }); break;
    case Opcode::Cnot: run([&](uint64_t x, uint64_t, uint64_t) { return uint64_t{ux(x) == 0}; }); break;
    case Opcode::Shl:
      run([&](uint64_t x, uint64_t y, uint64_t) {
        const uint64_t n = low_bits(y, 32);
        return n >= static_cast<uint64_t>(bits) ? 0 : ux(x) << n;
      });
      break;
    case Opcode::Shr:
      if (is_signed)
        run([&](uint64_t x, uint64_t y, uint64_t) {
          return static_cast<uint64_t>(sx(x) >> std::min<uint64_t>(low_bits(y, 32), static_cast<uint64_t>(bits - 1)));
        });
      else
        run([&](uint64_t x, uint64_t y, uint64_t) {
          const uint64_t n = low_bits(y, 32);
          return n >= static_cast<uint64_t>(bits) ? 0 : ux(x) >> n;
        });
      break;
    case Opcode::Popc: out_bits = 32; run([&](uint64_t x, uint64_t, uint64_t) { return static_cast<uint64_t>(std::popcount(ux(x))); }); break;
    case Opcode::Clz:
      out_bits = 32;
      run([&](uint64_t x, uint64_t, uint64_t) { return static_cast<uint64_t>(std::countl_zero(ux(x)) - (64 - bits)); });
      break;
    case Opcode::Brev: run([&](uint64_t x, uint64_t, uint64_t) { return bit_reverse(ux(x), bits); }); break;
    case Opcode::Bfind:  // the most significant non-sign bit; .shiftamt: the shift that brings it to the top
      out_bits = 32;
      run([&](uint64_t x, uint64_t, uint64_t) -> uint64_t {
        uint64_t v = ux(x);
        if (is_signed && (v >> (bits - 1) & 1u)) v = ux(~v);
        if (v == 0) return 0xFFFFFFFFu;
        const int pos = 63 - std::countl_zero(v);
        return static_cast<uint64_t>(in.mode == 1 ? bits - 1 - pos : pos);
      });
      break;
    case Opcode::Bmsk:  // b bits set from position a; .clamp saturates a and b at 32, .wrap takes them mod 32
      run([&](uint64_t x, uint64_t y, uint64_t) -> uint64_t {
        uint64_t pos = x & 0xFFFFFFFFu, width = y & 0xFFFFFFFFu;
        if (in.mode == 1) pos &= 31, width &= 31;
        pos = std::min<uint64_t>(pos, 32), width = std::min<uint64_t>(width, 32);
        const uint64_t ones = (uint64_t{1} << width) - 1;
        return pos >= 32 ? 0 : (ones << pos) & 0xFFFFFFFFu;
      });
      break;
    case Opcode::Bfe:
      run([&](uint64_t x, uint64_t y, uint64_t z) -> uint64_t {
        const uint64_t pos = y & 0xFF, len = z & 0xFF, ua = ux(x);
        if (len == 0) return 0;
        const uint64_t field = pos >= static_cast<uint64_t>(bits) ? 0 : ua >> pos;
        const uint64_t take = std::min<uint64_t>(len, 64);
        uint64_t v = low_bits(field, static_cast<int>(take));
        const uint64_t sign_pos = std::min<uint64_t>(pos + len - 1, static_cast<uint64_t>(bits - 1));
        if (is_signed && ((ua >> sign_pos) & 1u) && take < 64) v |= ~uint64_t{0} << take;
        return v;
      });
      break;
    case Opcode::Bfi: {
      uint64_t rd[kWarpSize];
      gather(w, b, in.src[3], mask, rd);
      for_each_lane(mask, [&](uint32_t l) {
        const uint64_t pos = rc[l] & 0xFF, len = rd[l] & 0xFF;
        uint64_t v = rb[l];
        for (uint64_t i = 0; i < len && pos + i < static_cast<uint64_t>(bits); ++i) {
          const uint64_t bit = uint64_t{1} << (pos + i);
          v = (v & ~bit) | (((ra[l] >> i) & 1u) << (pos + i));
        }
        out[l] = v;
      });
      break;
    }
    default: unsupported();
  }
  if (in.sat && is_signed && (in.op == Opcode::Add || in.op == Opcode::Sub)) {
    const __int128 lo = -(static_cast<__int128>(1) << (bits - 1)), hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
    for_each_lane(mask, [&](uint32_t l) {
      const __int128 exact = in.op == Opcode::Add ? static_cast<__int128>(sx(ra[l])) + sx(rb[l])
                                                  : static_cast<__int128>(sx(ra[l])) - sx(rb[l]);
      out[l] = static_cast<uint64_t>(static_cast<int64_t>(std::clamp(exact, lo, hi)));
    });
  }
  if (t == DataType::Pred) {
    for_each_lane(mask, [&](uint32_t l) { out[l] &= 1u; });
  } else if (out_bits < 64) {
    for_each_lane(mask, [&](uint32_t l) { out[l] = low_bits(out[l], out_bits); });
  }
  scatter(w, in.dst.reg, mask, out);
}

void Executor::move(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const int bits = kernel::type_bits(in.type);
  if (in.src[0].kind == Operand::Kind::Vec) {  // pack: mov.b64 %rd, {%r1, %r2}
    const int part = bits / in.src[0].count;
    for_each_lane(mask, [&](uint32_t lane) {
      uint64_t v = 0;
      for (int i = 0; i < in.src[0].count; ++i) v |= low_bits(read_reg(w, b, in.src[0].regs[i], lane), part) << (part * i);
      write(w, in.dst.reg, lane, v);
    });
    return;
  }
  if (in.dst.kind == Operand::Kind::Vec) {  // unpack: mov.b64 {%r1, %r2}, %rd
    const int part = bits / in.dst.count;
    for_each_lane(mask, [&](uint32_t lane) {
      const uint64_t v = read(w, b, in.src[0], lane);
      for (int i = 0; i < in.dst.count; ++i)
        if (in.dst.regs[i] != kernel::kNoReg) write(w, in.dst.regs[i], lane, low_bits(v >> (part * i), part));
    });
    return;
  }
  // The common case, a whole warp at a time: one gather, one mask, one scatter.
  uint64_t v[kWarpSize];
  gather(w, b, in.src[0], mask, v);
  const uint64_t keep = in.type == DataType::Pred ? 1u : bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  // A 32-bit register keeps a value's low 32 bits anyway: no pass to clear the rest.
  const uint64_t kept = program_.reg_wide[in.dst.reg] ? ~uint64_t{0} : 0xFFFFFFFFu;
  if ((keep & kept) != kept) for_each_lane(mask, [&](uint32_t lane) { v[lane] &= keep; });
  scatter(w, in.dst.reg, mask, v);
}

}  // namespace gpusim::exec
