// Where the cycles went: every scheduler cycle is charged once, to an issue or to one stall
// reason, so that stalls + issue cycles = SMs x schedulers x cycles, however the SMs tick.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/timed_kernel.hpp"

namespace gpusim::core {
namespace {

// Stall and issue cycles charged beyond SMs x schedulers x cycles (negative: fewer).
int64_t charged_over(const SimRun& r) {
  uint64_t charged = r.total.issue_cycles;
  for (uint64_t s : r.total.stalls) charged += s;
  const uint64_t scheduler_cycles =
      r.stats.per_sm.size() * static_cast<uint64_t>(r.stats.schedulers_per_sm) * r.stats.cycles;
  return static_cast<int64_t>(charged) - static_cast<int64_t>(scheduler_cycles);
}

TEST(Timing, EveryStallCycleIsAccounted) {
  for (const char* arch : {"g80", "kepler", "hopper"}) {
    const std::string body = "setp.ge.u32 %p1, %r1, 40;\n@%p1 bra WAIT;\n" + chains(50, 3) +
                             "ld.global.f32 %f43, [%rd3];\nadd.f32 %f1, %f1, %f43;\nWAIT:\nbar.sync 0;\n";
    EXPECT_EQ(charged_over(simulate(kernel(body), arch, {}, 96, 40)), 0) << arch;
  }
}

// Two Hopper SMs with their L2 and DRAM (so that SMs run ahead in quanta where they may).
const std::vector<std::string> kTwoHopperSms = {"memory.model=hierarchy", "gpu.sm_count=2",
                                                "memory.l2.sm_partitions=halves", "memory.l2.sm_path_cycles=none",
                                                "block_scheduler.sm_order=ascending"};

// A retired block's room comes back 300 cycles later on Hopper, and the next block is placed
// before the SM's cycle of that release: that cycle is charged once, however the SMs tick
// (each in turn for --source's profile; in quanta, on one thread and on two).
TEST(Timing, EveryStallCycleIsAccountedOnceWhenBlocksTurnOver) {
  const std::string body = chains(60, 3) + "ld.global.f32 %f43, [%rd3];\nadd.f32 %f1, %f1, %f43;\n";
  for (const bool profile : {false, true})
    for (const int threads : {1, 2}) {
      const SimRun r = simulate(kernel(body), "hopper", kTwoHopperSms, 96, 400, 0, true, profile, SampleMode::Exact, threads);
      EXPECT_EQ(charged_over(r), 0) << "profile " << profile << ", threads " << threads;
      EXPECT_LT(2 * r.stats.blocks_per_sm, 400u);  // rooms came back: more than one wave
    }
}

// Warps that exit before their loads (from DRAM) answer, after the stores have drained: an
// SM left without warps takes the responses without a cycle of its own, so none is charged
// past the kernel's end.
TEST(Timing, ResponsesToWarpsGoneChargeNoCyclePastTheEnd) {
  const std::string body = "ld.global.f32 %f43, [%rd3];\n" + chains(8, 2);  // %f43 is never read
  for (const int threads : {1, 2})
    EXPECT_EQ(charged_over(simulate(kernel(body), "hopper", kTwoHopperSms, 64, 4, 0, true, false, SampleMode::Exact, threads)), 0)
        << "threads " << threads;
}

}  // namespace
}  // namespace gpusim::core
