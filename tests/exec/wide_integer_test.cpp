// What writes 64-bit registers a warp at a time (decoded once per program, exec/lane_ops.hpp)
// against values worked out here: logic, shift counts past 63, an arithmetic shift of a
// negative value; products, min and max of either sign, negation; f64 arithmetic; and setp
// of signed, unsigned and f64 operands with both predicates.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

// a = (x << 32 | t) with x = t * 0x9E3779B1, b = -(t + 1) (negative, 64 bits): their and, or,
// xor; each shifted left and right, logically and arithmetically, by 2t and by t + 40 (past
// 63 from t 24: 0 logically, the sign arithmetically, where a's top bits differ from it).
// out[t] folds the 64-bit results' words.
TEST(WarpFastPaths, DecodedSixtyFourBitLogicAndShifts) {
  const std::string body = R"(
  mul.lo.u32 %r5, %r1, -1640531535;
  cvt.u64.u32 %rd4, %r5;
  shl.b64 %rd4, %rd4, 32;
  cvt.u64.u32 %rd5, %r1;
  or.b64 %rd4, %rd4, %rd5;
  add.u32 %r6, %r1, 1;
  cvt.u64.u32 %rd5, %r6;
  neg.s64 %rd5, %rd5;
  and.b64 %rd6, %rd4, %rd5;
  xor.b64 %rd7, %rd4, %rd5;
  or.b64 %rd6, %rd6, 255;
  xor.b64 %rd6, %rd6, %rd7;
  add.u32 %r7, %r1, %r1;
  add.u32 %r8, %r1, 40;
  shl.b64 %rd7, %rd4, %r7;
  xor.b64 %rd6, %rd6, %rd7;
  shr.u64 %rd7, %rd4, %r8;
  add.s64 %rd6, %rd6, %rd7;
  shr.s64 %rd7, %rd4, %r8;
  xor.b64 %rd6, %rd6, %rd7;
  shr.b64 %rd7, %rd5, %r7;
  add.s64 %rd6, %rd6, %rd7;
  shl.b64 %rd7, %rd5, %r8;
  xor.b64 %rd6, %rd6, %rd7;
  shr.s64 %rd7, %rd5, 3;
  add.s64 %rd6, %rd6, %rd7;
  shr.u64 %rd7, %rd6, 32;
  cvt.u32.u64 %r9, %rd7;
  cvt.u32.u64 %r10, %rd6;
  xor.b32 %r9, %r9, %r10;
  st.global.u32 [%rd3], %r9;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint64_t a = uint64_t{t * 0x9E3779B1u} << 32 | t;
    const uint64_t b = 0 - uint64_t{t + 1};
    const uint32_t two_t = 2 * t, far = t + 40;
    const auto logical_left = [](uint64_t v, uint32_t n) { return n >= 64 ? 0 : v << n; };
    const auto logical_right = [](uint64_t v, uint32_t n) { return n >= 64 ? 0 : v >> n; };
    const auto arithmetic = [](uint64_t v, uint32_t n) {
      return static_cast<uint64_t>(static_cast<int64_t>(v) >> std::min(n, 63u));
    };
    uint64_t r = ((a & b) | 255) ^ (a ^ b);
    r ^= logical_left(a, two_t);
    r += logical_right(a, far);
    r ^= arithmetic(a, far);
    r += logical_right(b, two_t);
    r ^= logical_left(b, far);
    r += arithmetic(b, 3);
    return static_cast<uint32_t>(r >> 32) ^ static_cast<uint32_t>(r);
  });
}

