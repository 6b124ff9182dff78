// The source view's per-instruction accounting: every warp cycle charged once, to the
// instruction the warp waits to issue, in the state that holds it; counting never changes
// the timing.
#include <gtest/gtest.h>

#include <numeric>

#include "core/timed_kernel.hpp"

namespace gpusim::core {
namespace {

// The counters of every instruction whose PTX line holds `text`, summed.
InstructionCounters at(const InstructionProfile& p, const std::string& ptx, const std::string& text) {
  std::istringstream in(ptx);
  int32_t n = 0;
  InstructionCounters sum;
  bool found = false;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(text) == std::string::npos) continue;
    for (size_t i = 0; i < p.sites.size(); ++i)
      if (p.sites[i].ptx_line == n) {
        sum.add(p.counters[i]);
        found = true;
      }
  }
  EXPECT_TRUE(found) << "no instruction " << text;
  return sum;
}

uint64_t state(const InstructionCounters& c, Stall s) { return c.warp_cycles[static_cast<size_t>(s)]; }

TEST(SourceProfile, ChargesEveryWarpCycleOnceAndChangesNoTiming) {
  // Eight warps of two blocks: loads, arithmetic on them, a barrier.
  const std::string ptx = kernel(
      "ld.global.f32 %f2, [%rd3];\nadd.f32 %f3, %f2, %f1;\nbar.sync 0;\n" + chains(40, 2) + "add.f32 %f44, %f1, %f3;\n");
  const SimRun plain = simulate(ptx, "hopper", {}, 128, 2);
  const SimRun counted = simulate(ptx, "hopper", {}, 128, 2, 0, true, true);
  EXPECT_TRUE(plain.stats.profile.empty());
  EXPECT_EQ(counted.stats.cycles, plain.stats.cycles);
  EXPECT_EQ(counted.total.stalls, plain.total.stalls);
  EXPECT_EQ(counted.total.warp_instructions, plain.total.warp_instructions);

  InstructionCounters sum;
  for (const InstructionCounters& c : counted.stats.profile.counters) sum.add(c);
  EXPECT_EQ(sum.warp_executions, counted.total.warp_instructions);
  EXPECT_EQ(sum.thread_executions, counted.total.thread_instructions);
  EXPECT_EQ(sum.predicated_threads, counted.total.thread_instructions);  // no guard is false
  // Resident warps per cycle, plus each warp's last cycle (it exits in the cycle it issues ret).
  EXPECT_EQ(sum.total_warp_cycles(), counted.total.warp_cycles + 8);
  // One scheduler issues one warp per cycle (issue width 1): a selected cycle per issue cycle.
  EXPECT_EQ(sum.warp_cycles[kSelected], counted.total.issue_cycles);
  EXPECT_EQ(sum.global_requests, counted.stats.memory.global_load_requests + counted.stats.memory.global_store_requests);
}

TEST(SourceProfile, TheL2sSectorsAreChargedToTheLoadThatAskedForThem) {
  // Through the modelled hierarchy, whose L2 and DRAM take a request's sectors when the SM's
  // cycle is settled: the 256 threads' words are 32 sectors, all L1 misses; the L2 fetches
  // 64 bytes from DRAM (hopper.yaml's fetch_bytes), so every other sector misses and the next
  // hits. The source view charges all of them to the load's line.
  const std::string ptx = kernel("ld.global.f32 %f2, [%rd3];\nadd.f32 %f44, %f2, %f1;\n");
  const SimRun run = simulate(ptx, "hopper", {"memory.model=hierarchy"}, 128, 2, 0, true, true);
  const InstructionCounters load = at(run.stats.profile, ptx, "ld.global");
  EXPECT_EQ(load.l1_miss_sectors, 32u);
  EXPECT_EQ(run.stats.memory.l2_misses, 16u);
  EXPECT_EQ(run.stats.memory.l2_hits, 16u);
  EXPECT_EQ(load.l2_miss_sectors, 16u);
  EXPECT_EQ(load.l2_hit_sectors, 16u);
}

