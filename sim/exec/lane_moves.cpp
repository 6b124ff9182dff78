// mov, cvt and cvta in their common forms, decoded once per program (lane_ops.hpp): copies of
// a register or immediate of the destination's width, a special register into a 32-bit
// register, integer conversions between widths, 32-bit integers to f32 and f64, f32 to
// 32-bit integers, f32 to f64 and back, and cvta outside the shared and local windows (an
// address unchanged). Results are those of move() (alu.cpp) and convert()
// (convert.cpp) bit for bit; every other form goes there.
#include <bit>

#include "exec/executor.hpp"
#include "exec/lane_ops.hpp"
#include "exec/value.hpp"

namespace gpusim::exec {

using kernel::DataType;
using kernel::Opcode;

namespace {

// A value's low bits as the destination's type keeps them (a predicate: its low bit).
template <uint32_t Keep>
void keep_lanes(const uint32_t* a, const uint32_t*, const uint32_t*, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l] & Keep;
}
void copy64(const uint64_t* a, const uint64_t*, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = a[l];
}
// A 32-bit integer to 64 bits: sign-extended from a signed type, else zero-extended.
template <bool Signed>
void extend(const uint32_t* a, const uint32_t*, const uint64_t*, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = Signed ? static_cast<uint64_t>(int64_t{static_cast<int32_t>(a[l])}) : uint64_t{a[l]};
}
// `x`'s low Bits bits, sign-extended from a signed type, zero-extended from any other.
template <int Bits, bool Signed>
constexpr uint32_t extended(uint32_t x) {
  if constexpr (Bits >= 32) {
    return x;
  } else {
    constexpr uint32_t keep = (1u << Bits) - 1, sign = Signed ? 1u << (Bits - 1) : 0u;
    return ((x & keep) ^ sign) - sign;
  }
}
// An integer of up to 32 bits to one of up to 32, as convert() does: the source's bits,
// extended by the source's type, then the destination's, extended by its type (a register
// wider than the type: PTX ISA 9.4.1).
template <int SrcBits, bool SrcSigned, int DstBits, bool DstSigned>
void resize(const uint32_t* a, const uint32_t*, const uint32_t*, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = extended<DstBits, DstSigned>(extended<SrcBits, SrcSigned>(a[l]));
}
// A 64-bit integer to 32 bits or fewer: its low bits (the source's sign changes none of them).
template <int DstBits, bool DstSigned>
void truncate(const uint64_t* a, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) out[l] = extended<DstBits, DstSigned>(static_cast<uint32_t>(a[l]));
}
// An f32 to a 32-bit integer as convert() does (float_to_int): rounded as R says, clamped to
// the type's range, NaN to 0 (from f32 to 32 bits); with `Ftz` (.ftz), a subnormal converts
// as a zero of its sign.
template <kernel::Rounding R, bool Signed, bool Ftz>
void f32_to_int(const uint32_t* a, const uint32_t*, const uint32_t*, uint32_t* out) {
  constexpr DataType kDst = Signed ? DataType::S32 : DataType::U32;
  for (int l = 0; l < kWarpSize; ++l) {
    const float f = std::bit_cast<float>(a[l]);
    out[l] = static_cast<uint32_t>(float_to_int(Ftz ? flush_f32(f) : f, R, kDst, DataType::F32));
  }
}
template <bool Signed, bool Ftz>
LaneKernel f32_to_int_rounded(kernel::Rounding r) {
  using kernel::Rounding;
  switch (r) {
    case Rounding::Rni: return &f32_to_int<Rounding::Rni, Signed, Ftz>;
    case Rounding::Rmi: return &f32_to_int<Rounding::Rmi, Signed, Ftz>;
    case Rounding::Rpi: return &f32_to_int<Rounding::Rpi, Signed, Ftz>;
    default: return &f32_to_int<Rounding::Rzi, Signed, Ftz>;  // float_to_int truncates for any other
  }
}
template <bool Signed>
LaneKernel f32_to_int_kernel(kernel::Rounding r, bool ftz) {
  return ftz ? f32_to_int_rounded<Signed, true>(r) : f32_to_int_rounded<Signed, false>(r);
}
// Between f32 and f64: exact one way, to nearest the other; .ftz flushes the f32 side.
template <bool Ftz>
void f32_to_f64(const uint32_t* a, const uint32_t*, const uint64_t*, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l) {
    const float f = std::bit_cast<float>(a[l]);
    out[l] = std::bit_cast<uint64_t>(static_cast<double>(Ftz ? flush_f32(f) : f));
  }
}
template <bool Ftz>
void f64_to_f32(const uint64_t* a, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l) {
    const auto f = static_cast<float>(std::bit_cast<double>(a[l]));
    out[l] = std::bit_cast<uint32_t>(Ftz ? flush_f32(f) : f);
  }
}
// A 32-bit integer to f64: exact.
template <bool Signed>
void int_to_f64(const uint32_t* a, const uint32_t*, const uint64_t*, uint64_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint64_t>(Signed ? static_cast<double>(static_cast<int32_t>(a[l])) : static_cast<double>(a[l]));
}
// A 32-bit integer to the nearest f32 (.rn), rounded once, as convert() does.
template <bool Signed>
void to_f32(const uint32_t* a, const uint32_t*, const uint32_t*, uint32_t* out) {
  for (int l = 0; l < kWarpSize; ++l)
    out[l] = std::bit_cast<uint32_t>(Signed ? static_cast<float>(static_cast<int32_t>(a[l]))
                                            : static_cast<float>(a[l]));
}

