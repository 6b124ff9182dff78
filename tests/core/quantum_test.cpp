// TickBatch's quantum (--quantum): SMs running up to the memory's lookahead (the L2's
// shortest round trip; without an L2, DRAM's latency) ahead of one another, their requests
// settled and their stores applied in (cycle, SM) order, and blocks' rooms given out at
// releases within the quantum before its SMs run. A launch gives the same report, output and
// errors as cycle by cycle (--quantum 1) on any thread count.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <tuple>

#include "core/timed_kernel.hpp"
#include "exec/exec_error.hpp"
#include "exec/store_log.hpp"
#include "memory/impl/hierarchy.hpp"

namespace gpusim::core {
namespace {

// Two SMs' store logs over a quantum, applied in (cycle, SM) order: the last write of a
// word is the latest cycle's, and within a cycle the higher SM's, whichever log holds it.
TEST(StoreLog, LogsOfAQuantumApplyInCycleThenSmOrder) {
  std::array<uint32_t, 2> words{};
  exec::StoreLog a, b;  // SM 0's and SM 1's
  const auto store = [](exec::StoreLog& log, uint64_t cycle, uint32_t& to, uint32_t value) {
    log.set_cycle(cycle);
    log.add(reinterpret_cast<uint8_t*>(&to), &value, 4);
  };
  store(a, 5, words[0], 1);
  store(a, 9, words[0], 3);  // word 0: cycle 9's store comes last
  store(b, 7, words[0], 2);
  store(b, 4, words[1], 20);
  store(a, 6, words[1], 10);
  store(b, 6, words[1], 30);  // word 1: cycle 6's, SM 1's after SM 0's
  std::vector<exec::StoreLog::PartOf> scratch;
  const std::array<exec::StoreLog*, 2> logs{&a, &b};
  exec::StoreLog::apply_in_cycle_order(logs, scratch);
  EXPECT_EQ(words[0], 3u);
  EXPECT_EQ(words[1], 30u);
  EXPECT_TRUE(a.empty());
  EXPECT_TRUE(b.empty());
}

// Responses due in one cycle come in their requests' order, not the order made: an L1 hit
// is answered as it is sent, a read through the L2 when the quantum is settled.
class Answering final : public memory::MemorySystem {
 public:
  using MemorySystem::MemorySystem;
  memory::Accepted send(const memory::MemoryRequest&) override { return {}; }
  void answer(uint64_t tag, engine::Cycle at, uint64_t order) { respond(0, tag, at, order); }
  void answer(uint64_t tag, engine::Cycle at) { respond(0, tag, at); }
};
struct Taken final : memory::ResponseSink {
  std::vector<uint64_t> tags;
  void on_response(uint64_t tag) override { tags.push_back(tag); }
};

TEST(Quantum, ResponsesDueInOneCycleComeInTheirRequestsOrder) {
  engine::EventQueue events;
  Answering memory({events, 1, 1000});
  Taken taken;
  memory.connect(0, &taken);
  memory.answer(1, 10, 5);
  memory.answer(2, 10, 3);  // made later, sent earlier: before 1
  memory.answer(3, 10);     // no order: after the others of its cycle, as made
  memory.answer(4, 9, 9);
  memory.answer(5, 10, 4);
  events.run();
  EXPECT_EQ(taken.tags, (std::vector<uint64_t>{4, 2, 5, 1, 3}));
  memory.connect(0, nullptr);
}

// Hopper's lookahead: memory.l2.latency 284 less the nearest SM's path (-19 cycles): 265.
TEST(Quantum, HoppersLookaheadIsTheL2sShortestRoundTrip) {
  engine::EventQueue events;
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  const auto memory = memory::MemorySystemRegistry::instance().make(hopper.memory.model, hopper.memory, {events, 132, 1980});
  EXPECT_EQ(memory->lookahead(), 265u);
  const arch::ArchConfig fixed = arch::load_arch_config(test::config_path("hopper"), {"memory.model=fixed_latency"});
  EXPECT_EQ(memory::MemorySystemRegistry::instance().make(fixed.memory.model, fixed.memory, {events, 132, 1980})->lookahead(), 1u);
}

// A settle beside the SMs (several threads: TickBatch::run_trailing): a load handed over in
// a slice is settled while its SM runs on, and its answer is kept until the quantum's end,
// then due when settling after its cycle gives it. Hopper's L1 misses, the L2 reads it
// (latency 284, SM 0's path -19 cycles): due past the lookahead (265).
struct DueAt final : memory::ResponseSink {
  engine::Cycle due = engine::kNever;
  void on_response(uint64_t) override {}
  void on_response_due(engine::Cycle at) override { due = std::min(due, at); }
};
TEST(Quantum, AHandedSlicesAnswersComeAtTheQuantumsEnd) {
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  std::array<uint64_t, 32> lanes{};
  for (size_t l = 0; l < lanes.size(); ++l) lanes[l] = kernel::kGlobalHeapBase + 4 * l;
  memory::MemoryRequest load;
  load.mask = 0xFFFFFFFFu;
  load.bytes_per_lane = 4;
  load.addresses = lanes.data();
  load.tag = 7;
  load.cycle = 3;
  const auto run = [&](bool handed) {
    engine::EventQueue events;
    auto memory = memory::MemorySystemRegistry::instance().make(hopper.memory.model, hopper.memory, {events, 132, 1980});
    DueAt sink;
    memory->connect(0, &sink);
    memory->pull_responses(0);
    const std::array<uint32_t, 1> sms{0};
    if (handed) {
      memory->begin_quantum(0, 1);
      memory->send(load);
      memory->hand_off(0, 0);
      memory->settle_handed(sms, 0, 0, 265);
      EXPECT_EQ(sink.due, engine::kNever);  // kept, while the SM may still run
      memory->end_quantum(sms);
    } else {
      memory->send(load);
      memory->settle(0);
    }
    engine::Cycle taken = engine::kNever;
    memory->take_due(0, sink.due, [&](uint64_t tag) {
      EXPECT_EQ(tag, 7u);
      taken = sink.due;
    });
    memory->connect(0, nullptr);
    return taken;
  };
  const engine::Cycle by_cycle = run(false);
  EXPECT_GE(by_cycle, 3u + 265u);
  EXPECT_LT(by_cycle, engine::kNever);
  EXPECT_EQ(run(true), by_cycle);
}

// Hopper cut to 8 SMs (64 blocks a wave), through the modelled hierarchy: 640 blocks of 256
// threads, each a load, `work` instructions in four chains and a store, and every thread's
// block index stored to word 0, a race each wave's last writer wins. Ten waves: blocks' rooms
// come back (block_release 300) within quanta.
struct Launched {
  LaunchStats stats;
  util::Bytes out;
  std::string error;
};
Launched launch_on(const arch::ArchConfig& arch, int64_t quantum, int threads, const std::string& body_after_load,
                   uint32_t blocks, uint32_t block_threads, SampleMode sample = SampleMode::Exact) {
  const std::string ptx =
      kernel("ld.global.f32 %f2, [%rd3];\n" + body_after_load + "add.f32 %f44, %f2, %f1;\nst.global.u32 [%rd1], %r2;\n");
  const kernel::Module m = frontend::parse_ptx(ptx, "quantum.ptx");
  exec::DeviceMemory memory;
  const uint64_t base = memory.allocate("out", uint64_t{block_threads} * blocks * 4, kernel::kGlobalHeapBase);
  exec::LaunchConfig launch;
  launch.grid = {blocks, 1, 1};
  launch.block = {block_threads, 1, 1};
  launch.params.resize(8);
  std::memcpy(launch.params.data(), &base, 8);
  TimingOptions options;
  options.quantum = quantum;
  options.threads = threads;
  options.sample.mode = sample;
  Launched r;
  try {
    r.stats = simulate_launch(arch, m.kernels[0], memory, launch, 32, options);
  } catch (const exec::ExecError& e) {
    r.error = e.what();
  }
  r.out = memory.find("out")->bytes;
  return r;
}
Launched launch_waves(int64_t quantum, int threads, const std::string& body_after_load, uint32_t blocks = 640,
                      uint32_t block_threads = 256, SampleMode sample = SampleMode::Exact,
                      const std::string& more_override = "gpu.sm_count=8") {
  const arch::ArchConfig arch = arch::load_arch_config(
      test::config_path("hopper"), {"gpu.sm_count=8", "block_scheduler.sm_order=ascending", "memory.l2.sm_partitions=halves",
                                     "memory.l2.sm_path_cycles=none", more_override});
  return launch_on(arch, quantum, threads, body_after_load, blocks, block_threads, sample);
}

// The same cycles, memory and SM counters, and output.
void expect_same_launch(const Launched& q, const Launched& each) {
  EXPECT_EQ(q.stats.cycles, each.stats.cycles);
  for (const auto& c : memory::MemoryStats::counters()) EXPECT_EQ(q.stats.memory.*c.member, each.stats.memory.*c.member) << c.name;
  ASSERT_EQ(q.stats.per_sm.size(), each.stats.per_sm.size());
  for (size_t i = 0; i < each.stats.per_sm.size(); ++i)
    for (const auto& c : SmStats::counters())
      EXPECT_EQ(q.stats.per_sm[i].*c.member, each.stats.per_sm[i].*c.member) << "SM " << i << " " << c.name;
  EXPECT_EQ(q.out, each.out);
}

TEST(Quantum, TenWavesOnHopperAsCycleByCycleOnOneTwoAndThreeThreads) {
  // Chains whose length differs by block (the block index's low bits), so that blocks end,
  // and their rooms come back, at cycles spread over each quantum.
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\n" + chains(8, 4) +
                           "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 12;\n@%p1 bra LOOP;\n";
  const Launched each = launch_waves(1, 1, work);
  ASSERT_EQ(each.error, "");
  EXPECT_EQ(each.stats.blocks, 640u);
  EXPECT_GT(each.stats.memory.l2_misses, 0u);
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const Launched q = launch_waves(0, threads, work);
    ASSERT_EQ(q.error, "");
    expect_same_launch(q, each);  // word 0 included: the last block to store it, in (cycle, SM) order
  }
}

// Without an L2 (G80, 16 SMs, one 256-thread block of 32 registers a thread each): every
// read is a DRAM access (latency 500 cycles), so SMs run a quantum of that many cycles, each
// stopping after a cycle that retires a block (no release time). Ten waves, whose stores
// race for word 0, as cycle by cycle on any thread count.
TEST(Quantum, WithoutAnL2TenWavesRunAsCycleByCycleOnOneTwoAndThreeThreads) {
  engine::EventQueue events;
  const arch::ArchConfig g80 = arch::load_arch_config(test::config_path("g80"), {});
  ASSERT_FALSE(g80.memory.l2.has_value());
  EXPECT_EQ(memory::MemorySystemRegistry::instance().make(g80.memory.model, g80.memory, {events, 16, 1350})->lookahead(), 500u);
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\n" + chains(8, 4) +
                           "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 12;\n@%p1 bra LOOP;\n";
  const Launched each = launch_on(g80, 1, 1, work, 160, 256);
  ASSERT_EQ(each.error, "");
  EXPECT_EQ(each.stats.blocks, 160u);
  EXPECT_GT(each.stats.memory.dram_read_bytes, 0u);
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const Launched q = launch_on(g80, 0, threads, work, 160, 256);
    ASSERT_EQ(q.error, "");
    expect_same_launch(q, each);
  }
}

