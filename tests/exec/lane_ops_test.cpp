// The executor's register-to-register operations a warp at a time (the forms decoded once
// per program, exec/lane_ops.hpp, and the general paths' full-warp shortcuts: packed
// comparisons, 64-bit arithmetic in place, thread indices) against values worked out here.
// Each kernel runs on a full warp and on 31 threads (partial writes, and the general
// per-lane path where a form needs a full warp), which must agree lane for lane.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

// mul.wide.s32 of negative values, mad.wide past 32 bits, and 64-bit add/sub with an
// immediate: x = t - 16, p = x * -3 + x * 10^9 - 5 + 2^33; out[t] = high word of p XOR low word.
TEST(WarpFastPaths, WideMultiplyAndSixtyFourBitAddition) {
  const std::string body = R"(
  sub.s32 %r5, %r1, 16;
  mul.wide.s32 %rd4, %r5, -3;
  mad.wide.s32 %rd5, %r5, 1000000000, %rd4;
  sub.s64 %rd5, %rd5, 5;
  add.s64 %rd5, %rd5, 8589934592;
  shr.u64 %rd6, %rd5, 32;
  cvt.u32.u64 %r6, %rd6;
  cvt.u32.u64 %r7, %rd5;
  xor.b32 %r8, %r6, %r7;
  mul.wide.u32 %rd7, %r7, 3;
  shr.u64 %rd7, %rd7, 32;
  cvt.u32.u64 %r9, %rd7;
  add.u32 %r8, %r8, %r9;
  st.global.u32 [%rd3], %r8;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const int64_t x = static_cast<int64_t>(t) - 16;
    const auto p = static_cast<uint64_t>(x * -3 + x * 1'000'000'000 - 5 + (int64_t{1} << 33));
    const auto low = static_cast<uint32_t>(p);
    const auto carry = static_cast<uint32_t>(uint64_t{low} * 3 >> 32);  // mul.wide.u32: the high word
    return (static_cast<uint32_t>(p >> 32) ^ low) + carry;
  });
}

