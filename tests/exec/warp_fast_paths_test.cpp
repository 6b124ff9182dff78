// The executor's full-warp shortcuts for memory (one progression of addresses, one copy or
// one read, a half-warp's row) against values worked out here. Each kernel runs on a full
// warp (the shortcuts) and on 31 threads (the general per-lane path, which must agree lane
// for lane). The register-to-register forms: lane_ops_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "exec/ptx_run.hpp"
#include "util/bits.hpp"

namespace gpusim::exec {
namespace {

// Each thread stores 3t + 1 at sm[t] (%r6: sm's address), then waits for the block.
constexpr const char* kFillShared = R"(
  mad.lo.u32 %r5, %r1, 3, 1;
  mov.u32 %r6, sm;
  shl.b32 %r7, %r1, 2;
  add.u32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r5;
  bar.sync 0;
  )";

// Each thread stores 3t + 1 at sm[t] (consecutive), then reads sm[31 - t] (a descending
// progression, stride -4) and sm[5] (every lane one address): out[t] = 1000 * sm[31 - t] + sm[5].
TEST(WarpFastPaths, ConsecutiveDescendingAndUniformSharedAccesses) {
  const std::string body = std::string(kFillShared) + R"(
  sub.u32 %r9, 31, %r1;
  shl.b32 %r9, %r9, 2;
  add.u32 %r9, %r6, %r9;
  ld.shared.u32 %r10, [%r9];
  ld.shared.u32 %r11, [%r6+20];
  mad.lo.u32 %r12, %r10, 1000, %r11;
  st.global.u32 [%rd3], %r12;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t threads) {
    const uint32_t mirrored = 31 - t < threads ? 3 * (31 - t) + 1 : 0;  // 31 threads: sm[31] was never written
    return 1000 * mirrored + 16;
  });
}

// The two rows of a 16-wide tile, half-warp by half-warp: each thread stores 3t + 1 at sm[t],
// then half 0 reads row 1 across (words 16..31) and half 1 row 0 (a progression per half,
// not one over the warp), and each half one word (word 7, word 16).
// out[t] = 1000 * sm[(t % 16) + 16 * (1 - t / 16)] + sm[7 + 9 * (t / 16)].
TEST(WarpFastPaths, HalfWarpRowsAndHalfWarpWords) {
  const std::string body = std::string(kFillShared) + R"(
  shr.u32 %r9, %r1, 4;
  and.b32 %r10, %r1, 15;
  sub.u32 %r11, 1, %r9;
  shl.b32 %r11, %r11, 4;
  add.u32 %r11, %r11, %r10;
  shl.b32 %r11, %r11, 2;
  add.u32 %r11, %r6, %r11;
  ld.shared.u32 %r12, [%r11];
  mad.lo.u32 %r13, %r9, 9, 7;
  shl.b32 %r13, %r13, 2;
  add.u32 %r13, %r6, %r13;
  ld.shared.u32 %r14, [%r13];
  mad.lo.u32 %r15, %r12, 1000, %r14;
  st.global.u32 [%rd3], %r15;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t threads) {
    const auto word = [threads](uint32_t w) { return w < threads ? 3 * w + 1 : 0; };  // 31 threads: sm[31] unwritten
    return 1000 * word(t % 16 + 16 * (1 - t / 16)) + word(7 + 9 * (t / 16));
  });
}

// Addresses whose first lanes look like a progression and the rest do not (word t*t mod 67,
// all different for t < 32): thread t stores t + 1 there, reads it back, and reads word t.
// out[t] = 1000 * (t + 1) + (j + 1 where j*j mod 67 = t, or 0).
TEST(WarpFastPaths, ScatteredAddressesThatStartLikeAProgression) {
  const std::string body = R"(
  mul.lo.u32 %r5, %r1, %r1;
  rem.u32 %r5, %r5, 67;
  shl.b32 %r5, %r5, 2;
  mov.u32 %r6, sm;
  add.u32 %r5, %r6, %r5;
  add.u32 %r7, %r1, 1;
  st.shared.u32 [%r5], %r7;
  bar.sync 0;
  ld.shared.u32 %r8, [%r5];
  shl.b32 %r9, %r1, 2;
  add.u32 %r9, %r6, %r9;
  ld.shared.u32 %r10, [%r9];
  mad.lo.u32 %r11, %r8, 1000, %r10;
  st.global.u32 [%rd3], %r11;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t threads) {
    uint32_t at_t = 0;
    for (uint32_t j = 0; j < threads; ++j)
      if (j * j % 67 == t) at_t = j + 1;
    return 1000 * (t + 1) + at_t;
  });
}

// A sub-word signed load from one address sign-extends into every lane's 32-bit register; an
// unsigned one does not.
TEST(WarpFastPaths, UniformSubWordLoadsExtendByTheirType) {
  const std::string body = R"(
  mov.u32 %r6, sm;
  mov.u32 %r5, 0xF0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 st.shared.u8 [%r6+3], %r5;
  bar.sync 0;
  ld.shared.s8 %r7, [%r6+3];
  ld.shared.u8 %r8, [%r6+3];
  add.u32 %r9, %r7, %r8;
  st.global.u32 [%rd3], %r9;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t, uint32_t) { return 0xFFFFFFF0u + 0xF0u; });
}

