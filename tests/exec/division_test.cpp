// Division a warp at a time (decoded once per program, exec/lane_ops.hpp). Integer division
// and remainder against values worked out here in 64- and 128-bit arithmetic: every width
// and sign, the signed minimum over -1, lanes a guard leaves out dividing by zero, and the
// fault of an executed lane that divides by zero. f32 division, reciprocal and square roots
// against the host's IEEE operations, which round exactly as PTX's .rn does.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

// x = t * 0x9E3779B1 over t + 1 (unsigned); s (x, or the signed minimum at t 19) over
// d = (t - 20) | 1 (odd, -1 at t 18 and 19); s over t - 16 where a guard leaves t 16 out
// (%r14 keeps 7 there); then the 64-bit forms: s << 32 over d (the signed minimum over -1
// at t 19), and x << 29 over t + 1. out[t] folds the parts in order.
TEST(WarpFastPaths, DecodedDivisionAndRemainderOfEveryWidthAndSign) {
  const std::string body = R"(
  mul.lo.u32 %r5, %r1, -1640531535;
  add.u32 %r6, %r1, 1;
  div.u32 %r7, %r5, %r6;
  rem.u32 %r8, %r5, %r6;
  sub.s32 %r9, %r1, 20;
  or.b32 %r9, %r9, 1;
  setp.eq.u32 %p1, %r1, 19;
  selp.b32 %r10, -2147483648, %r5, %p1;
  div.s32 %r11, %r10, %r9;
  rem.s32 %r12, %r10, %r9;
  sub.s32 %r13, %r1, 16;
  mov.u32 %r14, 7;
  setp.ne.u32 %p2, %r1, 16;
  @%p2 div.s32 %r14, %r10, %r13;
  cvt.s64.s32 %rd4, %r10;
  shl.b64 %rd4, %rd4, 32;
  cvt.s64.s32 %rd5, %r9;
  div.s64 %rd6, %rd4, %rd5;
  rem.s64 %rd7, %rd4, %rd5;
  xor.b64 %rd6, %rd6, %rd7;
  cvt.u64.u32 %rd5, %r6;
  cvt.u64.u32 %rd7, %r5;
  shl.b64 %rd7, %rd7, 29;
  div.u64 %rd4, %rd7, %rd5;
  rem.u64 %rd7, %rd7, %rd5;
  xor.b64 %rd4, %rd4, %rd7;
  xor.b64 %rd4, %rd4, %rd6;
  shr.u64 %rd5, %rd4, 32;
  cvt.u32.u64 %r15, %rd5;
  cvt.u32.u64 %r0, %rd4;
  xor.b32 %r15, %r15, %r0;
  add.u32 %r7, %r7, %r8;
  xor.b32 %r7, %r7, %r11;
  add.u32 %r7, %r7, %r12;
  xor.b32 %r7, %r7, %r14;
  add.u32 %r7, %r7, %r15;
  st.global.u32 [%rd3], %r7;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint32_t x = t * 0x9E3779B1u, u = t + 1;
    const int64_t d = (static_cast<int64_t>(t) - 20) | 1;
    const int64_t s = t == 19 ? std::numeric_limits<int32_t>::min() : static_cast<int32_t>(x);
    // In 64 bits the signed minimum over -1 is 2^31, whose low word is the minimum again.
    const auto quotient = static_cast<uint32_t>(s / d), remainder = static_cast<uint32_t>(s % d);
    const uint32_t guarded = t == 16 ? 7u : static_cast<uint32_t>(s / (static_cast<int64_t>(t) - 16));
    // 64 bits: in 128, where the signed minimum over -1 is 2^63, whose low 64 bits wrap to it.
    const __int128 wide = static_cast<__int128>(static_cast<int64_t>(static_cast<uint64_t>(s) << 32));
    const uint64_t signed_part = static_cast<uint64_t>(wide / d) ^ static_cast<uint64_t>(wide % d);
    const uint64_t big = uint64_t{x} << 29;
    const uint64_t folded = (big / u) ^ (big % u) ^ signed_part;
    const uint32_t wide_parts = static_cast<uint32_t>(folded >> 32) ^ static_cast<uint32_t>(folded);
    return ((((x / u + x % u) ^ quotient) + remainder) ^ guarded) + wide_parts;
  });
}