TEST(SourceProfile, ALoadsUserWaitsOnTheLongScoreboardForTheMemoryLatency) {
  // One warp: memory answers 500 cycles after the load issues; its user (issued in PTX
  // order, nothing set aside) waits that long less the cycle of issue, charged to the
  // user, not to the load.
  const std::string ptx = kernel("ld.global.f32 %f2, [%rd3];\nadd.f32 %f44, %f2, %f1;\n");
  const SimRun r = simulate(ptx, "hopper", {"memory.dram.latency=500", "scheduling.sass_like=false",
                                            "scheduling.ptxas_unroll=1"}, 32, 1, 0, true, true);
  const InstructionProfile& p = r.stats.profile;
  const InstructionCounters load = at(p, ptx, "ld.global.f32 %f2");
  const InstructionCounters user = at(p, ptx, "add.f32 %f44, %f2");
  EXPECT_EQ(load.warp_executions, 1u);
  EXPECT_EQ(load.global_requests, 1u);
  EXPECT_EQ(state(load, Stall::LongScoreboard), 0u);
  EXPECT_EQ(state(user, Stall::LongScoreboard), 499u);
  EXPECT_EQ(user.warp_cycles[kSelected], 1u);
}

TEST(SourceProfile, BarrierWaitsAreChargedToTheBarrier) {
  // Two warps of one block: warp 0 runs a dependent chain of 200 FMAs (4 cycles each on
  // Hopper) before the barrier; warp 1 waits there about 800 cycles.
  const std::string ptx = kernel("setp.ne.u32 %p1, %r1, 0;\n@%p1 bra SKIP;\n" + chains(200, 1) +
                                 "SKIP:\nbar.sync 0;\nadd.f32 %f44, %f1, %f2;\n");
  const SimRun r = simulate(ptx, "hopper", {}, 64, 1, 0, true, true);
  const InstructionProfile& p = r.stats.profile;
  const uint64_t barrier = state(at(p, ptx, "bar.sync 0"), Stall::Barrier);
  EXPECT_GE(barrier, 200u * 4 - 10);
  EXPECT_LE(barrier, 200u * 4 + 40);  // and the barrier's own release latency
  uint64_t elsewhere = 0;
  for (size_t i = 0; i < p.counters.size(); ++i) elsewhere += state(p.counters[i], Stall::Barrier);
  EXPECT_EQ(elsewhere, barrier);
  // Warp 0's chain waits on its own results: `wait`, charged to the chain's FMAs.
  const InstructionCounters fma = at(p, ptx, "fma.rn.f32 %f1");
  EXPECT_EQ(fma.warp_executions, 200u);
  EXPECT_GE(state(fma, Stall::Wait), 199u * 3);
}

TEST(SourceProfile, DivergenceShowsAsFewerLanesPerExecution) {
  // Lanes 0-7 of one warp take a branch of 10 FMAs: 8 lanes per execution there. Predicated
  // as ptxas would (core/ptxas_predication.hpp), all 32 lanes issue it and 8 run it.
  const std::string ptx = kernel("setp.ge.u32 %p1, %r1, 8;\n@%p1 bra SKIP;\n" + chains(10, 1) + "SKIP:\n");
  const SimRun r = simulate(ptx, "hopper", {"scheduling.ptxas_predicate=false"}, 32, 1, 0, true, true);
  const InstructionCounters fma = at(r.stats.profile, ptx, "fma.rn.f32 %f1");
  EXPECT_EQ(fma.warp_executions, 10u);
  EXPECT_EQ(fma.thread_executions, 80u);
  const SimRun predicated = simulate(ptx, "hopper", {}, 32, 1, 0, true, true);
  const InstructionCounters on = at(predicated.stats.profile, ptx, "fma.rn.f32 %f1");
  EXPECT_EQ(on.thread_executions, 320u);
  EXPECT_EQ(on.predicated_threads, 80u);
}

// Speed of light counts each unit's busy time: on Hopper a scheduler has 32 FP32 lanes, so
// a warp's FMA holds its pipe one cycle; 100 more FMAs are 100 cycles (64 ticks each) more.
TEST(PipeBusy, EachFmaHoldsTheFp32PipeOneCycle) {
  const auto busy = [](int fmas) {
    return simulate(kernel(chains(fmas, 8)), "hopper", {}, 32, 1).total.pipe_busy[static_cast<size_t>(Unit::Fp32)];
  };
  EXPECT_EQ(busy(200) - busy(100), 100u * kUnitTicks);
}

}  // namespace
}  // namespace gpusim::core
