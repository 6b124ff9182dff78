// Rounding modifiers where a result is not exact: cvt of an integer or a double to a narrower
// float, and f32/f64 arithmetic, round to nearest (.rn), toward zero (.rz), down (.rm) or up
// (.rp), as the PTX ISA says. Expected bits worked out by hand from the IEEE 754 layouts.
// And cvt between integer widths, which keeps the source's bits, sign-extends a signed one and
// keeps the destination's bits: expected values from C++'s own conversions. And f32 to 32-bit
// integers (rounded as asked, clamped, NaN to 0) and between f32 and f64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstdint>
#include <limits>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

TEST(Conversions, DirectedRoundingToNarrowerFloats) {
  // Thread 0 stores eight words: four f32 results, then two f64 results, low word first.
  const std::string body = R"(
  .reg .f32 %f<8>;
  .reg .f64 %fd<4>;
  .reg .b64 %rw<4>;
  setp.ne.u32 %p1, %r4, 0;
  @%p1 bra DONE;
  cvt.rz.f32.f64 %f1, 0d3FF0000001000000;
  cvt.rp.f32.f64 %f2, 0d3FF0000001000000;
  cvt.rm.f32.f64 %f3, 0dBFF0000001000000;
  cvt.rz.f32.f64 %f4, 0d7E37E43C8800759C;
  mov.u64 %rw1, 9007199254740993;
  cvt.rm.f64.s64 %fd1, %rw1;
  mov.u64 %rw2, -1;
  cvt.rz.f64.u64 %fd2, %rw2;
  st.global.f32 [%rd3], %f1;
  st.global.f32 [%rd3+4], %f2;
  st.global.f32 [%rd3+8], %f3;
  st.global.f32 [%rd3+12], %f4;
  st.global.f64 [%rd3+16], %fd1;
  st.global.f64 [%rd3+24], %fd2;
DONE:
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 8);
  EXPECT_EQ(r.out[0], 0x3F800000u);  // 1 + 2^-28 toward zero: 1
  EXPECT_EQ(r.out[1], 0x3F800001u);  // up: 1 + 2^-23, the next f32
  EXPECT_EQ(r.out[2], 0xBF800001u);  // -(1 + 2^-28) down: -(1 + 2^-23)
  EXPECT_EQ(r.out[3], 0x7F7FFFFFu);  // 1e300 toward zero: the largest finite f32, not infinity
  EXPECT_EQ(r.out[4], 0x00000000u);  // 2^53 + 1 down: 2^53 (0x4340000000000000)
  EXPECT_EQ(r.out[5], 0x43400000u);
  EXPECT_EQ(r.out[6], 0xFFFFFFFFu);  // 2^64 - 1 toward zero: 2^64 - 2048 (0x43EFFFFFFFFFFFFF), not 2^64
  EXPECT_EQ(r.out[7], 0x43EFFFFFu);
}

