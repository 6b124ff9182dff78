// Arithmetic, logic, comparison, conversion and move semantics.
#include <algorithm>
#include <cmath>
#include <limits>

#include "exec/executor.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::CmpOp;
using kernel::DataType;
using kernel::MulMode;
using kernel::Opcode;
using kernel::Operand;
using kernel::Rounding;

namespace {

template <typename F>
F float_op(Opcode op, F a, F b, F c, bool& handled) {
  handled = true;
  switch (op) {
    case Opcode::Add: return a + b;
    case Opcode::Sub: return a - b;
    case Opcode::Mul: return a * b;
    case Opcode::Mad:
    case Opcode::Fma: return std::fma(a, b, c);
    case Opcode::Div: return a / b;
    case Opcode::Min: return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
    case Opcode::Max: return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
    case Opcode::Abs: return std::fabs(a);
    case Opcode::Neg: return -a;
    case Opcode::Sqrt: return std::sqrt(a);
    case Opcode::Rsqrt: return F(1) / std::sqrt(a);
    case Opcode::Rcp: return F(1) / a;
    case Opcode::Ex2: return std::exp2(a);
    case Opcode::Lg2: return std::log2(a);
    case Opcode::Sin: return std::sin(a);
    case Opcode::Cos: return std::cos(a);
    case Opcode::Copysign: return std::copysign(b, a);
    default: handled = false; return F(0);
  }
}

uint64_t bit_reverse(uint64_t v, int bits) {
  uint64_t r = 0;
  for (int i = 0; i < bits; ++i) r |= ((v >> i) & 1u) << (bits - 1 - i);
  return r;
}

template <typename F>
bool compare(CmpOp op, F a, F b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  switch (op) {
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

bool compare_int(CmpOp op, uint64_t a, uint64_t b, DataType t) {
  const int64_t sa = as_int(a, t), sb = as_int(b, t);
  const int bits = kernel::type_bits(t);
  const uint64_t ua = low_bits(a, bits), ub = low_bits(b, bits);
  const bool is_signed = kernel::is_signed(t);
  switch (op) {
    case CmpOp::Eq: return ua == ub;
    case CmpOp::Ne: return ua != ub;
    case CmpOp::Lt: return is_signed ? sa < sb : ua < ub;
    case CmpOp::Le: return is_signed ? sa <= sb : ua <= ub;
    case CmpOp::Gt: return is_signed ? sa > sb : ua > ub;
    case CmpOp::Ge: return is_signed ? sa >= sb : ua >= ub;
    case CmpOp::Lo: return ua < ub;
    case CmpOp::Ls: return ua <= ub;
    case CmpOp::Hi: return ua > ub;
    case CmpOp::Hs: return ua >= ub;
    default: return false;
  }
}

// Float to integer with the instruction's rounding, clamped to the destination range.
uint64_t float_to_int(double v, Rounding r, DataType dst) {
  if (std::isnan(v)) return 0;
  switch (r) {
    case Rounding::Rni: v = std::nearbyint(v); break;
    case Rounding::Rmi: v = std::floor(v); break;
    case Rounding::Rpi: v = std::ceil(v); break;
    default: v = std::trunc(v); break;
  }
  const int bits = kernel::type_bits(dst);
  if (kernel::is_signed(dst)) {
    const double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1) - 1;
    const double c = std::clamp(v, lo, hi);
    return low_bits(static_cast<uint64_t>(c == std::ldexp(1.0, 63) ? std::numeric_limits<int64_t>::max()
                                                                    : static_cast<int64_t>(c)),
                    bits);
  }
  const double hi = std::ldexp(1.0, bits) - 1;
  const double c = std::clamp(v, 0.0, hi);
  return c >= std::ldexp(1.0, 64) - 1 ? ~uint64_t{0} : low_bits(static_cast<uint64_t>(c), bits);
}

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

void Executor::alu(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const DataType t = in.type;
  const int bits = kernel::type_bits(t);
  const uint32_t d = in.dst.reg;
  if (in.op == Opcode::Selp) {  // d = c ? a : b, any type
    for_each_lane(mask, [&](uint32_t lane) {
      const bool c = read(w, b, in.src[2], lane) & 1u;
      write(w, d, lane, low_bits(read(w, b, in.src[c ? 0 : 1], lane), bits));
    });
    return;
  }
  if (kernel::is_float(t)) {
    for_each_lane(mask, [&](uint32_t lane) {
      const uint64_t ra = in.num_src > 0 ? read(w, b, in.src[0], lane) : 0;
      const uint64_t rb = in.num_src > 1 ? read(w, b, in.src[1], lane) : 0;
      const uint64_t rc = in.num_src > 2 ? read(w, b, in.src[2], lane) : 0;
      bool ok = false;
      uint64_t out;
      if (t == DataType::F32) {
        float a = as_f32(ra), bb = as_f32(rb), c = as_f32(rc);
        if (in.ftz) a = flush_f32(a), bb = flush_f32(bb), c = flush_f32(c);
        float v = float_op<float>(in.op, a, bb, c, ok);
        if (in.ftz) v = flush_f32(v);
        if (in.sat) v = std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 1.0f);
        out = from_f32(v);
      } else {
        double v = float_op<double>(in.op, as_f64(ra), as_f64(rb), as_f64(rc), ok);
        if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
        out = from_f64(v);
      }
      if (!ok) fault(w, b, lane, std::string(kernel::opcode_name(in.op)) + "." + kernel::type_name(t) + " is not supported");
      write(w, d, lane, out);
    });
    return;
  }

  const bool is_signed = kernel::is_signed(t);
  const MulMode mul = static_cast<MulMode>(in.mode);
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t ra = in.num_src > 0 ? read(w, b, in.src[0], lane) : 0;
    const uint64_t rb = in.num_src > 1 ? read(w, b, in.src[1], lane) : 0;
    const uint64_t rc = in.num_src > 2 ? read(w, b, in.src[2], lane) : 0;
    const int64_t sa = as_int(ra, t), sb = as_int(rb, t);
    const uint64_t ua = low_bits(ra, bits), ub = low_bits(rb, bits);
    uint64_t out = 0;
    int out_bits = bits;
    switch (in.op) {
      case Opcode::Add: out = ua + ub; break;
      case Opcode::Sub: out = ua - ub; break;
      case Opcode::Mul:
      case Opcode::Mad: {
        const __int128 p = is_signed ? static_cast<__int128>(sa) * sb
                                     : static_cast<__int128>(static_cast<unsigned __int128>(ua) * ub);
        if (mul == MulMode::Wide) {
          out_bits = 2 * bits;
          out = static_cast<uint64_t>(p);
        } else if (mul == MulMode::Hi) {
          out = static_cast<uint64_t>(p >> bits);
        } else {
          out = static_cast<uint64_t>(p);
        }
        if (in.op == Opcode::Mad) out += rc;
        break;
      }
      case Opcode::Div:
      case Opcode::Rem: {
        if (ub == 0) fault(w, b, lane, std::string("integer ") + (in.op == Opcode::Div ? "division" : "remainder") + " by zero");
        if (is_signed) {
          const bool overflow = bits == 64 && sa == std::numeric_limits<int64_t>::min() && sb == -1;
          out = static_cast<uint64_t>(in.op == Opcode::Div ? (overflow ? sa : sa / sb) : (overflow ? 0 : sa % sb));
        } else {
          out = in.op == Opcode::Div ? ua / ub : ua % ub;
        }
        break;
      }
      case Opcode::Min: out = is_signed ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(ua, ub); break;
      case Opcode::Max: out = is_signed ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(ua, ub); break;
      case Opcode::Abs: out = static_cast<uint64_t>(sa < 0 ? -static_cast<uint64_t>(sa) : static_cast<uint64_t>(sa)); break;
      case Opcode::Neg: out = -ua; break;
      case Opcode::And: out = ra & rb; break;
      case Opcode::Or: out = ra | rb; break;
      case Opcode::Xor: out = ra ^ rb; break;
      case Opcode::Not: out = t == DataType::Pred ? (~ra & 1u) : ~ra; break;
      case Opcode::Cnot: out = ua == 0 ? 1 : 0; break;
      case Opcode::Shl: {
        const uint64_t n = low_bits(rb, 32);
        out = n >= static_cast<uint64_t>(bits) ? 0 : ua << n;
        break;
      }
      case Opcode::Shr: {
        const uint64_t n = low_bits(rb, 32);
        if (is_signed) out = static_cast<uint64_t>(sa >> std::min<uint64_t>(n, static_cast<uint64_t>(bits - 1)));
        else out = n >= static_cast<uint64_t>(bits) ? 0 : ua >> n;
        break;
      }
      case Opcode::Popc: out = static_cast<uint64_t>(std::popcount(ua)); out_bits = 32; break;
      case Opcode::Clz: out = static_cast<uint64_t>(std::countl_zero(ua) - (64 - bits)); out_bits = 32; break;
      case Opcode::Brev: out = bit_reverse(ua, bits); break;
      case Opcode::Bfe: {
        const uint64_t pos = rb & 0xFF, len = rc & 0xFF;
        if (len == 0) { out = 0; break; }
        const uint64_t field = pos >= static_cast<uint64_t>(bits) ? 0 : ua >> pos;
        const uint64_t take = std::min<uint64_t>(len, 64);
        out = low_bits(field, static_cast<int>(take));
        const bool sign = is_signed && (pos + len - 1 < static_cast<uint64_t>(bits) ? (ua >> (pos + len - 1)) & 1u
                                                                                     : (ua >> (bits - 1)) & 1u);
        if (sign && take < 64) out |= ~uint64_t{0} << take;
        break;
      }
      case Opcode::Bfi: {
        const uint64_t rd = read(w, b, in.src[3], lane);
        const uint64_t pos = rc & 0xFF, len = rd & 0xFF;
        out = ub;
        for (uint64_t i = 0; i < len && pos + i < static_cast<uint64_t>(bits); ++i) {
          const uint64_t bit = uint64_t{1} << (pos + i);
          out = (out & ~bit) | (((ra >> i) & 1u) << (pos + i));
        }
        break;
      }
      default:
        fault(w, b, lane, std::string(kernel::opcode_name(in.op)) + "." + kernel::type_name(t) + " is not supported");
    }
    if (in.sat && is_signed && (in.op == Opcode::Add || in.op == Opcode::Sub)) {
      const __int128 exact = in.op == Opcode::Add ? static_cast<__int128>(sa) + sb : static_cast<__int128>(sa) - sb;
      const __int128 lo = -(static_cast<__int128>(1) << (bits - 1)), hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
      out = static_cast<uint64_t>(static_cast<int64_t>(std::clamp(exact, lo, hi)));
    }
    write(w, d, lane, t == DataType::Pred ? (out & 1u) : low_bits(out, out_bits));
  });
}

