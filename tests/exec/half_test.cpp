// Half precision and bfloat16: the encoding against values worked out by hand from the
// IEEE 754 binary16 and bfloat16 layouts, and f16/f16x2/bf16 PTX arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "exec/ptx_run.hpp"
#include "exec/small_float.hpp"

namespace gpusim::exec {
namespace {

using kernel::Rounding;

TEST(SmallFloat, HalfEncodingRoundsToNearestEven) {
  EXPECT_EQ(encode_small_float(1.0, kHalf), 0x3C00u);
  EXPECT_EQ(encode_small_float(-2.0, kHalf), 0xC000u);
  EXPECT_EQ(encode_small_float(65504.0, kHalf), 0x7BFFu);           // the largest finite half
  EXPECT_EQ(encode_small_float(65519.0, kHalf), 0x7BFFu);           // below the midpoint to 2^16
  EXPECT_EQ(encode_small_float(65520.0, kHalf), 0x7C00u);           // the midpoint: to even, infinity
  EXPECT_EQ(encode_small_float(std::ldexp(1.0, -24), kHalf), 0x0001u);      // the smallest subnormal
  EXPECT_EQ(encode_small_float(std::ldexp(1.0, -25), kHalf), 0x0000u);      // half of it: ties to even (0)
  EXPECT_EQ(encode_small_float(3 * std::ldexp(1.0, -25), kHalf), 0x0002u);  // 1.5 units: to even (2)
  EXPECT_EQ(encode_small_float(std::ldexp(1023.5, -24), kHalf), 0x0400u);   // rounds up into the normals
  EXPECT_EQ(encode_small_float(0.1, kHalf), 0x2E66u);  // 0.1 = 1.6 * 2^-4: mantissa 0.6 * 1024 = 614.4 -> 614
  EXPECT_EQ(encode_small_float(1.0 + std::ldexp(1.0, -11), kHalf), 0x3C00u);      // a tie: to even
  EXPECT_EQ(encode_small_float(1.0 + 3 * std::ldexp(1.0, -11), kHalf), 0x3C02u);  // a tie: to even (up)
  EXPECT_EQ(encode_small_float(std::nan(""), kHalf), 0x7FFFu);  // PTX's canonical NaN
  EXPECT_EQ(encode_small_float(1e6, kHalf, Rounding::Rz), 0x7BFFu);  // toward zero saturates to finite
  EXPECT_EQ(encode_small_float(1.0 + std::ldexp(1.0, -12), kHalf, Rounding::Rp), 0x3C01u);
  EXPECT_EQ(encode_small_float(-(1.0 + std::ldexp(1.0, -12)), kHalf, Rounding::Rm), 0xBC01u);
  EXPECT_EQ(decode_small_float(0x7BFF, kHalf), 65504.0);
  EXPECT_EQ(decode_small_float(0x0001, kHalf), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(decode_small_float(0xFC00, kHalf)));
}

TEST(SmallFloat, Bfloat16IsTheTopHalfOfAFloatRounded) {
  EXPECT_EQ(encode_small_float(1.0, kBfloat16), 0x3F80u);
  EXPECT_EQ(encode_small_float(3.14159265, kBfloat16), 0x4049u);  // pi: 1.5707963 * 2, mantissa 0.5708 * 128 = 73.06
  EXPECT_EQ(encode_small_float(std::bit_cast<float>(0x3F808000u), kBfloat16), 0x3F80u);  // a tie: to even
  EXPECT_EQ(encode_small_float(std::bit_cast<float>(0x3F818000u), kBfloat16), 0x3F82u);  // a tie: to even (up)
  EXPECT_EQ(decode_small_float(0xC2F7, kBfloat16), -123.5);
}

TEST(HalfPtx, ConvertComputeAndConvertBack) {
  // h = half(t * 0.5); h2 = h * h + 1 (fma.rn.f16); pair = {h, 2} * {3, h} (mul.f16x2); out = float(h2) * 1000
  // + float(pair.lo) * 10 + float(pair.hi): all exact in half for t < 32.
  const std::string body = R"(
  .reg .f32 %f<8>;
  .reg .b16 %h<8>;
  cvt.rn.f32.u32 %f1, %r1;
  mul.f32 %f1, %f1, 0f3F000000;
  cvt.rn.f16.f32 %h1, %f1;
  mov.b16 %h2, 0x3C00;
  fma.rn.f16 %h3, %h1, %h1, %h2;
  mov.b16 %h4, 0x4000;
  mov.b16 %h5, 0x4200;
  mov.b32 %r5, {%h1, %h4};
  mov.b32 %r6, {%h5, %h1};
  mul.rn.f16x2 %r7, %r5, %r6;
  mov.b32 {%h6, %h7}, %r7;
  cvt.f32.f16 %f2, %h3;
  cvt.f32.f16 %f3, %h6;
  cvt.f32.f16 %f4, %h7;
  mul.f32 %f2, %f2, 0f447A0000;
  fma.rn.f32 %f2, %f3, 0f41200000, %f2;
  add.f32 %f2, %f2, %f4;
  cvt.rni.u32.f32 %r8, %f2;
  st.global.u32 [%rd3], %r8;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 32);
  for (uint32_t t = 0; t < 32; ++t) {
    const double h = t * 0.5;
    EXPECT_EQ(r.out[t], static_cast<uint32_t>((h * h + 1) * 1000 + (h * 3) * 10 + 2 * h)) << t;
  }
}

TEST(HalfPtx, ComparisonsAndPackedConversion) {
  // cvt.rn.f16x2.f32 d, a, b puts a in the upper half; setp.f16x2 p|q compares low|high.
  const std::string body = R"(
  .reg .f32 %f<4>;
  cvt.rn.f32.u32 %f1, %r1;
  mov.f32 %f2, 0f41800000;
  cvt.rn.f16x2.f32 %r5, %f2, %f1;
  mov.b32 %r6, 0x41004100;
  setp.lt.f16x2 %p1|%p2, %r5, %r6;
  selp.u32 %r7, 1, 0, %p1;
  selp.u32 %r8, 2, 0, %p2;
  add.s32 %r7, %r7, %r8;
  shr.u32 %r9, %r5, 16;
  shl.b32 %r9, %r9, 8;
  add.s32 %r7, %r7, %r9;
  st.global.u32 [%rd3], %r7;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 32);
  // Low half t < 2.5 (0x4100); high half 16 (0x4C00) is not below 2.5.
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], (t < 3 ? 1u : 0u) + (0x4C00u << 8)) << t;
}