// a = x << 20 (x = t * 0x9E3779B1), b = t - 16: a a + b a (the low 64 bits), min, max and
// negation of either sign, with immediates; then f64: d = (t - 16) + 0.1, d d + d (t - 16)
// fused, over d, the square root of its size and that root's reciprocal, d's reciprocal,
// min, max and negation. out[t] folds the words of both sums.
TEST(WarpFastPaths, DecodedSixtyFourBitProductsMinMaxAndDoubles) {
  const std::string body = R"(
  .reg .f64 %fd<8>;
  mul.lo.u32 %r5, %r1, -1640531535;
  cvt.u64.u32 %rd4, %r5;
  shl.b64 %rd4, %rd4, 20;
  sub.u32 %r6, %r1, 16;
  cvt.s64.s32 %rd5, %r6;
  mul.lo.s64 %rd6, %rd4, %rd4;
  mad.lo.s64 %rd6, %rd5, %rd4, %rd6;
  min.s64 %rd7, %rd5, 3;
  xor.b64 %rd6, %rd6, %rd7;
  max.u64 %rd7, %rd5, %rd4;
  add.s64 %rd6, %rd6, %rd7;
  min.u64 %rd7, %rd5, %rd4;
  xor.b64 %rd6, %rd6, %rd7;
  max.s64 %rd7, %rd5, -5;
  neg.s64 %rd7, %rd7;
  add.s64 %rd6, %rd6, %rd7;
  cvt.rn.f64.s32 %fd1, %r6;
  add.f64 %fd2, %fd1, 0d3FB999999999999A;
  mul.f64 %fd3, %fd2, %fd2;
  fma.rn.f64 %fd3, %fd2, %fd1, %fd3;
  div.rn.f64 %fd4, %fd3, %fd2;
  abs.f64 %fd5, %fd3;
  sqrt.rn.f64 %fd5, %fd5;
  rsqrt.approx.f64 %fd6, %fd5;
  add.f64 %fd4, %fd4, %fd6;
  rcp.rn.f64 %fd6, %fd2;
  sub.f64 %fd4, %fd4, %fd6;
  min.f64 %fd6, %fd4, %fd5;
  max.f64 %fd7, %fd4, %fd1;
  neg.f64 %fd7, %fd7;
  mul.f64 %fd6, %fd6, %fd7;
  add.f64 %fd4, %fd4, %fd6;
  mov.b64 %rd7, %fd4;
  xor.b64 %rd6, %rd6, %rd7;
  shr.u64 %rd7, %rd6, 32;
  cvt.u32.u64 %r7, %rd7;
  cvt.u32.u64 %r8, %rd6;
  xor.b32 %r7, %r7, %r8;
  st.global.u32 [%rd3], %r7;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint64_t a = uint64_t{t * 0x9E3779B1u} << 20;
    const int64_t b = static_cast<int64_t>(t) - 16;
    const auto ub = static_cast<uint64_t>(b);
    uint64_t r = a * a + ub * a;
    r ^= static_cast<uint64_t>(std::min<int64_t>(b, 3));
    r += std::max(ub, a);
    r ^= std::min(ub, a);
    r += 0 - static_cast<uint64_t>(std::max<int64_t>(b, -5));
    const auto db = static_cast<double>(b), d = db + 0.1;
    const double fused = std::fma(d, db, d * d), root = std::sqrt(std::fabs(fused));
    double v = fused / d + 1.0 / std::sqrt(root) - 1.0 / d;
    v += std::min(v, root) * -std::max(v, db);
    r ^= std::bit_cast<uint64_t>(v);
    return static_cast<uint32_t>(r >> 32) ^ static_cast<uint32_t>(r);
  });
}

// setp on 64 bits: a = t << 33 against c = 2^37 (t 16), signed against b = -(t + 1) and
// unsigned against it (b is above every a as unsigned), an f64 pair with p|q, and a compare
// with an immediate. out[t] packs the predicates.
TEST(WarpFastPaths, DecodedSixtyFourBitComparisons) {
  const std::string body = R"(
  .reg .f64 %fd<4>;
  cvt.u64.u32 %rd4, %r1;
  shl.b64 %rd4, %rd4, 33;
  add.u32 %r5, %r1, 1;
  cvt.u64.u32 %rd5, %r5;
  neg.s64 %rd5, %rd5;
  setp.lt.s64 %p1, %rd5, %rd4;
  setp.lo.u64 %p2, %rd4, %rd5;
  setp.eq.u64 %p3, %rd4, 137438953472;
  setp.ge.s64 %p4|%p5, %rd4, 68719476736;
  cvt.rn.f64.u32 %fd1, %r1;
  mov.f64 %fd2, 0d4028000000000000;
  setp.gt.f64 %p6|%p7, %fd1, %fd2;
)" + packed_predicates({"%p1", "%p2", "%p3", "%p4", "%p5", "%p6", "%p7"}) + R"(
  st.global.u32 [%rd3], %r6;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) {
    const uint64_t a = uint64_t{t} << 33;
    const bool p4 = a >= (uint64_t{1} << 36), p6 = t > 12;
    return 1u | 2u | (a == uint64_t{1} << 37 ? 4u : 0u) | (p4 ? 8u : 16u) | (p6 ? 32u : 64u);
  });
}

}  // namespace
}  // namespace gpusim::exec
