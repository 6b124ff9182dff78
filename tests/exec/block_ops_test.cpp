// cp.async (copies, zero fill, ignore-src, errors), bar.red (__syncthreads_count/and/or),
// shf, trap and the reserved shared memory registers, on hand-written PTX; results worked
// out by hand.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "exec/ptx_run.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::exec {
namespace {

std::string error_of(const std::string& ptx, uint32_t threads = 32) {
  try {
    run_ptx(ptx, threads);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Each thread writes 3t+1 to out[t]; the block copies out[] to shared memory with cp.async,
// waits, and thread t writes back what thread 31-t copied.
TEST(AsyncCopy, CopiesGlobalToSharedOnceWaited) {
  const Result r = run_ptx(kernel_with_body("mad.lo.s32 %r5, %r1, 3, 1;\nst.global.u32 [%rd3], %r5;\nbar.sync 0;\n"
                                            "mov.u32 %r6, sm;\nshl.b32 %r7, %r1, 2;\nadd.s32 %r8, %r6, %r7;\n"
                                            "cp.async.ca.shared.global [%r8], [%rd3], 4;\ncp.async.commit_group;\n"
                                            "cp.async.wait_group 0;\nbar.sync 0;\n"
                                            "sub.s32 %r9, 124, %r7;\nadd.s32 %r9, %r6, %r9;\nld.shared.u32 %r5, [%r9];\n"
                                            "st.global.u32 [%rd3], %r5;\nret;"),
                           32);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], (31 - t) * 3 + 1) << t;
}

// src-size copies only the first bytes and zeroes the rest; a true ignore-src predicate
// copies nothing and zeroes all.
TEST(AsyncCopy, ZeroFillsPastTheSourceSize) {
  const Result r = run_ptx(
      kernel_with_body("mov.u32 %r5, 0x44332211;\nst.global.u32 [%rd3], %r5;\nbar.sync 0;\n"
                       "setp.ne.u32 %p1, %r1, 0;\n@%p1 bra DONE;\n"
                       "mov.u32 %r6, -1;\nst.shared.v4.u32 [sm], {%r6, %r6, %r6, %r6};\nst.shared.u32 [sm+16], %r6;\n"
                       "mov.u32 %r7, 5;\ncp.async.cg.shared.global.L2::128B [sm], [%rd1], 16, %r7;\n"
                       "setp.eq.u32 %p2, %r1, 0;\ncp.async.ca.shared.global [sm+16], [%rd1], 4, %p2;\n"
                       "cp.async.wait_all;\n"
                       "ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [sm];\nld.shared.u32 %r12, [sm+16];\n"
                       "st.global.v4.u32 [%rd1], {%r8, %r9, %r10, %r11};\nst.global.u32 [%rd1+16], %r12;\nDONE:\nret;"),
      32);
  EXPECT_EQ(r.out[0], 0x44332211u);
  EXPECT_EQ(r.out[1], 0x11u);  // the fifth byte, then zeros
  EXPECT_EQ(r.out[2], 0u);
  EXPECT_EQ(r.out[3], 0u);
  EXPECT_EQ(r.out[4], 0u);     // ignore-src: all zeros
  EXPECT_EQ(r.out[5], 0x44332211u);
}

TEST(AsyncCopy, BadCopiesAreErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"cp.async.ca.shared.global [sm+2], [%rd3], 4;", "misaligned shared cp.async destination of 4 bytes at 0x2"},
      {"cp.async.ca.shared.global [sm], [%rd3+2], 4;", "misaligned global cp.async source"},
      {"cp.async.ca.shared.global [sm], [%rd3+4096], 4;", "out-of-bounds global cp.async source"},
      {"mov.u32 %r5, 8;\ncp.async.ca.shared.global [sm], [%rd3], 4, %r5;", "cp.async src-size 8 is more than its copy size 4"},
      {"cp.async.cg.shared.global [sm], [%rd3], 4;", "cp.async.cg copies 16 bytes"},
      {"cp.async.ca.shared.global [sm], [%rd3], 12;", "the copy size must be 4, 8 or 16"},
      {"cp.async.bulk.shared::cluster.global [sm], [%rd3], 16;", "'cp.async.bulk' (the tensor memory accelerator)"},
  };
  for (const auto& [body, message] : cases) {
    const std::string error = error_of(kernel_with_body(std::string(body) + "\nret;"));
    EXPECT_NE(error.find(message), std::string::npos) << body << ": " << error;
  }
}