// Each operation's exact result lies between two floats; the modifier picks one. Thread 0
// stores the f32 results, then an f64 result, low word first. 0f30800000 is 2^-30.
TEST(Conversions, DirectedRoundingOfArithmetic) {
  const std::string body = R"(
  .reg .f32 %f<16>;
  .reg .f64 %fd<4>;
  setp.ne.u32 %p1, %r4, 0;
  @%p1 bra DONE;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f30800000;
  mov.f32 %f3, 0f3F800001;
  mov.f32 %f4, 0f40400000;
  add.rz.f32 %f5, %f1, %f2;
  add.rp.f32 %f6, %f1, %f2;
  mul.rp.f32 %f7, %f3, %f3;
  mul.rz.f32 %f8, %f3, %f3;
  div.rz.f32 %f9, %f1, %f4;
  div.rp.f32 %f10, %f1, %f4;
  neg.f32 %f2, %f2;
  fma.rm.f32 %f11, %f1, %f1, %f2;
  sub.rm.f32 %f12, %f2, %f1;
  sqrt.rp.f32 %f13, 0f40000000;
  rcp.rz.f32 %f14, %f4;
  add.rp.f64 %fd1, 0d3FF0000000000000, 0d3C30000000000000;
  st.global.f32 [%rd3], %f5;
  st.global.f32 [%rd3+4], %f6;
  st.global.f32 [%rd3+8], %f7;
  st.global.f32 [%rd3+12], %f8;
  st.global.f32 [%rd3+16], %f9;
  st.global.f32 [%rd3+20], %f10;
  st.global.f32 [%rd3+24], %f11;
  st.global.f32 [%rd3+28], %f12;
  st.global.f32 [%rd3+32], %f13;
  st.global.f32 [%rd3+36], %f14;
  st.global.f64 [%rd3+40], %fd1;
DONE:
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 12);
  EXPECT_EQ(r.out[0], 0x3F800000u);  // 1 + 2^-30 toward zero: 1
  EXPECT_EQ(r.out[1], 0x3F800001u);  // up: 1 + 2^-23
  EXPECT_EQ(r.out[2], 0x3F800003u);  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46 up: 1 + 3 2^-23
  EXPECT_EQ(r.out[3], 0x3F800002u);  // toward zero: 1 + 2^-22
  EXPECT_EQ(r.out[4], 0x3EAAAAAAu);  // 1/3 toward zero (to nearest it is ...AB)
  EXPECT_EQ(r.out[5], 0x3EAAAAABu);  // up
  EXPECT_EQ(r.out[6], 0x3F7FFFFFu);  // 1 - 2^-30 down: 1 - 2^-24 (to nearest: 1)
  EXPECT_EQ(r.out[7], 0xBF800001u);  // -2^-30 - 1 down: -(1 + 2^-23)
  EXPECT_EQ(r.out[8], 0x3FB504F4u);  // sqrt(2) = 1.41421356... up (to nearest: ...F3)
  EXPECT_EQ(r.out[9], 0x3EAAAAAAu);  // 1/3 toward zero
  EXPECT_EQ(r.out[10], 0x00000001u);  // 1 + 2^-60 up: 1 + 2^-52 (0x3FF0000000000001)
  EXPECT_EQ(r.out[11], 0x3FF00000u);
}

// x as a signed 32-bit integer times 77777, in 64 bits (mul.wide.s32).
int64_t wide(uint32_t x) { return int64_t{static_cast<int32_t>(x)} * 77777; }

// Integer widths to others of 32 bits or fewer, from 8-, 16-, 32- and 64-bit sources (decoded
// once, lane_moves.cpp; .sat and from a float: the general path), on a full warp and on 31
// threads. Each case leaves its result in %r7; out[t] sums them, case i weighted 2i + 1.
TEST(Conversions, BetweenIntegerWidths) {
  // Sources: %r5 = x = t * 0x9E3779B1, %rs1 its low half, %rd4 = wide(x), %f1 = x.
  struct Case {
    const char* ptx;
    uint32_t (*want)(uint32_t x);
  };
  static const Case cases[] = {
      {"cvt.s32.s16 %r7, %rs1;", [](uint32_t x) { return static_cast<uint32_t>(int32_t{static_cast<int16_t>(x)}); }},
      {"cvt.u32.u16 %r7, %rs1;", [](uint32_t x) { return uint32_t{static_cast<uint16_t>(x)}; }},
      {"cvt.s32.s8 %r7, %r5;", [](uint32_t x) { return static_cast<uint32_t>(int32_t{static_cast<int8_t>(x)}); }},
      {"cvt.u32.u8 %r7, %r5;", [](uint32_t x) { return uint32_t{static_cast<uint8_t>(x)}; }},
      // A signed result in a wider register is sign-extended to its width (PTX ISA 9.4.1).
      {"cvt.s8.s32 %rs2, %r5; cvt.u32.u16 %r7, %rs2;",
       [](uint32_t x) { return uint32_t{static_cast<uint16_t>(static_cast<int8_t>(x))}; }},
      {"cvt.s16.s8 %rs3, %rs1; cvt.u32.u16 %r7, %rs3;",
       [](uint32_t x) { return uint32_t{static_cast<uint16_t>(static_cast<int16_t>(static_cast<int8_t>(x)))}; }},
      {"cvt.u32.u64 %r7, %rd4;", [](uint32_t x) { return static_cast<uint32_t>(wide(x)); }},
      {"cvt.s16.s64 %rs4, %rd4; cvt.s32.s16 %r7, %rs4;",
       [](uint32_t x) { return static_cast<uint32_t>(int32_t{static_cast<int16_t>(wide(x))}); }},
      {"cvt.u8.s64 %rs5, %rd4; cvt.u32.u16 %r7, %rs5;",
       [](uint32_t x) { return uint32_t{static_cast<uint8_t>(wide(x))}; }},
      {"cvt.s16.s32 %r7, %r5;", [](uint32_t x) { return static_cast<uint32_t>(int32_t{static_cast<int16_t>(x)}); }},
      {"cvt.s8.s64 %r7, %rd4;",
       [](uint32_t x) { return static_cast<uint32_t>(int32_t{static_cast<int8_t>(wide(x))}); }},
      {"cvt.sat.s8.s32 %r7, %r5;",
       [](uint32_t x) { return static_cast<uint32_t>(std::clamp(static_cast<int32_t>(x), -128, 127)); }},
      {"cvt.rzi.s16.f32 %r7, %f1;",
       [](uint32_t x) {
         const float f = static_cast<float>(static_cast<int32_t>(x));
         return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(std::trunc(f), -32768.0f, 32767.0f)));
       }},
      // Into 64 bits: the high word, all ones where the low word is negative.
      {"cvt.s32.s64 %rd5, %rd4; shr.u64 %rd5, %rd5, 32; cvt.u32.u64 %r7, %rd5;",
       [](uint32_t x) { return static_cast<int32_t>(wide(x)) < 0 ? 0xFFFFFFFFu : 0u; }},
  };
  std::string body = R"(
  .reg .b16 %rs<8>;
  .reg .f32 %f<2>;
  mul.lo.u32 %r5, %r4, -1640531535;
  cvt.u16.u32 %rs1, %r5;
  mul.wide.s32 %rd4, %r5, 77777;
  cvt.rn.f32.s32 %f1, %r5;
  mov.u32 %r6, 0;
)";
  uint32_t weight = 1;
  for (const Case& c : cases) {
    body += std::string("  ") + c.ptx + "\n  mad.lo.u32 %r6, %r7, " + std::to_string(weight) + ", %r6;\n";
    weight += 2;
  }
  body += "  st.global.u32 [%rd3], %r6;\n  ret;";
  expect_on_full_and_partial_warps(body, [&](uint32_t t, uint32_t) {
    const uint32_t x = t * 0x9E3779B1u;
    uint32_t r = 0, w = 1;
    for (const Case& c : cases) {
      r += w * c.want(x);
      w += 2;
    }
    return r;
  });
}