// Every form of the 32-bit operations decoded once per program (exec/lane_ops.hpp): the high
// words of signed and unsigned products, shifts by 32 or more, signed and unsigned min/max,
// predicate logic, selp of immediates and of registers, f32 arithmetic, a source lanes 8 and
// up never wrote (which the general path reads as 0 there), and the 64-bit forms: mul and
// mad.wide, signed and unsigned, and sub.s64 of two registers.
TEST(WarpFastPaths, DecodedThirtyTwoBitOperationsOfEveryForm) {
  const std::string body = R"(
  .reg .f32 %f<4>;
  mul.lo.u32 %r5, %r1, -1640531535;
  sub.s32 %r6, %r1, 16;
  mul.hi.s32 %r7, %r5, %r6;
  mad.hi.u32 %r7, %r5, %r1, %r7;
  mad.hi.s32 %r7, %r6, %r6, %r7;
  shr.s32 %r8, %r6, %r1;
  add.u32 %r10, %r1, 20;
  shr.u32 %r9, %r5, %r10;
  shl.b32 %r11, %r5, %r10;
  xor.b32 %r8, %r8, %r9;
  or.b32 %r8, %r8, %r11;
  min.s32 %r12, %r6, %r5;
  max.u32 %r13, %r6, %r5;
  max.s32 %r14, %r6, %r5;
  min.u32 %r15, %r6, %r5;
  sub.u32 %r12, %r12, %r13;
  and.b32 %r14, %r14, %r15;
  not.b32 %r14, %r14;
  neg.s32 %r12, %r12;
  add.u32 %r7, %r7, %r8;
  add.u32 %r7, %r7, %r12;
  xor.b32 %r7, %r7, %r14;
  setp.lt.s32 %p1, %r6, 0;
  setp.lt.u32 %p2, %r5, -2147483648;
  xor.pred %p3, %p1, %p2;
  not.pred %p4, %p3;
  and.pred %p5, %p4, %p1;
  or.pred %p6, %p5, %p2;
  selp.b32 %r9, 1, 0, %p4;
  selp.b32 %r10, 2, 0, %p6;
  selp.b32 %r11, %r9, %r10, %p5;
  add.u32 %r7, %r7, %r11;
  add.u32 %r7, %r7, %r10;
  cvt.rn.f32.s32 %f1, %r6;
  mul.f32 %f2, %f1, 0f3FC00000;
  fma.rn.f32 %f3, %f1, %f2, 0f3F000000;
  sub.f32 %f3, %f3, %f1;
  abs.f32 %f2, %f2;
  neg.f32 %f1, %f1;
  min.f32 %f1, %f1, %f2;
  max.f32 %f3, %f3, %f1;
  add.f32 %f3, %f3, %f1;
  cvt.rzi.s32.f32 %r9, %f3;
  add.u32 %r7, %r7, %r9;
  setp.lt.u32 %p7, %r1, 8;
  @%p7 mov.u32 %r0, 1000;
  add.u32 %r0, %r0, %r1;
  add.u32 %r7, %r7, %r0;
  mul.wide.u32 %rd4, %r5, %r1;
  mad.wide.u32 %rd4, %r5, 7, %rd4;
  mad.wide.s32 %rd5, %r6, %r5, %rd4;
  sub.s64 %rd6, %rd5, %rd4;
  shr.u64 %rd6, %rd6, 32;
  cvt.u32.u64 %r9, %rd5;
  cvt.u32.u64 %r10, %rd6;
  xor.b32 %r9, %r9, %r10;
  add.u32 %r7, %r7, %r9;
  st.global.u32 [%rd3], %r7;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint32_t x = t * 0x9E3779B1u;
    const int32_t y = static_cast<int32_t>(t) - 16;
    const auto uy = static_cast<uint32_t>(y);
    const auto high_signed = [](int32_t a, int32_t b) {
      return static_cast<uint32_t>(static_cast<uint64_t>(int64_t{a} * b) >> 32);
    };
    uint32_t r = high_signed(static_cast<int32_t>(x), y);
    r += static_cast<uint32_t>(uint64_t{x} * t >> 32);
    r += high_signed(y, y);
    const uint32_t shift = t + 20;  // 32 and more for t >= 12: both shifts give 0
    const uint32_t right = shift >= 32 ? 0u : x >> shift, left = shift >= 32 ? 0u : x << shift;
    const uint32_t shifted = (static_cast<uint32_t>(y >> std::min(t, 31u)) ^ right) | left;
    const uint32_t min_signed = static_cast<uint32_t>(std::min(y, static_cast<int32_t>(x)));
    const uint32_t max_signed = static_cast<uint32_t>(std::max(y, static_cast<int32_t>(x)));
    const uint32_t difference = 0u - (min_signed - std::max(uy, x));
    r = (r + shifted + difference) ^ ~(max_signed & std::min(uy, x));
    const bool p1 = y < 0, p2 = x < 0x80000000u;
    const bool p4 = !(p1 != p2), p5 = p4 && p1, p6 = p5 || p2;
    const uint32_t one = p4 ? 1u : 0u, two = p6 ? 2u : 0u;
    r += (p5 ? one : two) + two;
    const auto f1 = static_cast<float>(y), f2 = f1 * 1.5f;
    const float f3 = std::fma(f1, f2, 0.5f) - f1, low = std::min(-f1, std::fabs(f2));
    r += static_cast<uint32_t>(static_cast<int32_t>(std::max(f3, low) + low));
    r += (t < 8 ? 1000u : 0u) + t;
    // The 64-bit forms: x t + 7 x unsigned, then y x signed added to it and taken off again.
    const uint64_t unsigned_sum = uint64_t{x} * t + uint64_t{x} * 7;
    const auto signed_product = static_cast<uint64_t>(int64_t{y} * static_cast<int32_t>(x));
    return r + (static_cast<uint32_t>(signed_product + unsigned_sum) ^ static_cast<uint32_t>(signed_product >> 32));
  });
}