// 64 threads: thread t votes t % 3 == 0 (22 of them), t < 64 (all), t == 40 (one); the barrier
// is reused for each, and every thread gets each block-wide result.
TEST(BarrierReduction, CountAndOrOverTheBlock) {
  const Result r = run_ptx(kernel_with_body("rem.u32 %r5, %r1, 3;\nsetp.eq.u32 %p1, %r5, 0;\n"
                                            "bar.red.popc.u32 %r6, 0, %p1;\n"
                                            "setp.lt.u32 %p2, %r1, 64;\nbar.red.and.pred %p3, 0, %p2;\n"
                                            "setp.eq.u32 %p4, %r1, 40;\nbar.red.or.pred %p5, 0, !%p4;\n"
                                            "setp.ne.u32 %p6, %r1, 40;\nbar.red.and.pred %p7, 0, %p6;\n"
                                            "selp.u32 %r7, 100, 0, %p3;\nselp.u32 %r8, 1000, 0, %p5;\n"
                                            "selp.u32 %r9, 10000, 0, %p7;\n"
                                            "add.s32 %r6, %r6, %r7;\nadd.s32 %r6, %r6, %r8;\nadd.s32 %r6, %r6, %r9;\n"
                                            "st.global.u32 [%rd3], %r6;\nret;"),
                           64, 2);
  for (uint32_t t = 0; t < 128; ++t) EXPECT_EQ(r.out[t], 22u + 100u + 1000u) << t;
}

TEST(BitOps, FunnelShifts) {
  const auto one = [](const std::string& op, uint32_t n) {
    return run_ptx(kernel_with_body("mov.u32 %r5, 0x89ABCDEF;\nmov.u32 %r6, 0x01234567;\n" + op + " %r7, %r5, %r6, " +
                                    std::to_string(n) + ";\nst.global.u32 [%rd3], %r7;\nret;"),
                   1)
        .out[0];
  };
  // {b:a} = 0x01234567'89ABCDEF.
  EXPECT_EQ(one("shf.l.wrap.b32", 8), 0x23456789u);
  EXPECT_EQ(one("shf.l.wrap.b32", 40), 0x23456789u);  // 40 mod 32
  EXPECT_EQ(one("shf.l.clamp.b32", 40), 0x89ABCDEFu);  // 32: a itself
  EXPECT_EQ(one("shf.r.wrap.b32", 8), 0x6789ABCDu);
  EXPECT_EQ(one("shf.r.clamp.b32", 32), 0x01234567u);  // b itself
  EXPECT_EQ(one("shf.r.clamp.b32", 0), 0x89ABCDEFu);
}

TEST(BlockOps, TrapAbortsTheKernel) {
  EXPECT_NE(error_of(kernel_with_body("setp.eq.u32 %p1, %r1, 5;\n@%p1 trap;\nret;")).find("thread (5,0,0): trap: the kernel aborted"),
            std::string::npos);
  EXPECT_EQ(error_of(kernel_with_body("setp.eq.u32 %p1, %r1, 99;\n@%p1 trap;\nret;")), "");  // no thread traps
}

// The reserved region (1 KB) follows the kernel's 1 KB of static shared memory; offset_1 is its
// second half, and a store there is in bounds.
TEST(BlockOps, ReservedSharedMemoryFollowsTheKernels) {
  const auto value = [](const std::string& reg) {
    return run_ptx(kernel_with_body("mov.u32 %r6, sm;\nmov.u32 %r5, " + reg + ";\nst.shared.u32 [%r5], %r5;\nst.global.u32 [%rd3], %r5;\nret;"), 1)
        .out[0];
  };
  EXPECT_EQ(value("%reserved_smem_offset_begin"), 1024u);
  EXPECT_EQ(value("%reserved_smem_offset_0"), 1024u);
  EXPECT_EQ(value("%reserved_smem_offset_1"), 1536u);
  EXPECT_EQ(value("%reserved_smem_offset_cap"), 1024u);
  EXPECT_NE(error_of(kernel_with_body("mov.u32 %r6, sm;\nmov.u32 %r5, %reserved_smem_offset_end;\nst.shared.u32 [%r5], %r5;\nret;"), 1)
                .find("out-of-bounds shared store of 4 bytes at 0x800"),
            std::string::npos);
}