// f = (t - 16) * 0.75 but NaN at t 0, 3e9 at t 1, -3e9 at t 2, 2.5 at t 3, -2.5 at t 4 and
// 5e9 at t 5: to s32 truncated, to nearest even, up; to u32 down. Then f to f64, times 1/3,
// back to f32 (to nearest); the rni result to f64 and back; and with .ftz, s = t 2^-140
// (subnormal) to f64 and t 2^-140 as an f64 to f32: both flushed to 0.
TEST(Conversions, FloatToIntegerAndBetweenFloatWidths) {
  const std::string body = R"(
  .reg .f32 %f<6>;
  .reg .f64 %fd<4>;
  cvt.rn.f32.s32 %f1, %r1;
  sub.f32 %f1, %f1, 0f41800000;
  mul.f32 %f1, %f1, 0f3F400000;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mov.f32 %f1, 0f7FC00000;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 mov.f32 %f1, 0f4F32D05E;
  setp.eq.u32 %p1, %r1, 2;
  @%p1 mov.f32 %f1, 0fCF32D05E;
  setp.eq.u32 %p1, %r1, 3;
  @%p1 mov.f32 %f1, 0f40200000;
  setp.eq.u32 %p1, %r1, 4;
  @%p1 mov.f32 %f1, 0fC0200000;
  setp.eq.u32 %p1, %r1, 5;
  @%p1 mov.f32 %f1, 0f4F9502F9;
  cvt.rzi.s32.f32 %r5, %f1;
  cvt.rni.s32.f32 %r6, %f1;
  cvt.rmi.u32.f32 %r7, %f1;
  cvt.rpi.s32.f32 %r8, %f1;
  cvt.f64.f32 %fd1, %f1;
  mul.f64 %fd1, %fd1, 0d3FD5555555555555;
  cvt.rn.f32.f64 %f2, %fd1;
  mov.b32 %r9, %f2;
  cvt.rn.f64.s32 %fd2, %r6;
  cvt.rn.f32.f64 %f3, %fd2;
  mov.b32 %r10, %f3;
  cvt.rn.f32.u32 %f4, %r1;
  mul.f32 %f4, %f4, 0f00000200;
  cvt.ftz.f64.f32 %fd3, %f4;
  cvt.rn.f32.f64 %f5, %fd3;
  mov.b32 %r11, %f5;
  cvt.f64.f32 %fd3, %f4;
  cvt.rn.ftz.f32.f64 %f5, %fd3;
  mov.b32 %r12, %f5;
  mad.lo.u32 %r5, %r6, 3, %r5;
  xor.b32 %r5, %r5, %r7;
  mad.lo.u32 %r5, %r8, 5, %r5;
  xor.b32 %r5, %r5, %r9;
  mad.lo.u32 %r5, %r10, 7, %r5;
  xor.b32 %r5, %r5, %r11;
  add.u32 %r5, %r5, %r12;
  st.global.u32 [%rd3], %r5;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), 3e9f, -3e9f, 2.5f, -2.5f, 5e9f};
    const float f = t < 6 ? specials[t] : (static_cast<float>(t) - 16.0f) * 0.75f;
    // To a 32-bit integer: rounded, then clamped to the type's range; NaN is 0.
    const auto to_int = [f](double rounded, double lo, double hi) -> uint32_t {
      if (std::isnan(f)) return 0;
      const double c = std::clamp(rounded, lo, hi);
      return lo < 0 ? static_cast<uint32_t>(static_cast<int32_t>(c)) : static_cast<uint32_t>(c);
    };
    const double s_lo = -2147483648.0, s_hi = 2147483647.0, u_hi = 4294967295.0;
    const uint32_t rzi = to_int(std::trunc(f), s_lo, s_hi), rni = to_int(std::nearbyint(f), s_lo, s_hi);
    const uint32_t rmi = to_int(std::floor(f), 0.0, u_hi), rpi = to_int(std::ceil(f), s_lo, s_hi);
    const auto bits = [](float v) { return std::bit_cast<uint32_t>(v); };
    const uint32_t third = bits(static_cast<float>(static_cast<double>(f) * 0x1.5555555555555p-2));
    const uint32_t back = bits(static_cast<float>(static_cast<int32_t>(rni)));
    const uint32_t flushed = 0;  // both .ftz conversions of t 2^-140 (without .ftz: its bits)
    return ((((((rzi + rni * 3) ^ rmi) + rpi * 5) ^ third) + back * 7) ^ flushed) + flushed;
  });
}

