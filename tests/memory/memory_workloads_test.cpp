// The memory system in whole workloads, read through the report: a streaming copy at the
// configured DRAM bandwidth, pointer chases at the configured latencies, the textbook
// coalescing and bank-conflict pairs, and the host's copies and streams.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "arch/arch_loader.hpp"
#include "driver/timing_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "stats/metrics.hpp"
#include "test_paths.hpp"
#include "workload/workload.hpp"

namespace gpusim::memory {
namespace {

struct Result {
  driver::TimingRun run;
  arch::ArchConfig arch;
};

Result run(const char* arch_name, const char* workload, const std::vector<std::string>& sets = {}) {
  Result r{{}, arch::load_arch_config(test::config_path(arch_name))};
  const workload::Workload w = workload::load_workload(test::repo_path(std::string("workloads/") + workload + ".yaml"), sets);
  const auto k = frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, r.arch.gpu.compute_capability);
  r.run = driver::run_timed(r.arch, w, k.module, [&](const std::string&) { return k.registers.value_or(32); }, {});
  EXPECT_TRUE(r.run.check && r.run.check->passed) << workload;
  return r;
}

double metric(const Result& r, const char* key, size_t launch = 0) {
  return stats::as_double(stats::launch_metric(key).value(stats::make_view(r.arch, r.run.launches[launch].stats)));
}

TEST(MemorySystem, StreamingCopyRunsAtTheConfiguredBandwidth) {
  const Result r = run("kepler", "copy");
  EXPECT_GT(metric(r, "dram_bandwidth_gbs"), 0.93 * 250);
  EXPECT_LE(metric(r, "dram_bandwidth_gbs"), 250.5);
  EXPECT_NEAR(metric(r, "effective_bandwidth_gbs"), 250, 0.05 * 250);
  // Halving the bandwidth doubles the time.
  Result half{{}, arch::load_arch_config(test::config_path("kepler"), {"memory.dram.bandwidth_gbs=125"})};
  const workload::Workload w = workload::load_workload(test::repo_path("workloads/copy.yaml"));
  const auto k = frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, half.arch.gpu.compute_capability);
  half.run = driver::run_timed(half.arch, w, k.module, [](const std::string&) { return 10; }, {});
  const double ratio = static_cast<double>(half.run.launches[0].stats.cycles) / static_cast<double>(r.run.launches[0].stats.cycles);
  EXPECT_NEAR(ratio, 2.0, 0.1);
}

// Cycles per extra hop between a chase of `hops` and one of twice as many, both within
// lines the first launch did not leave in the cache: each extra hop costs one access plus
// the loop's dependent address arithmetic.
double cycles_per_hop(const char* arch, const std::vector<std::string>& sets, int hops) {
  std::vector<std::string> a = sets, b = sets;
  a.push_back("hops=" + std::to_string(hops));
  b.push_back("hops=" + std::to_string(2 * hops));
  const uint64_t ca = run(arch, "pointer_chase", a).run.launches[1].stats.cycles;
  const uint64_t cb = run(arch, "pointer_chase", b).run.launches[1].stats.cycles;
  return static_cast<double>(cb - ca) / hops;
}

TEST(MemorySystem, PointerChasesShowTheConfiguredLatencies) {
  // Kepler: DRAM 277 cycles beyond the 1.5 MB L2 (4 MB ring); L2 168 cycles for a 256 KB
  // ring the first launch left in L2. The loop adds two dependent integer operations (11
  // cycles each) per hop, so the hops cost the published chases, 300 and 190.
  const double dram = cycles_per_hop("kepler", {}, 500);
  EXPECT_GE(dram, 277.0 + 22);
  EXPECT_LE(dram, 277.0 + 24);
  const double l2 = cycles_per_hop("kepler", {"n=65536"}, 500);
  EXPECT_GE(l2, 168.0 + 22);
  EXPECT_LE(l2, 168.0 + 24);
}

TEST(MemorySystem, CoalescingPairShowsInTheReport) {
  const Result unit = run("hopper", "read_unit_stride"), strided = run("hopper", "read_strided");
  EXPECT_DOUBLE_EQ(metric(unit, "load_sectors_per_request"), 4.0);
  EXPECT_DOUBLE_EQ(metric(strided, "load_sectors_per_request"), 32.0);
  // The strided read moves 8 MB in 32-byte sectors for 1 MB of data: several times slower
  // on both (Hopper's bandwidth hides more of it; compared without its fixed launch cost).
  const uint64_t launch = static_cast<uint64_t>(unit.arch.block_scheduler.kernel_launch_cycles);
  EXPECT_GT(strided.run.launches[0].stats.cycles - launch, 2.5 * (unit.run.launches[0].stats.cycles - launch));
  const Result kunit = run("kepler", "read_unit_stride"), kstrided = run("kepler", "read_strided");
  // Kepler: the index's 64-bit remainder costs both the same, so the ratio is below the 8x in bytes.
  EXPECT_GT(kstrided.run.launches[0].stats.cycles, 3 * kunit.run.launches[0].stats.cycles);
}