// --out-of-bounds continue: lanes 30 and 31 read past the 32-word buffer (zeros), lane 31
// also writes past it (dropped); each access is counted at its instruction, and the first
// is described as the fault would have been.
TEST(OutOfBounds, ContinueReadsZerosDropsStoresAndCounts) {
  const std::string body = "add.s32 %r5, %r1, 100;\nst.global.u32 [%rd3], %r5;\nbar.sync 0;\n"
                           "ld.global.u32 %r6, [%rd3+8];\nbar.sync 0;\nst.global.u32 [%rd3], %r6;\n"
                           "setp.eq.u32 %p1, %r1, 31;\n@%p1 st.global.u32 [%rd3+128], %r5;\nret;";
  EXPECT_NE(error_of(kernel_with_body(body)).find("thread (30,0,0): out-of-bounds global load of 4 bytes"),
            std::string::npos);
  OutOfBoundsLog log;
  const Result r = run_ptx(kernel_with_body(body), 32, 1, 1'000'000, nullptr, &log);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t < 30 ? t + 102 : 0u) << t;
  EXPECT_EQ(log.loads, 2u);
  EXPECT_EQ(log.stores, 1u);
  ASSERT_EQ(log.sites.size(), 2u);
  EXPECT_EQ(log.sites[0].count, 2u);
  EXPECT_NE(log.sites[0].first.find("thread (30,0,0): out-of-bounds global load of 4 bytes"), std::string::npos)
      << log.sites[0].first;
  EXPECT_EQ(log.sites[1].count, 1u);
  EXPECT_NE(log.sites[1].first.find("thread (31,0,0): out-of-bounds global store"), std::string::npos);
}

// Half-precision atomics (atomicAdd on __half2 and __nv_bfloat16): 32 lanes add (1.0, 2.0) as
// f16x2 to word 0, giving (32.0, 64.0) = 0x5000, 0x5400; 0.25 as bf16 to word 1, giving
// 8.0 = 0x4100; min of f16 keeps the smallest (-3.0 = 0xC200). Float atomics other than add,
// exch and cas (and min/max on halves) are errors.
TEST(Atomics, HalfPrecision) {
  const Result r = run_ptx(kernel_with_body(".reg .b16 %rs<8>;\nmov.b32 %r5, 0x40003C00;\n"
                                            "atom.global.add.noftz.f16x2 %r6, [%rd1], %r5;\n"
                                            "mov.b16 %rs1, 0x3E80;\natom.global.add.noftz.bf16 %rs2, [%rd1+4], %rs1;\n"
                                            "mov.b16 %rs3, 0xC200;\natom.global.min.noftz.f16 %rs4, [%rd1+8], %rs3;\nret;"),
                           32);
  EXPECT_EQ(r.out[0], 0x54005000u);
  EXPECT_EQ(r.out[1], 0x4100u);
  EXPECT_EQ(r.out[2], 0xC200u);
  EXPECT_NE(error_of(kernel_with_body("atom.global.min.f32 %r6, [%rd1], 1.0;\nret;"))
                .find("atom on f32: only add, min and max (half types), exch and cas"),
            std::string::npos);
}

// A warp's atomics apply lane after lane, in lane order, also where its addresses are found
// for the whole warp (one bounds check, exec/memory_ops.cpp). Lane t adds t to word (7t) % 8
// (the lanes t = w', w' + 8, ... share a word): in shared memory each gets the sum of the lanes
// below it on its word, sum over k >= 1 of (t - 8k); in global memory word w ends at the sum
// of its four lanes, 4 t0 + 48 with t0 = (8 - w) % 8. A lane out of bounds faults as it did.
TEST(Atomics, LanesUpdateInLaneOrderAtScatteredWords) {
  const std::string word = "mul.lo.u32 %r5, %r1, 7;\nand.b32 %r5, %r5, 7;\nshl.b32 %r5, %r5, 2;\n";
  const Result shared = run_ptx(kernel_with_body(word + "setp.lt.u32 %p1, %r1, 8;\nshl.b32 %r6, %r1, 2;\n"
                                                        "mov.u32 %r8, sm;\nadd.u32 %r6, %r8, %r6;\n"
                                                        "@%p1 st.shared.u32 [%r6], 0;\nbar.sync 0;\n"
                                                        "add.u32 %r6, %r8, %r5;\natom.shared.add.u32 %r7, [%r6], %r1;\n"
                                                        "st.global.u32 [%rd3], %r7;\nret;"),
                                       32);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t below = 0;
    for (uint32_t k = 1; k <= t / 8; ++k) below += t - 8 * k;
    EXPECT_EQ(shared.out[t], below) << t;
  }
  const Result global = run_ptx(kernel_with_body(word + "cvt.u64.u32 %rd4, %r5;\nadd.s64 %rd4, %rd1, %rd4;\n"
                                                        "atom.global.add.u32 %r7, [%rd4], %r1;\nret;"),
                                32);
  for (uint32_t w = 0; w < 8; ++w) EXPECT_EQ(global.out[w], 4 * ((8 - w) % 8) + 48) << w;
  for (uint32_t w = 8; w < 32; ++w) EXPECT_EQ(global.out[w], 0u) << w;
  EXPECT_NE(error_of(kernel_with_body("setp.eq.u32 %p1, %r1, 31;\n@%p1 add.s64 %rd3, %rd3, 4096;\n"
                                      "atom.global.add.u32 %r7, [%rd3], 1;\nret;"))
                .find("thread (31,0,0): out-of-bounds global atomic of 4 bytes"),
            std::string::npos);
}

