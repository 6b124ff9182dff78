// cvt's rounding modifiers on conversions that lose precision: an integer or a double to a
// narrower float rounds to nearest (.rn), toward zero (.rz), down (.rm) or up (.rp), as the
// PTX ISA's cvt says. Expected bits worked out by hand from the IEEE 754 layouts.
#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace gpusim::exec