// The comparisons, moves and conversions decoded once (exec/lane_ops.hpp): setp with p|q
// and an immediate first, predicate and 64-bit moves, special registers, integer widening
// of each signedness, integers to f32 rounded each way, and a comparison of a register
// lanes 8 and up never wrote (it reads 0 there). out[t] sums the parts, each scaled apart.
TEST(WarpFastPaths, DecodedMovesConversionsAndComparisons) {
  const std::string body = R"(
  .reg .f32 %f<8>;
  mul.lo.u32 %r5, %r1, -1640531535;
  setp.lt.s32 %p1|%p2, %r5, 0;
  setp.hi.u32 %p3, %r5, %r1;
  setp.ne.b32 %p4, 7, %r1;
  mov.pred %p5, %p3;
  setp.lt.u32 %p6, %r1, 8;
  @%p6 mov.u32 %r14, 5;
  setp.eq.u32 %p7, %r14, 0;
)" + packed_predicates({"%p1", "%p2", "%p5", "%p4", "%p7"}) + R"(
  mov.u32 %r7, %laneid;
  mov.u32 %r8, %lanemask_lt;
  mov.u32 %r9, %nctaid.x;
  mad.lo.u32 %r6, %r7, 32, %r6;
  xor.b32 %r6, %r6, %r8;
  mad.lo.u32 %r6, %r9, 3, %r6;
  cvt.u64.u32 %rd4, %r5;
  cvt.s64.s32 %rd5, %r5;
  cvt.u64.s32 %rd6, %r5;
  cvt.s64.u32 %rd7, %r5;
  sub.s64 %rd5, %rd5, %rd4;
  sub.s64 %rd6, %rd6, %rd7;
  shr.u64 %rd5, %rd5, 32;
  shr.u64 %rd6, %rd6, 31;
  cvt.u32.u64 %r10, %rd5;
  cvt.u32.u64 %r11, %rd6;
  mad.lo.u32 %r6, %r10, 5, %r6;
  mad.lo.u32 %r6, %r11, 9, %r6;
  mov.u64 %rd4, 0x123456789;
  mov.b64 %rd5, %rd4;
  add.s64 %rd5, %rd5, %rd7;
  cvt.u32.u64 %r10, %rd5;
  shr.u64 %rd5, %rd5, 32;
  cvt.u32.u64 %r11, %rd5;
  mad.lo.u32 %r6, %r10, 11, %r6;
  mad.lo.u32 %r6, %r11, 13, %r6;
  shl.b32 %r12, %r1, 20;
  or.b32 %r12, %r12, 16777217;
  cvt.rn.f32.u32 %f1, %r5;
  cvt.rn.f32.s32 %f2, %r5;
  cvt.rz.f32.s32 %f3, %r12;
  cvt.rm.f32.s32 %f4, %r5;
  cvt.rp.f32.u32 %f5, %r12;
  mov.f32 %f6, 0f3FC00000;
  mov.b32 %r10, %f1;
  xor.b32 %r6, %r6, %r10;
  mov.b32 %r10, %f2;
  mad.lo.u32 %r6, %r10, 15, %r6;
  mov.b32 %r10, %f3;
  mad.lo.u32 %r6, %r10, 17, %r6;
  mov.b32 %r10, %f4;
  mad.lo.u32 %r6, %r10, 19, %r6;
  mov.b32 %r10, %f5;
  mad.lo.u32 %r6, %r10, 21, %r6;
  mov.b32 %r10, %f6;
  add.u32 %r6, %r6, %r10;
  cvt.u32.s32 %r13, %r5;
  mad.lo.u32 %r6, %r13, 23, %r6;
  st.global.u32 [%rd3], %r6;
  ret;)";
  // `v` as f32 rounded toward zero, down or up: the nearest, then a step back where it went past.
  const auto directed = [](double v, int direction) {
    float f = static_cast<float>(v);
    if (direction == 0 && std::fabs(double{f}) > std::fabs(v)) f = std::nextafter(f, 0.0f);
    if (direction < 0 && double{f} > v) f = std::nextafter(f, -INFINITY);
    if (direction > 0 && double{f} < v) f = std::nextafter(f, INFINITY);
    return std::bit_cast<uint32_t>(f);
  };
  expect_on_full_and_partial_warps(body, [&](uint32_t t, uint32_t) {
    const uint32_t x = t * 0x9E3779B1u;
    const auto sx = static_cast<int32_t>(x);
    const uint32_t bits = (sx < 0 ? 1u : 0u) + (sx < 0 ? 0u : 2u) + (x > t ? 4u : 0u) + (t != 7 ? 8u : 0u) +
                          (t >= 8 ? 16u : 0u);  // lanes 8 and up read 0 from %r14
    uint32_t r = bits + 32u * t;
    r ^= (1u << t) - 1u;  // %lanemask_lt
    r += 3u;              // %nctaid.x: one block
    const uint32_t sign_word = sx < 0 ? 0xFFFFFFFFu : 0u;  // sext(x) - zext(x), shifted down 32
    const uint32_t sign_bits = sx < 0 ? 0xFFFFFFFEu : 0u;  // the same, shifted down 31, low word
    r += 5u * sign_word + 9u * sign_bits;
    const uint64_t moved = 0x123456789ull + x;
    r += 11u * static_cast<uint32_t>(moved) + 13u * static_cast<uint32_t>(moved >> 32);
    const uint32_t odd = t << 20 | 16777217u;  // 2^24 + 1 and up: not every one is an f32
    r ^= std::bit_cast<uint32_t>(static_cast<float>(x));
    r += 15u * std::bit_cast<uint32_t>(static_cast<float>(sx));
    r += 17u * directed(static_cast<int32_t>(odd), 0);
    r += 19u * directed(sx, -1);
    r += 21u * directed(odd, 1);
    r += 0x3FC00000u;
    return r + 23u * x;
  });
}

