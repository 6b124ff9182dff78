// The timing of PTX as ptxas would emit it (scheduling.sass_like), on hand-written kernels
// whose cycle counts are worked out by hand: fused pairs (LEA, IMAD.WIDE), 64-bit integer
// halves, bit casts, the special-function fix-up and list scheduling.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "arch/arch_loader.hpp"
#include "core/timed_kernel.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

std::string bare(const std::string& body) {
  return ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
         ".reg .b32 %r<48>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<4>;\nmov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd1, %r1;\nmov.f32 %f1, 0f3F800000;\n"
         "mov.f32 %f2, 0f3F000000;\n" + body + "ret;\n}\n";
}

uint64_t bare_cycles(const std::string& body, const std::vector<std::string>& overrides = {}) {
  return simulate(bare(body), "hopper", overrides, 32, 1).stats.cycles;
}

const std::vector<std::string> kAsWritten = {"scheduling.sass_like=false"};

TEST(Timing, SpecialFunctionsWithoutFtzCarryPtxasRangeFixup) {
  // Without .ftz, ptxas wraps rsqrt's MUFU in a subnormal fix-up (FSETP, FMUL before and after):
  // on hopper.yaml each dependent step costs sfu 17 + sfu_range_fixup 22 cycles, with .ftz 17.
  const auto steps = [](int n, const std::string& op) {
    std::string s;
    for (int i = 0; i < n; ++i) s += op + "\n";
    return s;
  };
  const std::string rsqrt = "rsqrt.approx.f32 %f1, %f1;", rsqrt_ftz = "rsqrt.approx.ftz.f32 %f1, %f1;";
  EXPECT_EQ(bare_cycles(steps(128, rsqrt)) - bare_cycles(steps(64, rsqrt)), 64u * (17 + 22));
  EXPECT_EQ(bare_cycles(steps(128, rsqrt_ftz)) - bare_cycles(steps(64, rsqrt_ftz)), 64u * 17);
  EXPECT_EQ(bare_cycles(steps(64, rsqrt), {"latencies.sfu_range_fixup=0"}), bare_cycles(steps(64, rsqrt_ftz)));
  // Where ptxas sees the input is normal, |x| plus a constant of at least 2^-126, there is none.
  const auto guarded = [](const std::string& op) {
    return "abs.f32 %f3, %f1;\nadd.f32 %f4, %f3, 0f3F800000;\n" + op + " %f1, %f4;\n";
  };
  std::string plain, ftz;
  for (int i = 0; i < 16; ++i) {
    plain += guarded("rsqrt.approx.f32");
    ftz += guarded("rsqrt.approx.ftz.f32");
  }
  EXPECT_EQ(bare_cycles(plain), bare_cycles(ftz));
}

TEST(Timing, PairsPtxasFusesIssueAsOne) {
  // x = (x << 2) + tid as shl + add: ptxas emits one LEA, so each pair adds one dependent
  // latency (4 cycles on Hopper), not two. 16 pairs against 8: 8 more pairs.
  const auto pairs = [](int n) {
    std::string s, x = "%r1";
    for (int i = 0; i < n; ++i) {
      const std::string t = "%r" + std::to_string(2 + 2 * i), y = "%r" + std::to_string(3 + 2 * i);
      s += "shl.b32 " + t + ", " + x + ", 2;\nadd.s32 " + y + ", " + t + ", %r1;\n";
      x = y;
    }
    return s;
  };
  EXPECT_EQ(bare_cycles(pairs(16)) - bare_cycles(pairs(8)), 8u * 4);
  EXPECT_EQ(bare_cycles(pairs(16), kAsWritten) - bare_cycles(pairs(8), kAsWritten), 8u * 8);
}

TEST(Timing, WideIntegerArithmeticIsTwoDependentHalves) {
  // add.s64 is IADD3 + IADD3.X in SASS, the high half waiting for the carry: 64 more
  // dependent 64-bit adds cost 64 x 2 x 4 cycles with sass_like, 64 x 4 as PTX has them.
  std::string adds64;
  for (int i = 0; i < 64; ++i) adds64 += "add.s64 %rd1, %rd1, 3;\n";
  EXPECT_EQ(bare_cycles(adds64 + adds64) - bare_cycles(adds64), 64u * 8);
  EXPECT_EQ(bare_cycles(adds64 + adds64, kAsWritten) - bare_cycles(adds64, kAsWritten), 64u * 4);
}

