// Functional blocks side by side (--threads with --functional or --sample): memory, counts
// and errors as on one thread, even where a block reads what an earlier block of the same
// launch wrote (results worked out by hand for one block after another); which kernels must
// run in order, and why.
#include <gtest/gtest.h>

#include <cstring>

#include "exec/access_ranges.hpp"
#include "exec/ptx_run.hpp"

namespace gpusim::exec {
namespace {

constexpr int kThreads = 4;

// Block b reads the 32 words block b-1 wrote (one contiguous span) and writes them plus one:
// one block after another, block b writes b+1.
TEST(BlockRounds, ABlockReadingAnEarlierBlocksStoresSeesThemAsInOrder) {
  const std::string ptx = kernel_with_body(
      "mov.u32 %r5, 0;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra W;\n"
      "sub.s64 %rd4, %rd3, 128;\nld.global.u32 %r5, [%rd4];\n"
      "W:\nadd.u32 %r5, %r5, 1;\nst.global.u32 [%rd3], %r5;\nret;");
  const Result one = run_ptx(ptx, 32, 200);
  const Result many = run_ptx(ptx, 32, 200, 1'000'000, nullptr, nullptr, kThreads);
  for (uint32_t i = 0; i < 200 * 32; ++i) ASSERT_EQ(one.out[i], i / 32 + 1) << i;
  EXPECT_EQ(many.out, one.out);
  EXPECT_EQ(many.stats.warp_instructions, one.stats.warp_instructions);
  EXPECT_EQ(many.stats.thread_instructions, one.stats.thread_instructions);
}

// The same through a column: lane l of block b reads word 64l + b - 1 (lanes 256 bytes apart,
// each lane's word noted apart) and writes word 64l + b.
TEST(BlockRounds, ABlockReadingAnEarlierBlocksColumnSeesItAsInOrder) {
  const std::string ptx = kernel_with_body(
      "mad.lo.s32 %r6, %r1, 64, %r2;\nmul.wide.u32 %rd4, %r6, 4;\nadd.s64 %rd4, %rd1, %rd4;\n"
      "mov.u32 %r5, 0;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 bra W;\n"
      "sub.s64 %rd5, %rd4, 4;\nld.global.u32 %r5, [%rd5];\n"
      "W:\nadd.u32 %r5, %r5, 1;\nst.global.u32 [%rd4], %r5;\nret;");
  const Result one = run_ptx(ptx, 32, 64);
  const Result many = run_ptx(ptx, 32, 64, 1'000'000, nullptr, nullptr, kThreads);
  for (uint32_t l = 0; l < 32; ++l)
    for (uint32_t b = 0; b < 64; ++b) ASSERT_EQ(one.out[64 * l + b], b + 1) << l << " " << b;
  EXPECT_EQ(many.out, one.out);
}

// Blocks that share nothing: a divergent loop, thread t of block b writing t*b + its trip count.
TEST(BlockRounds, IndependentBlocksGiveTheSameMemoryAndCounts) {
  const std::string ptx = kernel_with_body(
      "and.b32 %r6, %r4, 7;\nmov.u32 %r5, 0;\nL:\nsetp.ge.u32 %p1, %r5, %r6;\n@%p1 bra D;\n"
      "add.u32 %r5, %r5, 1;\nbra L;\nD:\nmad.lo.s32 %r7, %r1, %r2, %r5;\nst.global.u32 [%rd3], %r7;\nret;");
  const Result one = run_ptx(ptx, 64, 300);
  const Result many = run_ptx(ptx, 64, 300, 1'000'000, nullptr, nullptr, kThreads);
  for (uint32_t b = 0; b < 300; ++b)
    for (uint32_t t = 0; t < 64; ++t) ASSERT_EQ(one.out[64 * b + t], t * b + ((64 * b + t) & 7)) << b << " " << t;
  EXPECT_EQ(many.out, one.out);
  EXPECT_EQ(many.stats.warp_instructions, one.stats.warp_instructions);
  EXPECT_EQ(many.stats.thread_instructions, one.stats.thread_instructions);
  EXPECT_EQ(many.stats.predicated_on_threads, one.stats.predicated_on_threads);
}

std::string error_of(const std::string& ptx, uint32_t blocks, uint64_t budget, int host_threads) {
  try {
    run_ptx(ptx, 32, blocks, budget, nullptr, nullptr, host_threads);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Blocks 37 and 90 store (or reduce, a logged atomic) out of bounds: the first in block order
// is the error, as on one thread.
TEST(BlockRounds, TheFirstFailingBlockInOrderIsTheError) {
  for (const char* access : {"st.global.u32 [%rd3], %r4;", "red.global.add.u32 [%rd3], 1;"}) {
    const std::string ptx = kernel_with_body(
        "setp.eq.u32 %p1, %r2, 37;\nsetp.eq.or.u32 %p1, %r2, 90, %p1;\n@!%p1 bra D;\n"
        "add.s64 %rd3, %rd3, 1073741824;\nD:\n" + std::string(access) + "\nret;");
    const std::string one = error_of(ptx, 128, 1'000'000, 1);
    EXPECT_NE(one.find("block (37,0,0)"), std::string::npos) << one;
    EXPECT_EQ(error_of(ptx, 128, 1'000'000, kThreads), one);
  }
}

// Block 50 loops for ever: the budget runs out at the same instruction of the same warp.
TEST(BlockRounds, TheBudgetRunsOutWhereItDoesInOrder) {
  const std::string ptx = kernel_with_body(
      "setp.ne.u32 %p1, %r2, 50;\n@%p1 bra D;\nL:\nadd.u32 %r5, %r5, 1;\nbra L;\nD:\nst.global.u32 [%rd3], %r4;\nret;");
  const std::string one = error_of(ptx, 100, 20'000, 1);
  EXPECT_NE(one.find("more than 20000 warp instructions"), std::string::npos) << one;
  EXPECT_NE(one.find("block (50,0,0)"), std::string::npos) << one;
  EXPECT_EQ(error_of(ptx, 100, 20'000, kThreads), one);
  // 100 blocks of 10 warp instructions (8 to set up, the store, ret) fit a budget of 1000 only
  // together, on any thread count.
  const std::string store = kernel_with_body("st.global.u32 [%rd3], %r4;\nret;");
  EXPECT_EQ(run_ptx(store, 32, 100).stats.warp_instructions, 1000u);
  EXPECT_EQ(error_of(store, 100, 1'000, kThreads), "");
  const std::string tight = error_of(store, 100, 999, 1);
  EXPECT_NE(tight.find("more than 999 warp instructions"), std::string::npos) << tight;
  EXPECT_NE(tight.find("block (99,0,0)"), std::string::npos) << tight;
  EXPECT_EQ(error_of(store, 100, 999, kThreads), tight);
}

TEST(BlockRounds, KernelsWhoseBlocksMeetOtherThanThroughMemoryRunInOrder) {
  const auto refused = [](const std::string& body) {
    const kernel::Module m = frontend::parse_ptx(kernel_with_body(body), "test.ptx");
    return side_by_side_refused(m.kernels.at(0), LaunchConfig{});
  };
  EXPECT_EQ(refused("st.global.u32 [%rd3], %r4;\nret;"), "");
  // Global atomics whose values nobody reads are logged with the stores (see below); those whose
  // values are read, compare-and-swaps and generic addresses (they may name shared memory) not.
  EXPECT_EQ(refused("atom.global.add.u32 %r5, [%rd1], 1;\nret;"), "");
  EXPECT_EQ(refused("red.global.add.u32 [%rd1], 1;\nret;"), "");
  const std::string ordered = kernel::kAtomicsNeedOrder;
  EXPECT_EQ(refused("atom.global.add.u32 %r5, [%rd1], 1;\nst.global.u32 [%rd3], %r5;\nret;"), ordered);
  EXPECT_EQ(refused("atom.global.cas.b32 %r5, [%rd1], 0, 1;\nret;"), ordered);
  EXPECT_EQ(refused("atom.add.u32 %r5, [%rd1], 1;\nret;"), ordered);  // generic: it may be shared
  EXPECT_EQ(refused("red.add.u32 [%rd1], 1;\nret;"), ordered);
  // Shared memory's atomics stay within their block.
  const std::string counted =
      "mov.u32 %r6, sm;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [%r6], 0;\nbar.sync 0;\n"
      "atom.shared.add.u32 %r5, [%r6], 1;\nred.shared::cta.add.u32 [%r6], 2;\nbar.sync 0;\n"
      "ld.shared.u32 %r7, [%r6];\nst.global.u32 [%rd3], %r7;\nret;";
  EXPECT_EQ(refused(counted), "");
  // Side by side, each block counts its own 32 threads' 1 + 2 in its shared word: 96.
  const auto counts = run_ptx(kernel_with_body(counted), 32, 50, 1'000'000, nullptr, nullptr, kThreads).out;
  ASSERT_EQ(counts.size(), 32u * 50);
  for (size_t i = 0; i < counts.size(); ++i) EXPECT_EQ(counts[i], 96u) << i;
  EXPECT_EQ(refused("mov.u32 %r5, %clock;\nst.global.u32 [%rd3], %r5;\nret;"), "it reads the clock");
  EXPECT_EQ(refused("mov.u64 %rd5, %globaltimer;\nret;"), "it reads the clock");
  // A block that reads the clock sees the instructions run before it: the same on 4 threads.
  const std::string clocked = kernel_with_body("mov.u32 %r5, %clock;\nst.global.u32 [%rd3], %r5;\nret;");
  EXPECT_EQ(run_ptx(clocked, 32, 50, 1'000'000, nullptr, nullptr, kThreads).out, run_ptx(clocked, 32, 50).out);
}

// 300 blocks of one warp update words 0 to 19 of `out` by global atomics whose values nobody
// reads, logged with the stores side by side and applied in block order. Lane l adds 1 to word
// l % 16 (2 a block), 0.5 to the f32 word 16, its thread index's max and negated min to words 17
// and 18, and to the f32 word 19 2^24 (block 0's lane 31) or 1 (every other thread), whose
// rounding depends on the order of the adds. Blocks b = 7, 57, ... then read word 0 (2 for
// every block up to and including theirs); the others but block 0 write three times their
// thread index.
TEST(BlockRounds, GlobalReductionsSideBySideAsInOrder) {
  const std::string body =
      "and.b32 %r6, %r1, 15;\nmul.wide.u32 %rd4, %r6, 4;\nadd.s64 %rd4, %rd1, %rd4;\n"
      "red.global.add.u32 [%rd4], 1;\nmov.b32 %r7, 0x3F000000;\nred.global.add.f32 [%rd1+64], %r7;\n"
      "red.global.max.u32 [%rd1+68], %r4;\nneg.s32 %r8, %r4;\natom.global.min.s32 %r9, [%rd1+72], %r8;\n"
      "setp.eq.u32 %p4, %r1, 31;\nsetp.eq.and.u32 %p4, %r2, 0, %p4;\nselp.b32 %r12, 0x4B800000, 0x3F800000, %p4;\n"
      "red.global.add.f32 [%rd1+76], %r12;\nred.global.add.u32 [%rd1+80], 0x80000001;\n"
      "red.global.or.b32 [%rd1+84], %r4;\n"
      "rem.u32 %r10, %r2, 50;\nsetp.eq.u32 %p3, %r10, 7;\nmul.lo.u32 %r11, %r4, 3;\n"
      "@%p3 ld.global.u32 %r11, [%rd1];\nsetp.eq.u32 %p2, %r2, 0;\n@%p2 bra D;\n"
      "st.global.u32 [%rd3], %r11;\nD:\nret;";
  const std::string ptx = kernel_with_body(body);
  const kernel::Module m = frontend::parse_ptx(ptx, "test.ptx");
  ASSERT_EQ(side_by_side_refused(m.kernels.at(0), LaunchConfig{}), "");
  constexpr uint32_t kBlocks = 300;
  const Result one = run_ptx(ptx, 32, kBlocks);
  const Result many = run_ptx(ptx, 32, kBlocks, 1'000'000, nullptr, nullptr, kThreads);
  const auto f32 = [](uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  };
  for (uint32_t w = 0; w < 16; ++w) EXPECT_EQ(one.out[w], 2 * kBlocks) << w;
  EXPECT_EQ(f32(one.out[16]), 0.5f * 32 * kBlocks);
  EXPECT_EQ(one.out[17], 32 * kBlocks - 1);
  EXPECT_EQ(static_cast<int32_t>(one.out[18]), -static_cast<int32_t>(32 * kBlocks - 1));
  // Block 0's 31 ones, then 2^24 + 31 rounds to 2^24 + 32 (a tie, to the even significand);
  // each later one is a tie that rounds back to it. (The ones first would give 2^24 + 9600.)
  EXPECT_EQ(f32(one.out[19]), 16777216.0f + 32.0f);
  // Every lane on one word: 9,600 adds of 2^31 + 1 wrap to 9,600, and thread indices 0-9,599
  // OR to 2^14 - 1.
  EXPECT_EQ(one.out[20], 32 * kBlocks);
  EXPECT_EQ(one.out[21], (1u << 14) - 1);
  for (uint32_t b = 1; b < kBlocks; ++b)
    for (uint32_t l = 0; l < 32; ++l)
      ASSERT_EQ(one.out[32 * b + l], b % 50 == 7 ? 2 * (b + 1) : 3 * (32 * b + l)) << b << " " << l;
  EXPECT_EQ(many.out, one.out);
  EXPECT_EQ(many.stats.warp_instructions, one.stats.warp_instructions);
  EXPECT_EQ(many.stats.thread_instructions, one.stats.thread_instructions);
}

TEST(AccessRanges, AReadMeetsAWriteWhenTheyShareA128ByteGranule) {
  alignas(128) static uint8_t memory[1024];
  StoreLog log;
  const uint32_t word = 7;
  log.add(memory + 256, &word, 4);  // granules 2 and 5 of the array
  log.add(memory + 640, &word, 4);
  WrittenRanges written;
  written.add(log);
  const auto reads = [](uint64_t at, uint64_t bytes) {
    ReadRanges r;
    r.add(memory + at, bytes);
    return r;
  };
  EXPECT_TRUE(written.meets(reads(256, 4)));
  EXPECT_TRUE(written.meets(reads(300, 4)));   // same granule, other bytes: taken as met
  EXPECT_TRUE(written.meets(reads(0, 1024)));  // a span over both
  EXPECT_FALSE(written.meets(reads(400, 4)));  // between them, in a granule not written
  EXPECT_FALSE(written.meets(reads(0, 256)));  // ends where the first starts
  EXPECT_TRUE(written.meets(reads(644, 4)));   // past the last byte written, in its granule
  EXPECT_FALSE(written.meets(reads(768, 4)));  // past the last granule written
  ReadRanges apart;  // two lanes in granules not written
  apart.add(memory + 64, 4);
  apart.add(memory + 512, 4);
  EXPECT_FALSE(written.meets(apart));
  apart.add(memory + 642, 2);  // and one on the second write
  EXPECT_TRUE(written.meets(apart));
  // A warp's lane words in one granule, then one in the next: each granule taken.
  StoreLog lanes;
  for (uint32_t i = 0; i < 33; ++i) lanes.add(memory + 4 * i, &word, 4);
  WrittenRanges by_lane;
  by_lane.add(lanes);
  EXPECT_TRUE(by_lane.meets(reads(124, 4)));
  EXPECT_TRUE(by_lane.meets(reads(130, 1)));
  EXPECT_FALSE(by_lane.meets(reads(256, 4)));
  written.clear();
  EXPECT_FALSE(written.meets(reads(256, 4)));
}

}  // namespace
}  // namespace gpusim::exec