TEST(MemorySystem, TransposeTrioShowsCoalescingAndBankConflicts) {
  const Result naive = run("hopper", "transpose_naive"), tiled = run("hopper", "transpose_tiled"),
               padded = run("hopper", "transpose_padded");
  EXPECT_DOUBLE_EQ(metric(naive, "store_sectors_per_request"), 32.0);
  EXPECT_DOUBLE_EQ(metric(tiled, "store_sectors_per_request"), 4.0);
  // Tiled: the column reads of the tile conflict 32 ways (31 replays), the row writes not:
  // (31 + 0) / 2 = 15.5 replays per request. The +1 pad removes them all.
  EXPECT_DOUBLE_EQ(metric(tiled, "bank_conflicts_per_request"), 15.5);
  EXPECT_DOUBLE_EQ(metric(padded, "bank_conflicts_per_request"), 0.0);
  EXPECT_GT(naive.run.launches[0].stats.cycles, tiled.run.launches[0].stats.cycles);
  EXPECT_GT(tiled.run.launches[0].stats.cycles, padded.run.launches[0].stats.cycles);
}

TEST(MemorySystem, PrefixSumPaddingRemovesConflicts) {
  const Result plain = run("hopper", "scan"), padded = run("hopper", "scan_padded");
  EXPECT_GT(metric(plain, "bank_conflicts_per_request"), 1.0);
  EXPECT_DOUBLE_EQ(metric(padded, "bank_conflicts_per_request"), 0.0);
}

TEST(MemorySystem, OlderRulesCostMoreTransactions) {
  // The same unit-stride read on G80 (cc1.0: one 64-byte transaction per half-warp) and
  // GT200 (cc1.2: the same) versus a strided one (16 transactions per half-warp).
  const Result g80_unit = run("g80", "read_unit_stride", {"threads=16384"}),
               g80_strided = run("g80", "read_strided", {"threads=16384"});
  EXPECT_DOUBLE_EQ(metric(g80_unit, "load_sectors_per_request"), 2.0);
  EXPECT_DOUBLE_EQ(metric(g80_strided, "load_sectors_per_request"), 32.0);
  const Result fermi = run("fermi", "read_unit_stride", {"threads=16384"});
  EXPECT_DOUBLE_EQ(metric(fermi, "load_sectors_per_request"), 1.0);  // one 128-byte L1 line
}

TEST(HostCopies, PinnedPageableAndStreams) {
  // Hopper, as fitted to the H100's copies: 54.7 GB/s pinned with 15 us latency; pageable 7.3 GB/s to
  // the device and 13.8 to the host with 11.5 us; 1980 MHz.
  const Result two = run("hopper", "streams");
  const driver::TimedCopy& pinned = two.run.copies[0];
  EXPECT_TRUE(pinned.pinned);
  EXPECT_EQ(pinned.cycles, static_cast<uint64_t>(std::llround((15e-6 + 4194304.0 / 54.7e9) * 1980e6)));
  const Result copy = run("hopper", "copy");
  EXPECT_FALSE(copy.run.copies[0].pinned);
  EXPECT_EQ(copy.run.copies[0].cycles, static_cast<uint64_t>(std::llround((11.5e-6 + 16777216.0 / 7.3e9) * 1980e6)));
  EXPECT_FALSE(copy.run.copies[1].to_device);
  EXPECT_EQ(copy.run.copies[1].cycles, static_cast<uint64_t>(std::llround((11.5e-6 + 16777216.0 / 13.8e9) * 1980e6)));
  // A pageable copy is synchronous: the kernel after it starts when it ends.
  EXPECT_EQ(copy.run.launches[0].start, copy.run.copies[0].end);

  // Two streams: stream 2's uploads overlap stream 1's kernel and download.
  const Result one = run("hopper", "streams", {"second=1"});
  EXPECT_LT(two.run.makespan, one.run.makespan);
  EXPECT_LT(two.run.copies[3].start, two.run.copies[2].end);  // a2 up while c1 comes down
  // One stream, or a GPU without copy engines (G80), runs every step back to back.
  uint64_t sum = 0;
  for (const auto& c : one.run.copies) sum += c.cycles;
  for (const auto& l : one.run.launches) sum += l.stats.cycles;
  EXPECT_EQ(one.run.makespan, sum);
  const Result g80 = run("g80", "streams", {"n=65536"});
  uint64_t g80_sum = 0;
  for (const auto& c : g80.run.copies) g80_sum += c.cycles;
  for (const auto& l : g80.run.launches) g80_sum += l.stats.cycles;
  EXPECT_EQ(g80.run.makespan, g80_sum);
}

}  // namespace
}  // namespace gpusim::memory