// Consecutive elements of other widths than 32 bits, one per lane: bytes (signed and not),
// signed halves and 64-bit words, each read for the warp at once and widened lane by lane.
// Thread t stores 0x80 + t at byte t, 0x8000 + 7t at half 32 + t, t << 40 | 5 at word 16 + t.
// out[t] = s8 + u8 + s16 + 100 * (u64 >> 40) + low word of u64
//        = (t - 128) + (t + 128) + (7t - 32768) + 100t + 5 = 109t - 32763 (mod 2^32).
TEST(WarpFastPaths, ConsecutiveBytesHalvesAndDoubleWordsWidenByTheirType) {
  const std::string body = R"(
  mov.u32 %r6, sm;
  add.u32 %r7, %r6, %r1;
  add.u32 %r8, %r1, 0x80;
  st.shared.u8 [%r7], %r8;
  shl.b32 %r9, %r1, 1;
  add.u32 %r9, %r6, %r9;
  mad.lo.u32 %r10, %r1, 7, 0x8000;
  st.shared.u16 [%r9+64], %r10;
  shl.b32 %r11, %r1, 3;
  add.u32 %r11, %r6, %r11;
  cvt.u64.u32 %rd4, %r1;
  shl.b64 %rd4, %rd4, 40;
  or.b64 %rd4, %rd4, 5;
  st.shared.u64 [%r11+128], %rd4;
  bar.sync 0;
  ld.shared.s8 %r12, [%r7];
  ld.shared.u8 %r13, [%r7];
  add.u32 %r12, %r12, %r13;
  ld.shared.s16 %r13, [%r9+64];
  add.u32 %r12, %r12, %r13;
  ld.shared.u64 %rd5, [%r11+128];
  shr.u64 %rd6, %rd5, 40;
  cvt.u32.u64 %r13, %rd6;
  mad.lo.u32 %r12, %r13, 100, %r12;
  cvt.u32.u64 %r13, %rd5;
  add.u32 %r12, %r12, %r13;
  st.global.u32 [%rd3], %r12;
  ret;)";
  expect_on_full_and_partial_warps(body, [](uint32_t t, uint32_t) { return 109 * t - 32763u; });
}

// Each load's and store's StepResult::one_run, which the memory system takes in place of
// util::consecutive_lanes, against that function on the addresses the step reports: one
// warp stepped by hand through one-run accesses (words, a v2 pair per lane, shared and
// global) and others (a stride of two words, descending, one word for all, a guarded lane).
TEST(WarpFastPaths, OneRunIsWhatConsecutiveLanesFinds) {
  const kernel::Module m = frontend::parse_ptx(kernel_with_body(R"(
  mov.u32 %r6, sm;
  shl.b32 %r7, %r1, 2;
  add.u32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r1;
  ld.shared.u32 %r9, [%r8];
  shl.b32 %r10, %r1, 3;
  add.u32 %r11, %r6, %r10;
  ld.shared.v2.u32 {%r12, %r13}, [%r11];
  ld.shared.u32 %r12, [%r11];
  sub.u32 %r13, 31, %r1;
  shl.b32 %r13, %r13, 2;
  add.u32 %r13, %r6, %r13;
  ld.shared.u32 %r14, [%r13];
  ld.shared.u32 %r14, [%r6+8];
  st.global.u32 [%rd3], %r9;
  ld.global.u32 %r15, [%rd3];
  setp.ne.u32 %p1, %r1, 7;
  @%p1 ld.global.u32 %r15, [%rd3];
  ret;)"),
                                               "test.ptx");
  DeviceMemory memory;
  memory.map_variables(m);
  const uint64_t out = memory.allocate("out", 32 * 4, kernel::kGlobalHeapBase);
  LaunchConfig launch;
  launch.block = {32, 1, 1};
  launch.params.resize(8);
  std::memcpy(launch.params.data(), &out, 8);
  Executor ex(m.kernels.at(0), memory, launch);
  BlockState b = ex.make_block(0);
  WarpState w;
  ex.reset_warp(w, b, 0);
  int runs = 0, others = 0;
  for (int steps = 0; steps < 100 && ex.peek(w) >= 0; ++steps) {
    const StepResult r = ex.step(w, b);
    if (!r.instruction || !r.one_run) continue;
    const bool found = r.executed_mask == 0xFFFFFFFFu && util::consecutive_lanes(r.addresses, r.access_bytes);
    EXPECT_EQ(*r.one_run, found) << "instruction " << r.instruction->line;
    ++(found ? runs : others);
  }
  EXPECT_EQ(runs, 5);    // the shared word store and load, the v2 pairs, the global store and load
  EXPECT_EQ(others, 5);  // the parameter, two words apart, descending, one word for all, the guarded load
}

}  // namespace
}  // namespace gpusim::exec