// Folds %r7 to %r15 but %r13 into out[t]: ((((((r7 + r8) ^ r9) + r10) ^ r11) + r12) ^ r14) + r15.
constexpr const char* kFoldR7ToR15 = R"(
  add.u32 %r7, %r7, %r8;
  xor.b32 %r7, %r7, %r9;
  add.u32 %r7, %r7, %r10;
  xor.b32 %r7, %r7, %r11;
  add.u32 %r7, %r7, %r12;
  xor.b32 %r7, %r7, %r14;
  add.u32 %r7, %r7, %r15;
  st.global.u32 [%rd3], %r7;
  ret;)";

// Unsigned division by a divisor every lane holds, a power of two (a reduction's stride, 64,
// and 1) or not (12), and by powers of two that differ between the lanes (64 << (t & 3)).
TEST(WarpFastPaths, DecodedUnsignedDivisionByOneDivisorForEveryLane) {
  const std::string body = std::string(R"(
  mul.lo.u32 %r5, %r1, -1640531535;
  mov.u32 %r6, 64;
  div.u32 %r7, %r5, %r6;
  rem.u32 %r8, %r5, %r6;
  rem.u32 %r9, %r5, 12;
  div.u32 %r10, %r5, 12;
  div.u32 %r11, %r5, 1;
  rem.u32 %r12, %r5, 1;
  and.b32 %r13, %r1, 3;
  shl.b32 %r13, %r6, %r13;
  div.u32 %r14, %r5, %r13;
  rem.u32 %r15, %r5, %r13;
)") + kFoldR7ToR15;
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint32_t x = t * 0x9E3779B1u, apart = 64u << (t & 3);
    return ((((((x / 64 + x % 64) ^ (x % 12)) + x / 12) ^ x) + 0u) ^ (x / apart)) + x % apart;
  });
}

// The same signed: x of either sign over 64 in every lane, over 2^30 and 1, over -8 (no power
// of two), and over powers of two that differ between the lanes (64 << (t & 3)): the
// quotient and the remainder truncate towards zero.
TEST(WarpFastPaths, DecodedSignedDivisionByOneDivisorForEveryLane) {
  const std::string body = std::string(R"(
  mul.lo.u32 %r5, %r1, -1640531535;
  setp.eq.u32 %p1, %r1, 7;
  selp.b32 %r5, -2147483648, %r5, %p1;
  mov.u32 %r6, 64;
  div.s32 %r7, %r5, %r6;
  rem.s32 %r8, %r5, %r6;
  div.s32 %r9, %r5, 1073741824;
  rem.s32 %r10, %r5, 1073741824;
  div.s32 %r11, %r5, 1;
  rem.s32 %r12, %r5, -8;
  and.b32 %r13, %r1, 3;
  shl.b32 %r13, %r6, %r13;
  div.s32 %r14, %r5, %r13;
  rem.s32 %r15, %r5, %r13;
)") + kFoldR7ToR15;
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const int64_t x = t == 7 ? std::numeric_limits<int32_t>::min() : static_cast<int32_t>(t * 0x9E3779B1u);
    const int64_t apart = int64_t{64} << (t & 3), big = int64_t{1} << 30;
    const auto u = [](int64_t v) { return static_cast<uint32_t>(v); };
    return ((((((u(x / 64) + u(x % 64)) ^ u(x / big)) + u(x % big)) ^ u(x)) + u(x % -8)) ^ u(x / apart)) + u(x % apart);
  });
}