TEST(Timing, AWideMultiplyAndItsAddAreOneImadWide) {
  // A chain of address steps, a = b + (u32)a * 4, as cvt + mul.wide + add.s64: ptxas emits the
  // multiply and the add as one IMAD.WIDE, whose 64-bit result it waits 6 cycles for (its stall
  // count to a load of the address; int32 4 + 2). With the cvt (int32, 4): 10 cycles a step, 16
  // more steps 160. On Maxwell (no IMAD.WIDE) and as PTX has them the add stays two halves.
  const auto steps = [](int n) {
    std::string s = ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n"
                    ".reg .b32 %r<80>;\n.reg .b64 %rd<80>;\nmov.u32 %r1, %tid.x;\ncvt.u64.u32 %rd1, %r1;\n"
                    "cvt.u64.u32 %rd0, %r1;\n";
    for (int i = 0; i < n; ++i) {
      const std::string a = "%rd" + std::to_string(1 + 2 * i), m = "%rd" + std::to_string(2 + 2 * i),
                        next = "%rd" + std::to_string(3 + 2 * i), r = "%r" + std::to_string(2 + i);
      s += "cvt.u32.u64 " + r + ", " + a + ";\nmul.wide.u32 " + m + ", " + r + ", 4;\nadd.s64 " + next + ", %rd0, " + m + ";\n";
    }
    return s + "ret;\n}\n";
  };
  const auto cycles = [&](int n, const char* arch, std::vector<std::string> sets) {
    return static_cast<int64_t>(simulate(steps(n), arch, sets, 32, 1).stats.cycles);
  };
  EXPECT_EQ(cycles(32, "hopper", {}) - cycles(16, "hopper", {}), 16 * (4 + 6));
  EXPECT_EQ(cycles(32, "hopper", kAsWritten) - cycles(16, "hopper", kAsWritten), 16 * (4 + 4 + 4));
  const arch::ArchConfig maxwell = arch::load_arch_config(test::config_path("maxwell"), {});
  const int64_t i32 = maxwell.latencies.int32;
  EXPECT_EQ(cycles(32, "maxwell", {}) - cycles(16, "maxwell", {}), 16 * (i32 + 2 * i32));
}

TEST(Timing, BitCastsAreNoInstructions) {
  // x = as_float(as_int(x + 0.5)) as add.f32 and two mov.b32: SASS has one register file, so
  // the casts are not there (a shuffled float's reduction is SHFL, FADD, SHFL). 16 more steps:
  // 16 x 4 cycles; as PTX has them, 16 x (4 + 4 + 4).
  const auto steps = [](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += "add.f32 %f1, %f1, %f2;\nmov.b32 %r5, %f1;\nmov.b32 %f1, %r5;\n";
    return s;
  };
  EXPECT_EQ(bare_cycles(steps(32)) - bare_cycles(steps(16)), 16u * 4);
  EXPECT_EQ(bare_cycles(steps(32), kAsWritten) - bare_cycles(steps(16), kAsWritten), 16u * 12);
}

TEST(Timing, ListSchedulingFillsAChainsGaps) {
  // 8 independent integer adds written after a chain of 16 dependent FMAs. Hopper's INT32
  // pipe (16 lanes per scheduler) takes a warp instruction every 2 cycles: issued as written
  // the adds follow the chain, the last 1 + 7 x 2 = 15 cycles after the last FMA;
  // list-scheduled they issue in the chain's 3-cycle gaps and cost nothing.
  std::string chain, adds;
  for (int i = 0; i < 16; ++i) chain += "fma.rn.f32 %f1, %f1, %f2, %f2;\n";
  for (int i = 0; i < 8; ++i) adds += "add.s32 %r" + std::to_string(10 + i) + ", %r1, " + std::to_string(i) + ";\n";
  EXPECT_EQ(bare_cycles(chain + adds) - bare_cycles(chain), 0u);
  EXPECT_EQ(bare_cycles(chain + adds, kAsWritten) - bare_cycles(chain, kAsWritten), 15u);
}

}  // namespace
}  // namespace gpusim::core
