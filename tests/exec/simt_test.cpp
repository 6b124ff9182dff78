// Functional SIMT execution of small hand-written PTX kernels: divergence and
// reconvergence, loops with per-lane trip counts, early exit, barriers, shuffles, and
// the faults a broken kernel must report.
#include <gtest/gtest.h>

#include <cstring>

#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

// Runs `body` as kernel k(u32* out) on `threads` threads in `blocks` blocks; out has one
// word per thread, zeroed.
Result run(const std::string& body, uint32_t threads, uint32_t blocks = 1, uint64_t budget = 1'000'000) {
  return run_ptx(kernel_with_body(body), threads, blocks, budget);
}

TEST(Simt, IfElseRunsBothPathsMaskedAndReconverges) {
  // out[t] = (t odd ? 100 : 200) + 1, the +1 after reconvergence.
  const Result r = run(R"(
  and.b32 %r5, %r1, 1;
  setp.eq.s32 %p1, %r5, 0;
  @%p1 bra EVEN;
  mov.u32 %r6, 100;
  bra.uni JOIN;
EVEN:
  mov.u32 %r6, 200;
JOIN:
  add.s32 %r6, %r6, 1;
  st.global.u32 [%rd3], %r6;
  ret;)", 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t % 2 ? 101u : 201u) << t;
  // 8 prologue + and, setp, bra; odd path mov, bra; even path mov; then add, st, ret.
  EXPECT_EQ(r.stats.warp_instructions, 8u + 3u + 2u + 1u + 3u);
  // Odd and even paths each run with 16 lanes.
  EXPECT_EQ(r.stats.thread_instructions, 32u * (8 + 3 + 3) + 16u * 3);
}

TEST(Simt, LoopWithPerLaneTripCountsAndNestedIf) {
  // out[t] = sum over i < t of (i odd ? 3 : 1): lanes leave the loop one by one.
  const Result r = run(R"(
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
LOOP:
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  and.b32 %r7, %r5, 1;
  setp.eq.s32 %p2, %r7, 0;
  @%p2 bra ADD1;
  add.s32 %r6, %r6, 3;
  bra.uni NEXT;
ADD1:
  add.s32 %r6, %r6, 1;
NEXT:
  add.s32 %r5, %r5, 1;
  bra.uni LOOP;
DONE:
  st.global.u32 [%rd3], %r6;
  ret;)", 40);
  for (uint32_t t = 0; t < 40; ++t) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < t; ++i) want += i % 2 ? 3 : 1;
    EXPECT_EQ(r.out[t], want) << t;
  }
}

TEST(Simt, ExitedLanesLeaveTheMask) {
  // Lanes >= 5 return early; the rest store after a barrier-free epilogue.
  const Result r = run(R"(
  setp.ge.u32 %p1, %r1, 5;
  @%p1 ret;
  add.s32 %r6, %r1, 1000;
  st.global.u32 [%rd3], %r6;
  ret;)", 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t < 5 ? 1000 + t : 0u) << t;
}

TEST(Simt, BarrierOrdersSharedMemoryAcrossWarps) {
  // Each thread writes its id to shared memory; after bar.sync it reads its neighbour's.
  const Result r = run(R"(
  mov.u32 %r8, sm;
  shl.b32 %r9, %r1, 2;
  add.s32 %r10, %r8, %r9;
  st.shared.u32 [%r10], %r1;
  bar.sync 0;
  add.s32 %r11, %r1, 1;
  rem.u32 %r11, %r11, %r3;
  shl.b32 %r11, %r11, 2;
  add.s32 %r11, %r8, %r11;
  ld.shared.u32 %r12, [%r11];
  st.global.u32 [%rd3], %r12;
  ret;)", 128, 2);
  for (uint32_t i = 0; i < 256; ++i) EXPECT_EQ(r.out[i], (i % 128 + 1) % 128) << i;
}

TEST(Simt, CountedBarrierWaitsOnlyForItsThreads) {
  // Warps 0 and 1 sync on barrier 1 for 64 threads; warp 2 never joins, yet they proceed.
  // Warp 2 signals barrier 2 with bar.arrive (no wait) that warp 0 waits on with 64 threads.
  const Result r = run(R"(
  setp.ge.u32 %p1, %r1, 64;
  @%p1 bra THIRD;
  bar.sync 1, 64;
  setp.ge.u32 %p2, %r1, 32;
  @%p2 bra STORE;
  bar.sync 2, 64;
STORE:
  st.global.u32 [%rd3], 7;
  ret;
THIRD:
  bar.arrive 2, 64;
  st.global.u32 [%rd3], 9;
  ret;)", 96);
  for (uint32_t t = 0; t < 96; ++t) EXPECT_EQ(r.out[t], t < 64 ? 7u : 9u) << t;
}