// Without a release time (as every architecture file but Hopper's and the H200's), a
// retired block's room comes back at once: each SM stops after a cycle that retires one,
// and the batch gives the rooms back in (cycle, SM) order, each SM then running on. The
// same blocks on the same SMs at the same cycles as cycle by cycle, on any thread count.
TEST(Quantum, RoomsBackAtOnceGoOutInCycleThenSmOrderOnEveryThreadCount) {
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\n" + chains(8, 4) +
                           "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 12;\n@%p1 bra LOOP;\n";
  const std::string at_once = "block_scheduler.block_release_cycles=0";
  const Launched each = launch_waves(1, 1, work, 640, 256, SampleMode::Exact, at_once);
  ASSERT_EQ(each.error, "");
  EXPECT_EQ(each.stats.blocks, 640u);
  // The rooms came back sooner than with Hopper's release time.
  EXPECT_LT(each.stats.cycles, launch_waves(1, 1, work).stats.cycles);
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const Launched q = launch_waves(0, threads, work, 640, 256, SampleMode::Exact, at_once);
    ASSERT_EQ(q.error, "");
    expect_same_launch(q, each);
    ASSERT_EQ(q.stats.blocks_trace.size(), each.stats.blocks_trace.size());
    for (size_t i = 0; i < each.stats.blocks_trace.size(); ++i) {
      const BlockSlice &a = q.stats.blocks_trace[i], &b = each.stats.blocks_trace[i];
      EXPECT_EQ(std::tie(a.sm, a.slot, a.block, a.start, a.end), std::tie(b.sm, b.slot, b.block, b.start, b.end)) << i;
    }
  }
}