// Make<bits, signed>::get(args...) for an integer type of 8, 16 or 32 bits (null for any other).
template <template <int, bool> class Make, typename... Args>
auto for_type(int bits, bool is_signed, Args... args) -> decltype(Make<32, false>::get(args...)) {
  switch (bits) {
    case 8: return is_signed ? Make<8, true>::get(args...) : Make<8, false>::get(args...);
    case 16: return is_signed ? Make<16, true>::get(args...) : Make<16, false>::get(args...);
    case 32: return Make<32, false>::get(args...);  // all 32 bits: nothing to extend
    default: return nullptr;
  }
}
// The kernels of resize and truncate, by type: for_type<ResizeFrom>(source's, destination's)
// and for_type<TruncateTo>(destination's).
template <int SrcBits, bool SrcSigned>
struct ResizeFrom {
  template <int DstBits, bool DstSigned>
  struct To {
    static LaneKernel get() { return &resize<SrcBits, SrcSigned, DstBits, DstSigned>; }
  };
  static LaneKernel get(int dst_bits, bool dst_signed) { return for_type<To>(dst_bits, dst_signed); }
};
template <int DstBits, bool DstSigned>
struct TruncateTo {
  static NarrowingKernel get() { return &truncate<DstBits, DstSigned>; }
};

LaneKernel keep_kernel(DataType t) {
  switch (kernel::type_bits(t)) {
    case 1: return &keep_lanes<1u>;
    case 8: return &keep_lanes<0xFFu>;
    case 16: return &keep_lanes<0xFFFFu>;
    case 32: return &keep_lanes<0xFFFFFFFFu>;
    default: return nullptr;
  }
}

// A copy into a register of the type's width: 32 bits or fewer in the narrow registers, 64
// in the wide ones.
LaneOp copy(bool wide_dst, DataType t) {
  LaneOp op;
  const int bits = kernel::type_bits(t);
  if (wide_dst && bits == 64) {
    op.form = LaneOp::Form::Wide;
    op.wide = &copy64;
    op.src[0].wide = true;
  } else if (!wide_dst && bits <= 32) {
    op.narrow = keep_kernel(t);
    if (op.narrow) op.form = LaneOp::Form::Narrow;
  }
  return op;
}