// setp.ftz on f16 and f16x2 compares subnormal operands as zeros of their sign (PTX ISA, half
// precision setp). Low halves: -2^-24 (0x8001) against +0; high halves: 2^-24 (0x0001)
// against -0 (0x8000). Without .ftz -2^-24 < 0 and 2^-24 > -0; with it, both are equal.
TEST(HalfPtx, FlushToZeroComparisonsOfSubnormals) {
  const std::string body = R"(
  mov.b32 %r5, 0x00018001;
  mov.b32 %r6, 0x80000000;
  setp.lt.f16x2 %p1|%p2, %r5, %r6;
  setp.lt.ftz.f16x2 %p3|%p4, %r5, %r6;
  setp.eq.ftz.f16 %p5, %r5, %r6;
  setp.gt.f16x2 %p6|%p7, %r5, %r6;
  )" + packed_predicates({"%p1", "%p2", "%p3", "%p4", "%p5", "%p6", "%p7"}) + R"(
  st.global.u32 [%rd3], %r6;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 32);
  // lt: low holds, high not; lt.ftz: neither; eq.ftz of the low halves holds; gt: high holds.
  const uint32_t want = 1u << 0 | 1u << 4 | 1u << 6;
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], want) << t;
}

}  // namespace
}  // namespace gpusim::exec