// NaN to an integer (PTX ISA, cvt): 0 from f32 to 32 bits, else the destination's top bit
// alone, 1 << (BitWidth(dst) - 1): from f64 to s32 and u32, from f32 and f64 to s64 and u64.
TEST(Conversions, NotANumberToIntegersOfEachWidth) {
  const std::string body = R"(
  .reg .f32 %f<2>;
  .reg .f64 %fd<2>;
  mov.f32 %f1, 0f7FC00000;
  mov.f64 %fd1, 0d7FF8000000000000;
  cvt.rzi.s32.f64 %r5, %fd1;
  cvt.rni.u32.f64 %r6, %fd1;
  cvt.rzi.s32.f32 %r7, %f1;
  cvt.rzi.s64.f32 %rd4, %f1;
  cvt.rmi.u64.f64 %rd5, %fd1;
  mov.b64 {%r8, %r9}, %rd4;
  mov.b64 {%r10, %r11}, %rd5;
  shr.u32 %r6, %r6, 1;
  shr.u32 %r9, %r9, 2;
  shr.u32 %r11, %r11, 3;
  xor.b32 %r5, %r5, %r6;
  xor.b32 %r5, %r5, %r9;
  xor.b32 %r5, %r5, %r11;
  or.b32 %r7, %r7, %r8;
  or.b32 %r7, %r7, %r10;
  xor.b32 %r5, %r5, %r7;
  st.global.u32 [%rd3], %r5;
  ret;)";
  // Each top bit shifted to a place of its own; f32 to s32 and the low words, which are 0, or'd in.
  expect_on_full_and_partial_warps(body, [](uint32_t, uint32_t) {
    const uint32_t top = 0x80000000u;  // s32 and u32 from f64; the high words of s64 and u64
    return top ^ (top >> 1) ^ (top >> 2) ^ (top >> 3);
  });
}

}  // namespace
}  // namespace gpusim::exec
