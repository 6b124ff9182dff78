// --sample (core/wave_sampler.hpp), against the exact simulation of the same launch: the
// oracle is the full timing run, which the sample must reproduce within its estimate.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/wave_sampler.hpp"
#include "timed_kernel.hpp"

namespace gpusim::core {
namespace {

// Every thread does the same arithmetic, then writes its global index: blocks alike, and an
// output that shows whether each block ran.
std::string uniform_kernel() {
  return kernel(chains(120, 4) + "cvt.rn.f32.u32 %f44, %r4;\n");
}

// Two SMs of a Hopper with 8 blocks of 256 threads each: a wave is 16 blocks.
SimRun run(uint32_t blocks, SampleMode mode, int host_threads = 1) {
  return simulate(uniform_kernel(), "hopper",
                  {"gpu.sm_count=2", "block_scheduler.sm_order=ascending", "memory.l2.sm_partitions=halves",
                   "memory.l2.sm_path_cycles=none"}, 256,
                  blocks, 0, true, false, mode, host_threads);
}

TEST(WaveSampler, ATimedSampleOfAUniformGridMatchesTheExactRunWithinItsEstimate) {
  const SimRun exact = run(16 * 12, SampleMode::Exact);
  const SimRun sampled = run(16 * 12, SampleMode::On);
  ASSERT_FALSE(exact.stats.sample.sampled);
  ASSERT_TRUE(sampled.stats.sample.sampled);
  const SampleReport& s = sampled.stats.sample;
  EXPECT_GE(s.measured_waves, SampleRule::kMinMeasuredWaves);
  EXPECT_LT(s.simulated_blocks, 16u * 12 / 2);  // most of the grid was not timed
  // Instructions come exactly from the functional run of the blocks not timed.
  EXPECT_EQ(sampled.total.warp_instructions, exact.total.warp_instructions);
  EXPECT_EQ(sampled.total.thread_instructions, exact.total.thread_instructions);
  EXPECT_EQ(sampled.total.predicated_on_threads, exact.total.predicated_on_threads);
  EXPECT_EQ(sampled.total.blocks, exact.total.blocks);
  // Every block ran: thread i wrote i.
  ASSERT_EQ(sampled.out, exact.out);
  for (size_t i = 0; i < sampled.out.size(); ++i) ASSERT_EQ(std::bit_cast<float>(sampled.out[i]), float(i));
  // Cycles within the estimate the sampler gives, and within 2%.
  const double error = std::abs(double(sampled.stats.cycles) - double(exact.stats.cycles)) / double(exact.stats.cycles);
  EXPECT_LE(error, s.error_estimate) << "cycles " << sampled.stats.cycles << " vs " << exact.stats.cycles;
  EXPECT_LE(error, 0.02);
  EXPECT_GT(s.error_estimate, 0.0);
  // Counters per cycle stay those of the exact run: FMA pipe busy per warp instruction.
  const auto per_instruction = [](const SimRun& r) {
    return double(r.total.pipe_busy[static_cast<size_t>(Unit::Fp32)]) / double(r.total.warp_instructions);
  };
  EXPECT_NEAR(per_instruction(sampled), per_instruction(exact), 0.02 * per_instruction(exact));
  // On 3 threads (the blocks not timed side by side too), the same run.
  const SimRun threaded = run(16 * 12, SampleMode::On, 3);
  EXPECT_EQ(threaded.stats.cycles, sampled.stats.cycles);
  EXPECT_EQ(threaded.stats.sample.simulated_blocks, s.simulated_blocks);
  EXPECT_EQ(threaded.total.warp_instructions, sampled.total.warp_instructions);
  EXPECT_EQ(threaded.total.thread_instructions, sampled.total.thread_instructions);
  EXPECT_EQ(threaded.out, sampled.out);
}

// Every thread adds 1 to one word, and the block goes on without waiting: the L2's atomic
// unit takes the 8 K updates of a wave one after another, far slower than the SMs retire
// the blocks, so its queue ends the kernel. The sample must go at the queue's pace, not the
// SMs' (which would make the launch about half as long as it is).
TEST(WaveSampler, AQueueTheBlocksDoNotWaitForSetsThePace) {
  const std::string ptx = kernel(chains(8, 4) + "red.global.add.u32 [%rd1], 1;\n");
  const auto one = [&](SampleMode mode) {
    return simulate(ptx, "hopper",
                    {"memory.model=hierarchy", "gpu.sm_count=2", "block_scheduler.sm_order=ascending",
                     "memory.l2.sm_partitions=halves", "memory.l2.sm_path_cycles=none"},
                    256, 16 * 12, 0, true, false, mode);
  };
  const SimRun exact = one(SampleMode::Exact), sampled = one(SampleMode::On);
  ASSERT_TRUE(sampled.stats.sample.sampled);
  // The queue sets the pace: the SMs were done long before the kernel ended.
  uint64_t sms_done = 0;
  for (const SmStats& s : exact.stats.per_sm) sms_done = std::max(sms_done, s.busy_until);
  EXPECT_LT(2 * sms_done, exact.stats.cycles);
  const double error = std::abs(double(sampled.stats.cycles) - double(exact.stats.cycles)) / double(exact.stats.cycles);
  EXPECT_LE(error, sampled.stats.sample.error_estimate) << sampled.stats.cycles << " vs " << exact.stats.cycles;
  EXPECT_LE(error, 0.02);
}

// Block b runs a loop of 16 FMAs 4 + b / 32 times: every other wave (16 blocks) does one
// round more. Waves 3 and 4 (5 rounds each) take the same time, and the 8 waves left run 6
// to 9 rounds. Extrapolated by their number, at wave 4's time each, they came out 11.8%
// short, outside the sampler's own estimate (3.6%). Extrapolated by their work (the warp
// instructions the functional run counts) at the last timed wave's cycles per warp
// instruction, they come out within 2%.
TEST(WaveSampler, BlocksOfGrowingWorkAreExtrapolatedByTheirWork) {
  const std::string loop = "mov.u32 %r10, %ctaid.x;\nshr.u32 %r10, %r10, 5;\nadd.u32 %r10, %r10, 4;\nLOOP:\n" +
                           chains(16, 4) + "sub.u32 %r10, %r10, 1;\nsetp.ne.u32 %p1, %r10, 0;\n@%p1 bra LOOP;\n";
  const auto one = [&](SampleMode mode) {
    return simulate(kernel(loop + "cvt.rn.f32.u32 %f44, %r4;\n"), "hopper",
                    {"gpu.sm_count=2", "block_scheduler.sm_order=ascending", "memory.l2.sm_partitions=halves",
                     "memory.l2.sm_path_cycles=none"},
                    256, 16 * 12, 0, true, false, mode);
  };
  const SimRun exact = one(SampleMode::Exact), sampled = one(SampleMode::On);
  ASSERT_TRUE(sampled.stats.sample.sampled);
  EXPECT_LT(sampled.stats.sample.simulated_blocks, 16u * 12 / 2);
  EXPECT_EQ(sampled.total.warp_instructions, exact.total.warp_instructions);
  ASSERT_EQ(sampled.out, exact.out);
  const double error = std::abs(double(sampled.stats.cycles) - double(exact.stats.cycles)) / double(exact.stats.cycles);
  EXPECT_LE(error, sampled.stats.sample.error_estimate) << sampled.stats.cycles << " vs " << exact.stats.cycles;
  EXPECT_LE(error, 0.02) << sampled.stats.cycles << " vs " << exact.stats.cycles;
}

TEST(WaveSampler, SmallGridsAreTimedExactly) {
  const SimRun exact = run(16 * 4, SampleMode::Exact);
  const SimRun sampled = run(16 * 4, SampleMode::On);  // 4 waves: under the 5 sampling needs
  EXPECT_FALSE(sampled.stats.sample.sampled);
  EXPECT_EQ(sampled.stats.cycles, exact.stats.cycles);
  EXPECT_EQ(sampled.total.stalls, exact.total.stalls);
  // The report says why: 64 blocks are 4.0 waves of 16.
  EXPECT_EQ(sampled.stats.sample.declined,
            "the grid is 4.0 waves of 16 blocks; --sample on samples grids of 5 waves or more");
  EXPECT_EQ(exact.stats.sample.declined, "");  // not asked for: nothing to explain
}

TEST(WaveSampler, AutoSamplesOnlyLargeGrids) {
  const SimRun twelve = run(16 * 12, SampleMode::Auto);
  EXPECT_FALSE(twelve.stats.sample.sampled);  // 12 waves
  EXPECT_EQ(twelve.stats.sample.declined,
            "the grid is 12.0 waves of 16 blocks; --sample auto samples grids of 16 waves or more");
  EXPECT_TRUE(run(16 * 20, SampleMode::Auto).stats.sample.sampled);   // 20 waves
}

TEST(WaveSampler, TheRuleNeedsEnoughWaves) {
  const SampleRule on{SampleMode::On}, automatic{SampleMode::Auto}, exact{SampleMode::Exact};
  EXPECT_FALSE(exact.applies(1'000'000, 16));
  EXPECT_FALSE(on.applies(16 * 5 - 1, 16));
  EXPECT_TRUE(on.applies(16 * 5, 16));
  EXPECT_FALSE(automatic.applies(16 * 16 - 1, 16));
  EXPECT_TRUE(automatic.applies(16 * 16, 16));
  EXPECT_FALSE(on.applies(100, 0));
}

}  // namespace
}  // namespace gpusim::core
