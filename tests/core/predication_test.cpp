// ptxas predicates short if-thens (core/ptxas_predication.hpp): the branch goes and every
// warp issues the body, its lanes off where the condition fails. Bodies of hand-written
// FMAs, so the instruction counts can be worked out by hand; the thresholds are those of
// validate/probes/if_conversion.py (20 instructions at the top level, 8 inside a loop).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/instruction_class.hpp"
#include "core/ptxas_predication.hpp"
#include "core/timed_kernel.hpp"

namespace gpusim::core {
namespace {

const std::vector<std::string> kBranches = {"scheduling.ptxas_predicate=false"};

// Every lane skips (tid >= 0) a body of `fmas` dependent FMAs.
std::string skipped(int fmas) { return "setp.ge.u32 %p1, %r1, 0;\n@%p1 bra SKIP;\n" + chains(fmas, 1) + "SKIP:\n"; }

// The same inside a loop of 4 trips.
std::string skipped_in_loop(int fmas) {
  return "mov.u32 %r11, 0;\nLOOP:\n" + skipped(fmas) +
         "add.s32 %r11, %r11, 1;\nsetp.lt.u32 %p2, %r11, 4;\n@%p2 bra LOOP;\n";
}

uint64_t warp_instructions(const std::string& body, const std::vector<std::string>& overrides = {}) {
  return simulate(kernel(body), "hopper", overrides, 32, 1).total.warp_instructions;
}

// A skipped body of 10 FMAs still issues: 10 instructions more (the branch takes no issue slot).
TEST(Predication, ASkippedShortBodyStillIssues) {
  const uint64_t predicated = warp_instructions(skipped(10)), branched = warp_instructions(skipped(10), kBranches);
  EXPECT_EQ(predicated, branched + 10);  // the rewritten branch is still counted, as a folded instruction is
  // Its results are those of the branch: the lanes were off. All 32 issue each FMA, none works.
  const SimRun on = simulate(kernel(skipped(10)), "hopper", {}, 32, 1);
  const SimRun off = simulate(kernel(skipped(10)), "hopper", kBranches, 32, 1);
  EXPECT_EQ(on.out, off.out);
  EXPECT_EQ(on.total.thread_instructions, off.total.thread_instructions + 10 * 32);
  EXPECT_EQ(on.total.predicated_on_threads, off.total.predicated_on_threads);
}

// 20 instructions are predicated at the top level, 21 are a branch the warp takes.
TEST(Predication, TopLevelBodiesUpToTwentyInstructions) {
  EXPECT_EQ(warp_instructions(skipped(20)), warp_instructions(skipped(20), kBranches) + 20);
  EXPECT_EQ(warp_instructions(skipped(21)), warp_instructions(skipped(21), kBranches));
}

// Inside a loop, 8 (4 trips x 8 more) and 9 (a branch).
TEST(Predication, LoopBodiesUpToEightInstructions) {
  EXPECT_EQ(warp_instructions(skipped_in_loop(8)), warp_instructions(skipped_in_loop(8), kBranches) + 4 * 8);
  EXPECT_EQ(warp_instructions(skipped_in_loop(9)), warp_instructions(skipped_in_loop(9), kBranches));
}

// One block of 32 warps, 64 trips of a body of two shared loads, an add and a shared store
// that every warp skips or every warp runs (micro_predication #1, #2: the H100 takes 58728
// and 58158 cycles). Predicated, the skipped loads and store still take their turns on the
// load/store pipe: the two take about the same time. As branches, skipping is much faster.
TEST(Predication, SkippedSharedAccessesTakeTheLoadStorePipe) {
  const auto cycles = [](bool skip, const std::vector<std::string>& overrides) {
    const std::string body = "mov.u32 %r11, 0;\nshl.b32 %r12, %r1, 2;\nLOOP:\nsetp.ge.u32 %p1, %r1, " +
                             std::string(skip ? "0" : "1024") + ";\n@%p1 bra SKIP;\n" +
                             "ld.volatile.shared.u32 %r13, [%r12];\nld.volatile.shared.u32 %r14, [%r12+4096];\n"
                             "add.s32 %r15, %r13, %r14;\nst.volatile.shared.u32 [%r12], %r15;\nSKIP:\n"
                             "add.s32 %r11, %r11, 1;\nsetp.lt.u32 %p2, %r11, 64;\n@%p2 bra LOOP;\n";
    return static_cast<double>(simulate(kernel(body), "hopper", overrides, 1024, 1, 8192).stats.cycles);
  };
  EXPECT_NEAR(cycles(true, {}) / cycles(false, {}), 1.0, 0.05);
  EXPECT_LT(cycles(true, kBranches) / cycles(false, kBranches), 0.75);
}

// The rewrite itself: NVVM's `@p bra L1; bra.uni L2; L1: body; L2:` runs the body where p;
// a body that ends the kernel stays a branch (ptxas writes @P EXIT).
TEST(Predication, RewritesBothShapesOfIfThen) {
  const std::string ptx =
      ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u32 n)\n{\n"
      ".reg .pred %p<4>;\n.reg .b32 %r<8>;\n"
      "mov.u32 %r1, %tid.x;\nsetp.lt.u32 %p1, %r1, 5;\n@%p1 bra THEN;\nbra.uni JOIN;\nTHEN:\n"
      "add.s32 %r2, %r1, 1;\nJOIN:\nsetp.lt.u32 %p2, %r1, 3;\n@%p2 bra END;\nadd.s32 %r3, %r1, 2;\nEND:\nret;\n}\n";
  const kernel::Program program = frontend::parse_ptx(ptx, "k.ptx").kernels[0];
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"));
  const ClassifierConfig classes{arch.units, arch.latencies, arch.warp_size, 4, true, arch.instruction_classes, 1};
  const kernel::Program out = predicate_like_ptxas(program, classify_program(program, classes));
  const auto& code = out.code;
  // mov, setp, bra, bra.uni, add (THEN), setp, bra, add, ret
  ASSERT_EQ(code.size(), 9u);
  EXPECT_EQ(code[2].guard, kernel::kNoReg);
  EXPECT_EQ(code[2].src[0].imm, 3);
  EXPECT_EQ(code[3].src[0].imm, 4);
  EXPECT_EQ(code[4].guard, code[1].dst.reg);
  EXPECT_FALSE(code[4].guard_negated);
  EXPECT_NE(code[6].guard, kernel::kNoReg);  // the second if-then ends the kernel: still a branch
  EXPECT_EQ(code[6].src[0].imm, 8);
  EXPECT_EQ(code[7].guard, kernel::kNoReg);
  // Both rewritten branches issue as nothing.
  const std::vector<InstructionTiming> timing = classify_program(out, classes);
  EXPECT_EQ(timing[2].issue_slots, 0);
  EXPECT_EQ(timing[3].issue_slots, 0);
  EXPECT_EQ(timing[6].issue_slots, 1);
}

}  // namespace
}  // namespace gpusim::core