// 32-bit integer adds, each lane given the word's value before its own add, in lane order:
// lanes 0-15 add 1 as s32 to word 0, from 0x7FFFFFF8 (past the largest s32 at lane 8), lanes
// 16-31 add 0xFFFFFFFD (-3) as u32 to word 1, from 5 (past 0 at lane 18).
TEST(Atomics, ThirtyTwoBitAddsWrapAndReturnTheWordBeforeEachLane) {
  const Result r = run_ptx(kernel_with_body("mov.u32 %r8, sm;\nsetp.eq.u32 %p1, %r1, 0;\nsetp.eq.u32 %p3, %r1, 1;\n"
                                            "@%p1 st.shared.u32 [%r8], 0x7FFFFFF8;\n@%p3 st.shared.u32 [%r8+4], 5;\nbar.sync 0;\n"
                                            "setp.lt.u32 %p2, %r1, 16;\n@%p2 atom.shared.add.s32 %r7, [%r8], 1;\n"
                                            "@!%p2 atom.shared.add.u32 %r7, [%r8+4], 0xFFFFFFFD;\n"
                                            "st.global.u32 [%rd3], %r7;\nret;"),
                           32);
  for (uint32_t t = 0; t < 16; ++t) EXPECT_EQ(r.out[t], 0x7FFFFFF8u + t) << t;
  for (uint32_t t = 16; t < 32; ++t) EXPECT_EQ(r.out[t], 5u - 3u * (t - 16)) << t;  // modulo 2^32
}

// Every operation on one shared word, by 32 lanes in lane order: each lane's returned word
// and the word at the end (written by the second block's thread 0, out[32]). `address` is
// "sm" (each lane's address on its own) or "%r8" (the warp's span, one bounds check); `operands`
// sets %r5 (and %r6 for cas) from the lane %r1.
struct OneWord {
  std::vector<uint32_t> returned;
  uint32_t last = 0;
};
OneWord atomics_on_one_word(const std::string& op, uint32_t initial, const std::string& operands, const std::string& address) {
  const std::string extra = op.find(".cas.") != std::string::npos ? ", %r6" : "";
  const Result r = run_ptx(kernel_with_body("mov.u32 %r8, sm;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [sm], " +
                                                std::to_string(initial) + ";\nbar.sync 0;\n" + operands + "\n" + op + " %r7, [" +
                                                address + "], %r5" + extra + ";\nst.global.u32 [%rd3], %r7;\nbar.sync 0;\n"
                                                "setp.eq.u32 %p2, %r4, 32;\n@%p2 ld.shared.u32 %r7, [sm];\n@%p2 st.global.u32 [%rd3], %r7;\nret;"),
                           32, 2);
  return {std::vector<uint32_t>(r.out.begin(), r.out.begin() + 32), r.out[32]};
}