// cvt from f32 or f64 (no .sat): to a 32-bit integer, or between f32 and f64 to nearest
// (`nearest`: the instruction rounds so).
LaneOp decode_float_cvt(bool wide_dst, DataType dst, DataType src, bool nearest, const kernel::Instruction& in) {
  LaneOp op;
  if (src == DataType::F32 && !wide_dst && (dst == DataType::S32 || dst == DataType::U32)) {
    op.form = LaneOp::Form::Narrow;
    op.narrow = dst == DataType::S32 ? f32_to_int_kernel<true>(in.rounding, in.ftz)
                                     : f32_to_int_kernel<false>(in.rounding, in.ftz);
  } else if (src == DataType::F32 && dst == DataType::F64 && wide_dst && nearest) {
    op.form = LaneOp::Form::Widening;
    op.widening = in.ftz ? &f32_to_f64<true> : &f32_to_f64<false>;
    op.src[2].wide = true;  // unused: zeros
  } else if (src == DataType::F64 && dst == DataType::F32 && !wide_dst && nearest) {
    op.form = LaneOp::Form::Narrowing;
    op.narrowing = in.ftz ? &f64_to_f32<true> : &f64_to_f32<false>;
    op.src[0].wide = true;
  }
  return op;
}

LaneOp decode_cvt(bool wide_dst, const kernel::Instruction& in) {
  const DataType dst = in.type, src = in.type2 == DataType::None ? in.type : in.type2;
  LaneOp op;
  if (in.sat || in.num_src != 1) return op;
  const bool nearest = in.rounding == kernel::Rounding::None || in.rounding == kernel::Rounding::Rn;
  if (kernel::is_float(src)) return decode_float_cvt(wide_dst, dst, src, nearest, in);
  const int src_bits = kernel::type_bits(src), dst_bits = kernel::type_bits(dst);
  const bool is_signed = kernel::is_signed(src);
  if (dst == DataType::F32 && !wide_dst && src_bits == 32 && nearest) {
    op.form = LaneOp::Form::Narrow;
    op.narrow = is_signed ? &to_f32<true> : &to_f32<false>;
  } else if (dst == DataType::F64 && wide_dst && src_bits == 32 && nearest) {
    op.form = LaneOp::Form::Widening;
    op.widening = is_signed ? &int_to_f64<true> : &int_to_f64<false>;
    op.src[2].wide = true;  // unused: zeros
  } else if (kernel::is_float(dst)) {
    return op;
  } else if (dst_bits == 64 && wide_dst && src_bits == 32) {
    op.form = LaneOp::Form::Widening;
    op.widening = is_signed ? &extend<true> : &extend<false>;
    op.src[2].wide = true;  // unused: zeros
  } else if (dst_bits == src_bits && (dst_bits == 32 || dst_bits == 64)) {
    return copy(wide_dst, dst);
  } else if (!wide_dst && dst_bits <= 32 && src_bits == 64) {
    op.narrowing = for_type<TruncateTo>(dst_bits, kernel::is_signed(dst));
    if (op.narrowing) op.form = LaneOp::Form::Narrowing;
    op.src[0].wide = true;
  } else if (!wide_dst && dst_bits <= 32 && src_bits <= 32) {
    op.narrow = for_type<ResizeFrom>(src_bits, is_signed, dst_bits, kernel::is_signed(dst));
    if (op.narrow) op.form = LaneOp::Form::Narrow;
  }
  return op;
}

}  // namespace

LaneOp decode_move(const kernel::Program& program, const kernel::Instruction& in) {
  if (in.dst.kind != kernel::Operand::Kind::Reg) return {};
  const bool wide_dst = program.reg_wide[in.dst.reg];
  switch (in.op) {
    case Opcode::Mov:
      if (in.src[0].kind == kernel::Operand::Kind::Special) {
        LaneOp op;
        if (wide_dst || kernel::type_bits(in.type) != 32) return op;
        op.form = LaneOp::Form::Special;
        op.special = in.src[0].special;
        return op;
      }
      return copy(wide_dst, in.type);
    case Opcode::Cvt: return decode_cvt(wide_dst, in);
    case Opcode::Cvta:
      // Outside the shared and local windows an address is the same in either view.
      if (in.space == kernel::StateSpace::Shared || in.space == kernel::StateSpace::Local) return {};
      return kernel::type_bits(in.type) >= 32 ? copy(wide_dst, in.type) : LaneOp{};
    default: return {};
  }
}

}  // namespace gpusim::exec