TEST(Simt, ShuffleDownAndBallot) {
  const Result r = run(R"(
  shfl.sync.down.b32 %r5|%p1, %r1, 3, 31, -1;
  setp.lt.u32 %p2, %r1, 10;
  vote.sync.ballot.b32 %r6, %p2, -1;
  selp.u32 %r7, 1000000, 0, %p1;
  add.s32 %r5, %r5, %r7;
  add.s32 %r5, %r5, %r6;
  st.global.u32 [%rd3], %r5;
  ret;)", 32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], (t + 3 <= 31 ? t + 3 + 1000000 : t) + 0x3FFu) << t;
}

// Operands per lane: the source lane from the register the result overwrites (idx), and c
// from a register, segments of 8 lanes in the first half-warp (c = 0x181f: bits 12:8 the
// segment mask 24, bits 4:0 the clamp 31) and the whole warp in the second (c = 31).
TEST(Simt, ShuffleReadsEachLanesOperandsBeforeItsResultIsWritten) {
  const Result r = run(R"(
  and.b32 %r4, %r1, 7;
  shfl.sync.idx.b32 %r4, %r1, %r4, 31, -1;
  setp.lt.u32 %p2, %r1, 16;
  selp.u32 %r6, 6175, 31, %p2;
  shfl.sync.down.b32 %r5|%p1, %r1, 2, %r6, -1;
  selp.u32 %r7, 1000, 0, %p1;
  add.s32 %r5, %r5, %r7;
  mul.lo.u32 %r4, %r4, 10000;
  add.s32 %r5, %r5, %r4;
  st.global.u32 [%rd3], %r5;
  ret;)", 32);
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t last = t < 16 ? (t | 7u) : 31u;  // the last lane of t's segment
    const uint32_t down = t + 2 <= last ? t + 2 + 1000 : t;
    EXPECT_EQ(r.out[t], (t & 7u) * 10000 + down) << t;
  }
}

std::string fault(const std::string& body, uint32_t threads, uint64_t budget = 1'000'000) {
  try {
    run(body, threads, 1, budget);
  } catch (const ExecError& e) {
    return e.what();
  }
  return "<no fault>";
}

// A register no instruction has written reads 0 in the lanes that did not write it (on the
// GPU its value is undefined; CUB stores such values from partial tiles and never uses them):
// lanes 0-15 write %r9 = 7, the others never do; %p5 is never written, so the guarded add
// does not run.
TEST(Simt, NeverWrittenRegistersReadZero) {
  const Result r = run_ptx(kernel_with_body("setp.lt.u32 %p1, %r1, 16;\n@%p1 mov.u32 %r9, 7;\nadd.s32 %r5, %r9, 1;\n"
                                            "@%p5 add.s32 %r5, %r5, 100;\nst.global.u32 [%rd3], %r5;\nret;"),
                           32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t < 16 ? 8u : 1u) << t;
}

// Lanes 0-15 shuffle down by 16: lane 0 reads lane 16, which is not among them.
TEST(Simt, ShuffleFromALaneNotTakingPartFaults) {
  const std::string what = fault(R"(
  setp.lt.u32 %p2, %r1, 16;
  @%p2 shfl.sync.down.b32 %r5, %r1, 16, 31, 65535;
  st.global.u32 [%rd3], %r5;
  ret;)", 32);
  EXPECT_NE(what.find("thread (0,0,0): shfl"), std::string::npos) << what;
  EXPECT_NE(what.find("shfl reads lane 16, which is not taking part in the shuffle"), std::string::npos) << what;
}

TEST(ExecFaults, OutOfBoundsStoreNamesKernelPcLineBlockAndThread) {
  const std::string msg = fault("add.s64 %rd4, %rd3, 4096;\nst.global.u32 [%rd4], %r1;\nret;", 32);
  EXPECT_NE(msg.find("kernel k, pc 9 (test.ptx:19, st), block (0,0,0), thread (0,0,0): out-of-bounds global store of 4 bytes"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("nearest buffer 'out'"), std::string::npos) << msg;
}

TEST(ExecFaults, MisalignedDivisionDeadlockAndRunaway) {
  EXPECT_NE(fault("add.s64 %rd4, %rd3, 2;\nst.global.u32 [%rd4], %r1;\nret;", 32).find("misaligned global store"),
            std::string::npos);
  EXPECT_NE(fault("div.u32 %r5, %r1, 0;\nret;", 32).find("integer division by zero"), std::string::npos);
  // Only the first warp reaches the barrier; the second has no way to arrive.
  const std::string deadlock = fault(R"(
  setp.ge.u32 %p1, %r1, 32;
  @%p1 bra SPIN;
  bar.sync 0;
  ret;
SPIN:
  bar.sync 1;
  ret;)", 64);
  EXPECT_NE(deadlock.find("barrier deadlock in block (0,0,0): warp 0 at barrier 0 (1 of 2 warps arrived), warp 1 at barrier 1"),
            std::string::npos)
      << deadlock;
  EXPECT_NE(fault("FOREVER:\nbra.uni FOREVER;", 32, 5000).find("more than 5000 warp instructions"), std::string::npos);
}

}  // namespace
}  // namespace gpusim::exec