// --sample reads every SM and the memory at the release that ends each wave: a quantum ends
// before it, so that the SMs have run exactly the cycles before it. The same waves, the same
// sample and the same extrapolation as cycle by cycle, on any thread count.
TEST(Quantum, ASampleReadsItsWavesAsCycleByCycle) {
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\n" + chains(8, 4) +
                           "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 12;\n@%p1 bra LOOP;\n";
  const Launched each = launch_waves(1, 1, work, 640, 256, SampleMode::On);
  ASSERT_EQ(each.error, "");
  const SampleReport& s = each.stats.sample;
  ASSERT_TRUE(s.sampled) << s.declined;
  EXPECT_LT(s.simulated_blocks, 640u / 2);
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const Launched q = launch_waves(0, threads, work, 640, 256, SampleMode::On);
    ASSERT_EQ(q.error, "");
    EXPECT_EQ(q.stats.sample.simulated_blocks, s.simulated_blocks);
    EXPECT_EQ(q.stats.sample.measured_waves, s.measured_waves);
    EXPECT_EQ(q.stats.sample.wave_cycles, s.wave_cycles);
    EXPECT_EQ(q.stats.sample.error_estimate, s.error_estimate);
    expect_same_launch(q, each);
  }
}

// One block per SM, each storing its index to word 0 after a loop the shorter the higher its
// index: block 0's stores come last in cycle order (the last, its thread 0's 1.0f to its own
// word), block 7's index last in SM order. With slices, a worker applies the quantum's
// stores: as cycle by cycle, block 0's 1.0f stays.
TEST(Quantum, AQuantumsStoresApplyInCycleOrderOnEveryThreadCount) {
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\nadd.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 8;\n@%p1 bra LOOP;\n";
  const auto word0 = [](const util::Bytes& out) {
    float v;
    std::memcpy(&v, out.data(), 4);
    return v;
  };
  const Launched each = launch_waves(1, 1, work, 8, 32);
  ASSERT_EQ(each.error, "");
  EXPECT_EQ(word0(each.out), 1.0f);
  for (int threads : {1, 2, 3}) {
    const Launched q = launch_waves(0, threads, work, 8, 32);
    ASSERT_EQ(q.error, "");
    EXPECT_EQ(q.stats.cycles, each.stats.cycles) << threads << " threads";
    EXPECT_EQ(word0(q.out), 1.0f) << threads << " threads";
  }
}