// A warp's registers keep the values of the block that ran before it on the same storage:
// a lane that has not written a register in this block must still read 0, in the decoded
// form as in the general one. Block 0's lanes 0-7 write %r0; block 1's never do.
TEST(WarpFastPaths, ARegisterAnEarlierBlockWroteReadsZero) {
  const std::string body = R"(
  setp.lt.u32 %p1, %r4, 8;
  @%p1 mov.u32 %r0, 1000;
  add.u32 %r5, %r0, %r1;
  st.global.u32 [%rd3], %r5;
  ret;)";
  const Result r = run_ptx(kernel_with_body(body), 32, 2);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r.out[i], (i < 8 ? 1000u : 0u) + i % 32) << "thread " << i;
}

// Integer conversions register to register (across widths, and in place) and cvta's round
// trip; a source some lanes never wrote (lanes 8 and up here) reads 0 there.
// out[t] = hi + 3 byte + 5 trip + 7 partial.
TEST(WarpFastPaths, IntegerConversionsAcrossWidthsAndInPlace) {
  const std::string body = R"(
  sub.s32 %r5, %r1, 16;
  cvt.s64.s32 %rd4, %r5;
  shr.u64 %rd4, %rd4, 32;
  cvt.u32.u64 %r6, %rd4;
  mul.lo.u32 %r9, %r1, 20;
  cvt.s32.s8 %r9, %r9;
  mov.u32 %r10, sm;
  cvt.u64.u32 %rd5, %r10;
  cvta.shared.u64 %rd5, %rd5;
  cvta.to.shared.u64 %rd6, %rd5;
  cvt.u32.u64 %r11, %rd6;
  sub.u32 %r11, %r11, %r10;
  add.u32 %r11, %r11, %r1;
  setp.lt.u32 %p1, %r1, 8;
  @%p1 mov.u32 %r12, 77;
  cvt.u64.u32 %rd7, %r12;
  cvt.u32.u64 %r13, %rd7;
  mad.lo.u32 %r6, %r9, 3, %r6;
  mad.lo.u32 %r6, %r11, 5, %r6;
  mad.lo.u32 %r6, %r13, 7, %r6;
  st.global.u32 [%rd3], %r6;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint32_t hi = t < 16 ? 0xFFFFFFFFu : 0u;  // the high word of t - 16, sign-extended
    const auto byte = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(static_cast<uint8_t>(20 * t))));
    const uint32_t partial = t < 8 ? 77u : 0u;
    return hi + 3u * byte + 5u * t + 7u * partial;
  });
}

// Packed comparisons: signed against unsigned order of the same bits, a combined predicate
// with its complement (p|q), and equality of floats; out[t] packs the five results as bits.
TEST(WarpFastPaths, ComparisonsOfAWholeWarp) {
  const std::string body = R"(
  .reg .f32 %f<2>;
  sub.s32 %r5, %r1, 8;
  setp.lt.s32 %p1, %r5, 3;
  setp.lt.u32 %p2, %r5, 3;
  setp.gt.and.s32 %p3|%p4, %r5, 0, %p2;
  cvt.rn.f32.s32 %f1, %r5;
  setp.eq.f32 %p5, %f1, 0f41000000;
)" + packed_predicates({"%p1", "%p2", "%p3", "%p4", "%p5"}) + R"(
  st.global.u32 [%rd3], %r6;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const int32_t x = static_cast<int32_t>(t) - 8;
    const bool lt_signed = x < 3, lt_unsigned = static_cast<uint32_t>(x) < 3u;
    const bool both = x > 0 && lt_unsigned, neither = !(x > 0) && lt_unsigned;  // q: not(x > 0), and %p2
    const bool eight = x == 8;
    return uint32_t{lt_signed} + 2u * lt_unsigned + 4u * both + 8u * neither + 16u * eight;
  });
}

