// __activemask, __reduce_*_sync, __match_*_sync, __byte_perm, __syncwarp and __nanosleep
// on hand-written PTX, results worked out by hand.
#include <gtest/gtest.h>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

uint32_t lane_result(const std::string& body, uint32_t lane) { return run_ptx(kernel_with_body(body), 32).out.at(lane); }

TEST(WarpOps, ActivemaskInsideABranch) {
  const Result r = run_ptx(kernel_with_body("mov.u32 %r5, 0;\nsetp.lt.u32 %p1, %r1, 10;\n@!%p1 bra L;\n"
                                            "activemask.b32 %r5;\nL:\nbar.warp.sync -1;\nst.global.u32 [%rd3], %r5;\nret;"),
                           32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t < 10 ? 0x3FFu : 0u) << t;
}

TEST(WarpOps, ReduxOverTheWarp) {
  const auto redux = [](const std::string& op, const std::string& value) {
    return lane_result(value + "redux.sync." + op + " %r5, %r6, -1;\nst.global.u32 [%rd3], %r5;\nret;", 7);
  };
  EXPECT_EQ(redux("add.u32", "mov.u32 %r6, %r1;\n"), 496u);  // 0 + 1 + ... + 31
  EXPECT_EQ(redux("min.s32", "add.s32 %r6, %r1, -16;\n"), static_cast<uint32_t>(-16));
  EXPECT_EQ(redux("max.u32", "mov.u32 %r6, %r1;\n"), 31u);
  EXPECT_EQ(redux("and.b32", "or.b32 %r6, %r1, 256;\n"), 256u);
  EXPECT_EQ(redux("or.b32", "mov.u32 %r6, %r1;\n"), 31u);
  EXPECT_EQ(redux("xor.b32", "mov.u32 %r6, %r1;\n"), 0u);  // every bit is set in 16 of 0..31
}

TEST(WarpOps, MatchAnyAndAll) {
  const Result any = run_ptx(kernel_with_body("and.b32 %r6, %r1, 3;\nmatch.any.sync.b32 %r5, %r6, -1;\n"
                                              "st.global.u32 [%rd3], %r5;\nret;"),
                             32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(any.out[t], 0x11111111u << (t % 4)) << t;
  const std::string all = "match.all.sync.b32 %r5|%p1, %r6, -1;\nselp.u32 %r7, 1, 0, %p1;\nadd.s32 %r5, %r5, %r7;\n"
                          "st.global.u32 [%rd3], %r5;\nret;";
  EXPECT_EQ(lane_result("mov.u32 %r6, 42;\n" + all, 3), 0xFFFFFFFFu + 1u);  // everyone: the mask, and p
  EXPECT_EQ(lane_result("mov.u32 %r6, %r1;\n" + all, 3), 0u);
}

TEST(WarpOps, MemberMaskMustHoldTheCallingLanes) {
  try {
    run_ptx(kernel_with_body("setp.lt.u32 %p1, %r1, 16;\n@!%p1 bra L;\nredux.sync.add.u32 %r5, %r1, -1;\nL:\nret;"), 32);
    FAIL() << "no fault";
  } catch (const ExecError& e) {
    EXPECT_NE(std::string(e.what()).find("lane 16 of the member mask is not executing it"), std::string::npos) << e.what();
  }
}

TEST(WarpOps, BytePermute) {
  const auto prmt = [](const std::string& modifier, uint32_t a, uint32_t b, uint32_t c) {
    return lane_result("mov.u32 %r6, " + std::to_string(a) + ";\nmov.u32 %r7, " + std::to_string(b) + ";\nprmt.b32" +
                           modifier + " %r5, %r6, %r7, " + std::to_string(c) +
                           ";\nnanosleep.u32 100;\nst.global.u32 [%rd3], %r5;\nret;",
                       0);
  };
  // Bytes of {b, a}: 0x77665544'33221100.
  EXPECT_EQ(prmt("", 0x33221100u, 0x77665544u, 0x7531u), 0x77553311u);
  EXPECT_EQ(prmt(".f4e", 0x33221100u, 0x77665544u, 1), 0x44332211u);
  EXPECT_EQ(prmt(".b4e", 0x33221100u, 0x77665544u, 0), 0x55667700u);
  EXPECT_EQ(prmt(".rc8", 0x33221100u, 0x77665544u, 2), 0x22222222u);
  EXPECT_EQ(prmt(".ecl", 0x33221100u, 0x77665544u, 1), 0x33221111u);
  EXPECT_EQ(prmt(".ecr", 0x33221100u, 0x77665544u, 2), 0x22221100u);
  EXPECT_EQ(prmt(".rc16", 0x33221100u, 0x77665544u, 1), 0x33223322u);
  // Selector bit 3 replicates the chosen byte's sign bit.
  EXPECT_EQ(prmt("", 0x000080FFu, 0, 0x4449u), 0x000000FFu);
  EXPECT_EQ(prmt("", 0x000080FFu, 0, 0x444Au), 0x00000000u);
}

TEST(BitOps, BfindBmskAndWarpSize) {
  const auto one = [](const std::string& body) {
    return lane_result(body + "griddepcontrol.wait;\nst.global.u32 [%rd3], %r5;\nret;", 0);
  };
  EXPECT_EQ(one("bfind.u32 %r5, 65536;\n"), 16u);
  EXPECT_EQ(one("bfind.u32 %r5, 0;\n"), 0xFFFFFFFFu);                 // no bit set
  EXPECT_EQ(one("bfind.s32 %r5, -1;\n"), 0xFFFFFFFFu);                // all sign bits
  EXPECT_EQ(one("bfind.s32 %r5, -2;\n"), 0u);                         // ~(-2) = 1
  EXPECT_EQ(one("bfind.shiftamt.u32 %r5, 65536;\n"), 15u);            // 31 - 16
  EXPECT_EQ(one("bmsk.clamp.b32 %r5, 4, 8;\n"), 0xFF0u);
  EXPECT_EQ(one("bmsk.clamp.b32 %r5, 28, 8;\n"), 0xF0000000u);        // cut at bit 31
  EXPECT_EQ(one("bmsk.clamp.b32 %r5, 40, 8;\n"), 0u);                 // starts past the word
  EXPECT_EQ(one("bmsk.wrap.b32 %r5, 36, 8;\n"), 0xFF0u);              // 36 mod 32 = 4
  EXPECT_EQ(one("mov.u32 %r5, WARP_SZ;\n"), 32u);
}

}  // namespace
}  // namespace gpusim::exec