// Worked out by hand from the PTX ISA's definitions. Operand 3t - 50 is negative as s32 for
// t < 17 and past 2^32 - 50 as u32, so signed and unsigned min and max differ; inc counts
// 0..9 and wraps (operand 9); dec counts down from 2 and wraps to its operand 4 below 0; cas
// swaps t for t + 1 while the word is t, and lane 10's compare of 0 fails, so the word stays 10.
TEST(Atomics, EachOperationOnOneWordInLaneOrder) {
  const uint32_t wrap = 0xFFFFFFFFu - 49;  // 3t - 50 at t = 0, as u32
  struct Case {
    std::string op;
    uint32_t initial;
    std::string operands;
    std::function<uint32_t(uint32_t)> returned;
    uint32_t last;
  };
  const std::string three_t_less_50 = "mad.lo.s32 %r5, %r1, 3, -50;";
  const Case cases[] = {
      {"atom.shared.max.s32", static_cast<uint32_t>(-100), three_t_less_50,
       [](uint32_t t) { return t == 0 ? static_cast<uint32_t>(-100) : 3 * (t - 1) - 50; }, 43},
      {"atom.shared.max.u32", 0, three_t_less_50,
       [&](uint32_t t) { return t == 0 ? 0 : wrap + 3 * std::min(t - 1, 16u); }, wrap + 48},
      {"atom.shared.min.s32", 1000, three_t_less_50, [](uint32_t t) { return t == 0 ? 1000 : static_cast<uint32_t>(-50); },
       static_cast<uint32_t>(-50)},
      {"atom.shared.min.u32", 1000, three_t_less_50, [](uint32_t t) { return t <= 17 ? 1000 : 1; }, 1},
      {"atom.shared.inc.u32", 0, "mov.u32 %r5, 9;", [](uint32_t t) { return t % 10; }, 2},
      {"atom.shared.dec.u32", 2, "mov.u32 %r5, 4;", [](uint32_t t) { return (t % 5 <= 2) ? 2 - t % 5 : 7 - t % 5; }, 0},
      {"atom.shared.and.b32", 0xFFFFFFFFu, "shl.b32 %r5, 1, %r1;\nnot.b32 %r5, %r5;",
       [](uint32_t t) { return 0xFFFFFFFFu << t; }, 0},
      {"atom.shared.or.b32", 0, "shl.b32 %r5, 1, %r1;", [](uint32_t t) { return (1u << t) - 1; }, 0xFFFFFFFFu},
      {"atom.shared.xor.b32", 0, "mov.u32 %r5, 0x80000001;", [](uint32_t t) { return t % 2 ? 0x80000001u : 0u; }, 0},
      {"atom.shared.exch.b32", 77, "mov.u32 %r5, %r1;", [](uint32_t t) { return t == 0 ? 77 : t - 1; }, 31},
      {"atom.shared.cas.b32", 0, "setp.ne.u32 %p3, %r1, 10;\nselp.u32 %r5, %r1, 0, %p3;\nadd.u32 %r6, %r1, 1;",
       [](uint32_t t) { return std::min(t, 10u); }, 10},
  };
  for (const Case& c : cases) {
    for (const std::string address : {"sm", "%r8"}) {
      const OneWord got = atomics_on_one_word(c.op, c.initial, c.operands, address);
      for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(got.returned[t], c.returned(t)) << c.op << " [" << address << "], lane " << t;
      EXPECT_EQ(got.last, c.last) << c.op << " [" << address << "]";
    }
  }
}

// A 64-bit add carries into the high word: lane t adds 2^31 to a u64 word from 0, gets t 2^31
// back, and stores its high half, t / 2; the last word's high half is 32 / 2.
TEST(Atomics, SixtyFourBitAddsCarryIntoTheHighWord) {
  for (const std::string address : {"sm", "%r8"}) {
    const Result r = run_ptx(kernel_with_body("mov.u32 %r8, sm;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u64 [sm], 0;\nbar.sync 0;\n"
                                              "mov.u64 %rd5, 0x80000000;\natom.shared.add.u64 %rd6, [" + address + "], %rd5;\n"
                                              "shr.u64 %rd6, %rd6, 32;\ncvt.u32.u64 %r7, %rd6;\nst.global.u32 [%rd3], %r7;\nbar.sync 0;\n"
                                              "setp.eq.u32 %p2, %r4, 32;\n@%p2 ld.shared.u32 %r7, [sm+4];\n@%p2 st.global.u32 [%rd3], %r7;\nret;"),
                             32, 2);
    for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.out[t], t / 2) << address << ", lane " << t;
    EXPECT_EQ(r.out[32], 16u) << address;
  }
}

}  // namespace
}  // namespace gpusim::exec