void Executor::setp(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const CmpOp op = static_cast<CmpOp>(in.mode);
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t ra = read(w, b, in.src[0], lane), rb = read(w, b, in.src[1], lane);
    bool p;
    if (in.type == DataType::F32) p = compare<float>(op, as_f32(ra), as_f32(rb));
    else if (in.type == DataType::F64) p = compare<double>(op, as_f64(ra), as_f64(rb));
    else p = compare_int(op, ra, rb, in.type);
    bool q = !p;
    if (in.bool_op != kernel::BoolOp::None) {
      const bool c = read(w, b, in.src[2], lane) & 1u;
      const auto combine = [&](bool x) {
        return in.bool_op == kernel::BoolOp::And ? (x && c) : in.bool_op == kernel::BoolOp::Or ? (x || c) : (x != c);
      };
      p = combine(p);
      q = combine(q);
    }
    write(w, in.dst.reg, lane, p);
    if (in.dst2.kind == Operand::Kind::Reg) write(w, in.dst2.reg, lane, q);
  });
}

void Executor::convert(WarpState& w, const BlockState& b, const Instruction& in, uint32_t mask) {
  const DataType dst = in.type;
  const int bits = kernel::type_bits(dst);
  if (in.op == Opcode::Cvta) {
    // mode 1: cvta.to.SPACE (generic -> space); mode 0: cvta.SPACE (space -> generic).
    const uint64_t window = in.space == kernel::StateSpace::Shared  ? kernel::kSharedWindow
                            : in.space == kernel::StateSpace::Local ? kernel::kLocalWindow
                                                                    : 0;
    for_each_lane(mask, [&](uint32_t lane) {
      const uint64_t a = read(w, b, in.src[0], lane);
      write(w, in.dst.reg, lane, low_bits(in.mode == 1 ? a - window : a + window, bits));
    });
    return;
  }
  const DataType src = in.type2 == DataType::None ? dst : in.type2;
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t a = read(w, b, in.src[0], lane);
    uint64_t out;
    if (kernel::is_float(src) && kernel::is_float(dst)) {
      double v = src == DataType::F32 ? double{as_f32(a)} : as_f64(a);
      if (in.ftz && src == DataType::F32) v = flush_f32(static_cast<float>(v));
      v = round_float(v, in.rounding);
      if (in.sat) v = std::isnan(v) ? 0.0 : std::clamp(v, 0.0, 1.0);
      out = dst == DataType::F32 ? from_f32(in.ftz ? flush_f32(static_cast<float>(v)) : static_cast<float>(v))
                                 : from_f64(v);
    } else if (kernel::is_float(src)) {
      out = float_to_int(src == DataType::F32 ? double{as_f32(a)} : as_f64(a), in.rounding, dst);
    } else if (kernel::is_float(dst)) {
      const int64_t s = as_int(a, src);
      const bool from_signed = kernel::is_signed(src);
      double v = from_signed ? static_cast<double>(s) : static_cast<double>(static_cast<uint64_t>(s));
      if (dst == DataType::F32) {
        // Round once, directly to float, as the hardware does.
        const float f = from_signed ? static_cast<float>(s) : static_cast<float>(static_cast<uint64_t>(s));
        out = from_f32(in.sat ? std::clamp(f, 0.0f, 1.0f) : f);
      } else {
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
      out = low_bits(static_cast<uint64_t>(v), bits);
    }
    write(w, in.dst.reg, lane, out);
  });
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
  for_each_lane(mask, [&](uint32_t lane) {
    const uint64_t v = read(w, b, in.src[0], lane);
    write(w, in.dst.reg, lane, in.type == DataType::Pred ? (v & 1u) : low_bits(v, bits));
  });
}

}  // namespace gpusim::exec
