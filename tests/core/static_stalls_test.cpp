// ptxas's stall counts (core/static_stalls.hpp) and a compare's predicate latency
// (latencies.compare), on hand-written code whose counts and cycles are worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/arch_loader.hpp"
#include "core/instruction_class.hpp"
#include "core/static_stalls.hpp"
#include "core/timed_kernel.hpp"
#include "frontend/ptx_parser.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

// A loop trip as validate/kernels/loop_cost.cu's walk_lines compiles: the counter, its test, a
// load, the load's use, the branch. In program order (no ptxas-like reordering).
const std::string kWalk =
    "mov.u32 %r20, 0;\nmov.f32 %f1, 0f00000000;\n$L_walk:\n"
    ".pragma \"nounroll\";\n"
    "add.s32 %r20, %r20, 1;\n"
    "setp.lt.s32 %p1, %r20, 16;\n"
    "ld.global.cg.f32 %f2, [%rd3];\n"
    "add.f32 %f1, %f1, %f2;\n"
    "@%p1 bra $L_walk;\n"
    "mov.f32 %f44, %f1;\n";

size_t find(const kernel::Program& p, kernel::Opcode op, size_t from = 0) {
  for (size_t i = from; i < p.code.size(); ++i)
    if (p.code[i].op == op) return i;
  return p.code.size();
}

// The static schedule of the trip, int32 4 cycles and compare 13: add at 0; the test reads the
// counter at 4 (the add holds the warp 4); the load at 5 (the test 1); the use at 6 (the load 1:
// its value is scoreboarded, not counted); the branch reads the predicate at 4 + 13 = 17, so the
// use holds the warp 11. The branch ends the block: no count.
TEST(StaticStalls, CountTheCyclesTheBlocksStaticScheduleLeaves) {
  const kernel::Module m = frontend::parse_ptx(kernel(kWalk), "walk.ptx");
  const kernel::Program& p = m.kernels[0];
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {"latencies.compare=13"});
  ASSERT_EQ(arch.latencies.int32, 4);
  const ClassifierConfig config{arch.units,    arch.latencies, arch.warp_size, arch.scheduling.warp_schedulers_per_sm,
                                false,         arch.instruction_classes, 1, true};
  const std::vector<InstructionTiming> t = classify_program(p, config);
  const size_t setp = find(p, kernel::Opcode::Setp, find(p, kernel::Opcode::Ld, 0) + 1);
  ASSERT_LT(setp, p.code.size());
  EXPECT_EQ(t[setp - 1].stall, 4);  // the counter's add
  EXPECT_EQ(t[setp].stall, 1);
  EXPECT_EQ(t[setp + 1].stall, 1);   // the load
  EXPECT_EQ(t[setp + 2].stall, 11);  // the load's use, before the branch
  EXPECT_EQ(t[setp + 3].stall, 0);   // the branch
  EXPECT_EQ(t[setp].latency, 13);
  EXPECT_FALSE(has_fixed_latency(t[setp + 1]));
}

// One warp, global memory answering after 500 cycles. The use issues once its load is back;
// without the counts the branch follows it a cycle later (its predicate was ready long before),
// with them 11 cycles later, as the H100 does (walk_lines: 22 cycles a trip more than a chase).
// 16 trips: 10 cycles more each, but the last: after it the result's move waits for the add
// (FP32, 4 cycles) without the counts, so it ends 8 later, not 10.
TEST(StaticStalls, HoldTheWarpAfterAWaitForMemory) {
  const auto run = [](bool counts) {
    return static_cast<int64_t>(simulate(kernel(kWalk), "hopper",
                                         {"scheduling.sass_like=false", "latencies.compare=13",
                                          "latencies.taken_branch=10", "memory.dram.latency=500",
                                          std::string("scheduling.static_stalls=") + (counts ? "true" : "false")},
                                         32, 1)
                                    .stats.cycles);
  };
  EXPECT_EQ(run(true) - run(false), 15 * 10 + 8);
}

// latencies.compare: the branch of a counted loop waits that long for its test. One warp, 64
// trips: the add (4), the test, the branch; with the compare at 13 rather than the integer
// latency (4), 9 cycles more a trip.
TEST(StaticStalls, ACompareFeedsItsBranchAfterTheCompareLatency) {
  const std::string body = "mov.u32 %r20, 0;\n$L_b:\n.pragma \"nounroll\";\n"
                           "add.s32 %r20, %r20, 1;\nsetp.lt.s32 %p1, %r20, 64;\n@%p1 bra $L_b;\nmov.b32 %f44, %r20;\n";
  const auto run = [&](int compare) {
    return static_cast<int64_t>(
        simulate(kernel(body), "hopper", {"latencies.compare=" + std::to_string(compare)}, 32, 1).stats.cycles);
  };
  EXPECT_EQ(run(13) - run(0), 64 * 9);
}

// A compare's predicate read as an operand (selp: SEL in SASS) waits the integer latency, not
// the compare's: ptxas counts ISETP -> SEL 4, ISETP -> guarded instruction 13. A chain of
// x = (x < 64) ? x + 1 : x, issued as written, takes as long with the compare at 13 as at the
// integer latency (4); written with the test as a guard (@p add), 9 cycles a step more. (The
// steps alternate two predicates: the scoreboard holds a write behind a pending write of the
// same register, which in-order fixed-latency pipes would not need.)
TEST(StaticStalls, APredicateReadAsDataWaitsTheIntegerLatency) {
  std::string selects, guarded;
  for (int i = 0; i < 16; ++i) {
    const std::string p = i % 2 ? "%p2" : "%p1";
    selects += "add.s32 %r21, %r20, 1;\nsetp.lt.s32 " + p + ", %r20, 64;\nselp.b32 %r20, %r21, %r20, " + p + ";\n";
    guarded += "setp.lt.s32 %p1, %r20, 64;\n@%p1 add.s32 %r20, %r20, 1;\n";
  }
  const auto run = [&](const std::string& body, int compare) {
    return static_cast<int64_t>(simulate(kernel("mov.u32 %r20, 0;\n" + body + "mov.b32 %f44, %r20;\n"), "hopper",
                                         {"latencies.compare=" + std::to_string(compare), "scheduling.sass_like=false"},
                                         32, 1)
                                    .stats.cycles);
  };
  EXPECT_EQ(run(selects, 13), run(selects, 4));
  EXPECT_EQ(run(guarded, 13) - run(guarded, 4), 16 * 9);
}

}  // namespace
}  // namespace gpusim::core