// 64 bits: x of either sign (the signed minimum at t 7) over 2^40 in every lane and over
// powers of two that differ between the lanes (64 << (t & 3)), signed and unsigned.
TEST(WarpFastPaths, Decoded64BitDivisionByOneDivisorForEveryLane) {
  const std::string body = R"(
  mul.lo.u32 %r5, %r1, -1640531535;
  cvt.s64.s32 %rd4, %r5;
  shl.b64 %rd4, %rd4, 24;
  setp.eq.u32 %p1, %r1, 7;
  selp.b64 %rd4, -9223372036854775808, %rd4, %p1;
  mov.u64 %rd5, 1099511627776;
  div.s64 %rd6, %rd4, %rd5;
  rem.s64 %rd7, %rd4, %rd5;
  xor.b64 %rd6, %rd6, %rd7;
  div.u64 %rd7, %rd4, %rd5;
  xor.b64 %rd6, %rd6, %rd7;
  rem.u64 %rd7, %rd4, %rd5;
  add.u64 %rd6, %rd6, %rd7;
  and.b32 %r6, %r1, 3;
  mov.u64 %rd5, 64;
  shl.b64 %rd5, %rd5, %r6;
  rem.s64 %rd7, %rd4, %rd5;
  xor.b64 %rd6, %rd6, %rd7;
  div.u64 %rd7, %rd4, %rd5;
  add.u64 %rd6, %rd6, %rd7;
  shr.u64 %rd7, %rd6, 32;
  cvt.u32.u64 %r7, %rd7;
  cvt.u32.u64 %r8, %rd6;
  xor.b32 %r7, %r7, %r8;
  st.global.u32 [%rd3], %r7;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const int64_t x = t == 7 ? std::numeric_limits<int64_t>::min()
                             : static_cast<int64_t>(static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(t * 0x9E3779B1u))) << 24);
    const auto ux = static_cast<uint64_t>(x);
    const int64_t big = int64_t{1} << 40, apart = int64_t{64} << (t & 3);
    const auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
    const uint64_t folded = ((((u(x / big) ^ u(x % big)) ^ (ux / u(big))) + ux % u(big)) ^ u(x % apart)) + ux / u(apart);
    return static_cast<uint32_t>(folded >> 32) ^ static_cast<uint32_t>(folded);
  });
}

// An executed lane dividing by zero faults, naming that lane, whether the divisor is a
// register (zero in lane 3 only) or an immediate, 32 or 64 bits wide.
TEST(WarpFastPaths, DecodedDivisionByZeroFaultsAtTheLane) {
  struct Case {
    const char* body;
    const char* what;
    const char* thread;
  };
  const Case cases[] = {
      {"sub.u32 %r5, %r1, 3;\nrem.u32 %r6, %r1, %r5;\nret;", "integer remainder by zero", "thread (3,0,0)"},
      {"sub.s32 %r5, %r1, 3;\ndiv.s32 %r6, %r1, %r5;\nret;", "integer division by zero", "thread (3,0,0)"},
      {"sub.u32 %r5, %r1, 3;\ncvt.u64.u32 %rd4, %r5;\ndiv.s64 %rd5, %rd4, %rd4;\nret;", "integer division by zero",
       "thread (3,0,0)"},
      {"cvt.u64.u32 %rd4, %r1;\nrem.u64 %rd5, %rd4, 0;\nret;", "integer remainder by zero", "thread (0,0,0)"},
  };
  for (const Case& c : cases) {
    for (uint32_t threads : {32u, 31u}) {
      std::string what = "<no fault>";
      try {
        run_ptx(kernel_with_body(c.body), threads);
      } catch (const ExecError& e) {
        what = e.what();
      }
      EXPECT_NE(what.find(c.what), std::string::npos) << c.body << "\n" << what;
      EXPECT_NE(what.find(c.thread), std::string::npos) << c.body << "\n" << what;
    }
  }
}

// x = t + 0.5 over y = t - 16 (0 at t 16: infinity), y's reciprocal, x's square root and
// its reciprocal (rsqrt.approx: the exactly rounded 1 / sqrt here). out[t] folds the bits.
TEST(WarpFastPaths, DecodedFloatDivisionReciprocalAndRoots) {
  const std::string body = R"(
  .reg .f32 %f<8>;
  cvt.rn.f32.u32 %f1, %r1;
  add.f32 %f2, %f1, 0f3F000000;
  sub.f32 %f3, %f1, 0f41800000;
  div.rn.f32 %f4, %f2, %f3;
  rcp.rn.f32 %f5, %f3;
  sqrt.rn.f32 %f6, %f2;
  rsqrt.approx.f32 %f7, %f2;
  mov.b32 %r5, %f4;
  mov.b32 %r6, %f5;
  mov.b32 %r7, %f6;
  mov.b32 %r8, %f7;
  mad.lo.u32 %r5, %r6, 3, %r5;
  xor.b32 %r5, %r5, %r7;
  mad.lo.u32 %r5, %r8, 5, %r5;
  st.global.u32 [%rd3], %r5;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const float x = static_cast<float>(t) + 0.5f, y = static_cast<float>(t) - 16.0f;
    const auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
    return ((bits(x / y) + bits(1.0f / y) * 3) ^ bits(std::sqrt(x))) + bits(1.0f / std::sqrt(x)) * 5;
  });
}