// A 16-bit move keeps 16 bits of a wider immediate, a 16-bit register converted back
// sign-extends, and float comparisons order NaN (the square root of t - 16 for t < 16) as
// PTX says: lt false, ltu and nan true. out[t]: the sum of the two values, its bits 28-30
// flipped by the three comparisons.
TEST(WarpFastPaths, SixteenBitMovesAndConversionsAndUnorderedComparisons) {
  const std::string body = R"(
  .reg .b16 %rs<4>;
  .reg .f32 %f<3>;
  mul.lo.u32 %r5, %r1, 40503;
  cvt.u16.u32 %rs1, %r5;
  mov.b16 %rs2, %rs1;
  cvt.s32.s16 %r6, %rs2;
  mov.u16 %rs3, 70000;
  cvt.u32.u16 %r7, %rs3;
  add.u32 %r6, %r6, %r7;
  sub.s32 %r8, %r1, 16;
  cvt.rn.f32.s32 %f1, %r8;
  sqrt.rn.f32 %f2, %f1;
  setp.lt.f32 %p1, %f2, 0f40000000;
  setp.ltu.f32 %p2, %f2, 0f40000000;
  setp.nan.f32 %p3, %f2, %f2;
  selp.u32 %r9, 0x10000000, 0, %p1;
  selp.u32 %r10, 0x20000000, 0, %p2;
  selp.u32 %r11, 0x40000000, 0, %p3;
  xor.b32 %r6, %r6, %r9;
  xor.b32 %r6, %r6, %r10;
  xor.b32 %r6, %r6, %r11;
  st.global.u32 [%rd3], %r6;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const auto low = static_cast<int16_t>(static_cast<uint16_t>(t * 40503u));  // sign-extended back
    const uint32_t sum = static_cast<uint32_t>(static_cast<int32_t>(low)) + (70000u & 0xFFFFu);
    const float root = std::sqrt(static_cast<float>(static_cast<int32_t>(t) - 16));
    const bool nan = std::isnan(root);
    const bool lt = !nan && root < 2.0f, ltu = nan || root < 2.0f;
    return sum ^ (0x10000000u * lt) ^ (0x20000000u * ltu) ^ (0x40000000u * nan);
  });
}

// Thread indices of 3-D blocks whose warps lie within a row (32 x 2 x 2), span rows (40 x 3 x 1,
// 8 x 4 x 2) or are a single row (64): out[linear thread] = x + 1000 y + 1000000 z.
TEST(WarpFastPaths, ThreadIndicesOfWarpsWithinAndAcrossRows) {
  const std::string ptx = std::string(kHeader) +
                          ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<16>;\n.reg .b64 %rd<8>;\n"
                          "ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
                          "mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\n"
                          "mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %ntid.y;\n"
                          "mad.lo.u32 %r6, %r3, %r5, %r2;\nmad.lo.u32 %r6, %r6, %r4, %r1;\n"
                          "mad.lo.u32 %r7, %r2, 1000, %r1;\nmad.lo.u32 %r7, %r3, 1000000, %r7;\n"
                          "mul.wide.u32 %rd2, %r6, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r7;\nret;\n}\n";
  const kernel::Module m = frontend::parse_ptx(ptx, "test.ptx");
  for (const std::array<uint32_t, 3> block :
       {std::array<uint32_t, 3>{32, 2, 2}, {40, 3, 1}, {8, 4, 2}, {64, 1, 1}}) {
    const uint32_t threads = block[0] * block[1] * block[2];
    DeviceMemory memory;
    const uint64_t base = memory.allocate("out", uint64_t{threads} * 4, kernel::kGlobalHeapBase);
    LaunchConfig launch;
    launch.block = block;
    launch.params.resize(8);
    std::memcpy(launch.params.data(), &base, 8);
    run_functional(m.kernels[0], memory, launch, RunLimits{});
    std::vector<uint32_t> out(threads);
    std::memcpy(out.data(), memory.find("out")->bytes.data(), threads * 4);
    for (uint32_t t = 0; t < threads; ++t) {
      const uint32_t x = t % block[0], y = t / block[0] % block[1], z = t / (block[0] * block[1]);
      EXPECT_EQ(out[t], x + 1000 * y + 1000000 * z) << block[0] << "x" << block[1] << "x" << block[2] << ", thread " << t;
    }
  }
}

}  // namespace
}  // namespace gpusim::exec