// Empty blocks of 1024 threads on Hopper's 132 SMs, 300 of them: the 264 of the first wave
// retire while 36 wait, and give their rooms back 300 cycles later, the last of those
// releases after the last block retires. The launch ends at that release, as its event did
// cycle by cycle.
uint64_t empty_blocks_cycles(int64_t quantum, int threads) {
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
  const kernel::Module m = frontend::parse_ptx(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n", "empty.ptx");
  exec::DeviceMemory memory;
  exec::LaunchConfig launch;
  launch.grid = {300, 1, 1};
  launch.block = {1024, 1, 1};
  TimingOptions options;
  options.quantum = quantum;
  options.threads = threads;
  const LaunchStats s = simulate_launch(arch, m.kernels[0], memory, launch, 32, options);
  uint64_t last_retired = 0;
  for (const SmStats& sm : s.per_sm) last_retired = std::max(last_retired, sm.busy_until);
  EXPECT_GT(s.cycles, last_retired);  // the release, not the last block, ends it
  return s.cycles;
}

TEST(Quantum, ALaunchEndsAtItsLastReleaseAsCycleByCycle) {
  const uint64_t each = empty_blocks_cycles(1, 1);
  for (int threads : {1, 2}) EXPECT_EQ(empty_blocks_cycles(0, threads), each) << threads << " threads";
}

// Blocks from 300 on read address 8 (no buffer) after a chain as long as their index's low
// bits say: several SMs fault within one quantum, at different cycles. The launch stops at
// the first fault in (cycle, SM) order, naming the same block and thread as cycle by cycle.
TEST(Quantum, TheFirstFaultInCycleThenSmOrderStopsTheLaunch) {
  const std::string work = "and.b32 %r10, %r2, 7;\nLOOP:\n" + chains(8, 4) +
                           "add.u32 %r10, %r10, 1;\nsetp.lt.u32 %p1, %r10, 12;\n@%p1 bra LOOP;\n"
                           "setp.ge.u32 %p2, %r2, 300;\n@!%p2 bra DONE;\nmov.u64 %rd4, 8;\nld.global.f32 %f3, [%rd4];\n"
                           "DONE:\n";
  const Launched each = launch_waves(1, 1, work);
  ASSERT_NE(each.error, "");
  EXPECT_NE(each.error.find("block (3"), std::string::npos) << each.error;  // a block from 300 on
  for (int threads : {1, 3}) EXPECT_EQ(launch_waves(0, threads, work).error, each.error) << threads << " threads";
}

}  // namespace
}  // namespace gpusim::core