// .ftz: subnormal operands and results are zeros of their sign. s = t * 2^-140 (subnormal
// but at t 0). s + 2^-126 is 2^-126; half of 2^-126 (1 + t/32) is flushed; s 2^23 + 2^-126
// is 2^-126; -s is -0; 1 / sqrt(s) is infinity.
TEST(WarpFastPaths, DecodedFloatArithmeticFlushesSubnormalsToZero) {
  const std::string body = R"(
  .reg .f32 %f<8>;
  cvt.rn.f32.u32 %f1, %r1;
  mul.f32 %f2, %f1, 0f00000200;
  add.ftz.f32 %f3, %f2, 0f00800000;
  fma.rn.f32 %f4, %f1, 0f3D000000, 0f3F800000;
  mul.f32 %f4, %f4, 0f00800000;
  mul.ftz.f32 %f4, %f4, 0f3F000000;
  fma.rn.ftz.f32 %f5, %f2, 0f4B000000, 0f00800000;
  neg.ftz.f32 %f6, %f2;
  rsqrt.approx.ftz.f32 %f7, %f2;
  mov.b32 %r5, %f3;
  mov.b32 %r6, %f4;
  mov.b32 %r7, %f5;
  mov.b32 %r8, %f6;
  mov.b32 %r9, %f7;
  mad.lo.u32 %r5, %r6, 3, %r5;
  xor.b32 %r5, %r5, %r7;
  mad.lo.u32 %r5, %r8, 5, %r5;
  xor.b32 %r5, %r5, %r9;
  st.global.u32 [%rd3], %r5;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t, uint32_t) {
    const uint32_t smallest_normal = 0x00800000u, negative_zero = 0x80000000u, infinity = 0x7F800000u;
    const uint32_t flushed = 0;
    return (((smallest_normal + flushed * 3) ^ smallest_normal) + negative_zero * 5) ^ infinity;
  });
}

// ex2, lg2, sin and cos (.approx: the host's libm, in alu.cpp as here) of x = (t - 16) 0.375
// and of t + 0.5 for lg2; with .ftz, of s = t 2^-140, which they take as 0 (subnormal but at
// t 0): ex2 gives 1, lg2 minus infinity. out[t] folds the bits.
TEST(WarpFastPaths, DecodedApproximateExponentLogarithmAndTrigonometry) {
  const std::string body = R"(
  .reg .f32 %f<10>;
  cvt.rn.f32.u32 %f1, %r1;
  sub.f32 %f2, %f1, 0f41800000;
  mul.f32 %f2, %f2, 0f3EC00000;
  add.f32 %f3, %f1, 0f3F000000;
  mul.f32 %f4, %f1, 0f00000200;
  ex2.approx.f32 %f5, %f2;
  lg2.approx.f32 %f6, %f3;
  sin.approx.f32 %f7, %f2;
  cos.approx.f32 %f8, %f2;
  ex2.approx.ftz.f32 %f9, %f4;
  lg2.approx.ftz.f32 %f4, %f4;
  mov.b32 %r5, %f5;
  mov.b32 %r6, %f6;
  mov.b32 %r7, %f7;
  mov.b32 %r8, %f8;
  mov.b32 %r9, %f9;
  mov.b32 %r10, %f4;
  mad.lo.u32 %r5, %r6, 3, %r5;
  xor.b32 %r5, %r5, %r7;
  mad.lo.u32 %r5, %r8, 5, %r5;
  xor.b32 %r5, %r5, %r9;
  mad.lo.u32 %r5, %r10, 7, %r5;
  st.global.u32 [%rd3], %r5;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const float x = (static_cast<float>(t) - 16.0f) * 0.375f, y = static_cast<float>(t) + 0.5f;
    const auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
    const uint32_t one = bits(1.0f), minus_infinity = bits(-std::numeric_limits<float>::infinity());
    return ((((bits(std::exp2(x)) + bits(std::log2(y)) * 3) ^ bits(std::sin(x))) + bits(std::cos(x)) * 5) ^ one) +
           minus_infinity * 7;
  });
}

}  // namespace
}  // namespace gpusim::exec
