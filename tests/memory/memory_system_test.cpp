// The memory hierarchy driven by hand through one SM's port: bank conflicts, miss lines,
// L1 banks, stores and their acknowledgements, write combining, the SM's path to the L2,
// and configured sizes. When the SM's side learns its answers (the settle) is in
// memory_settle_test.cpp; whole workloads are in memory_workloads_test.cpp; the sectored cache
// alone in sectored_cache_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "arch/arch_loader.hpp"
#include "core/load_store_unit.hpp"
#include "memory/memory_config.hpp"
#include "memory/memory_port.hpp"
#include "memory/write_combiner.hpp"
#include "test_paths.hpp"

namespace gpusim::memory {
namespace {

using kernel::StateSpace;
using by_hand::Port;
using by_hand::strided;


// One shared-memory load of 32 lanes `stride_bytes` apart through an SM's load/store unit,
// by the warp in `slot`.
core::LoadStoreUnit::Access shared_load(core::LoadStoreUnit& lsu, uint64_t stride_bytes, engine::Cycle now,
                                        uint32_t slot = 0) {
  const auto addresses = strided(StateSpace::Shared, stride_bytes);
  kernel::Instruction ld;
  ld.op = kernel::Opcode::Ld;
  exec::StepResult r;
  r.instruction = &ld;
  r.memory_space = StateSpace::Shared;
  r.executed_mask = 0xFFFFFFFFu;
  r.addresses = addresses.data();
  r.access_bytes = 4;
  core::SmStats stats;
  return lsu.access(r, slot, now, stats);
}

TEST(MemorySystem, BankConflictPassesCostTheReplayCycles) {
  // 32 lanes 32 words apart share bank 0: 32 passes, each after the first adding
  // replay_cycles (set to 2 here, as fitted for Hopper) to the latency (set to 25); the
  // banks stay busy one cycle per pass.
  const std::vector<std::string> set = {"shared_memory.latency=25", "shared_memory.replay_cycles=2"};
  const arch::ArchConfig fitted = arch::load_arch_config(test::config_path("hopper"), set);
  Port port(fitted);
  core::LoadStoreUnit lsu(0, fitted.shared_memory.access, *port.memory);
  EXPECT_EQ(shared_load(lsu, 128, 0).ready, 25u + 31 * 2);
  // The banks take one pass per cycle for the whole SM: another warp's access in the same
  // cycle starts when the first one's 32 passes are done.
  EXPECT_EQ(shared_load(lsu, 4, 0, 1).ready, 32u + 25);
  // The same warp's next access waits for its last replay, at 31 x 2: it starts at 63.
  EXPECT_EQ(shared_load(lsu, 4, 0, 0).ready, 63u + 25);
  EXPECT_EQ(shared_load(lsu, 4, 1000).ready, 1000u + 25);  // one word per bank
  const arch::ArchConfig single = arch::load_arch_config(test::config_path("hopper"), {set[0], "shared_memory.replay_cycles=1"});
  core::LoadStoreUnit one(0, single.shared_memory.access, *port.memory);
  EXPECT_EQ(shared_load(one, 128, 0).ready, 25u + 31);
}

TEST(MemorySystem, ScatteredLinesLeaveTheSmOnePerMissLineCycles) {
  // .cg loads bypass L1. Once the lines sit in L2, a warp touching 32 lines (128 bytes
  // apart) waits for the last line's request to leave the SM, 31 x 9 cycles after the
  // first, then the L2 latency (set to 314 here); a warp touching one line waits the L2
  // latency alone. (The L2's read requests are free here, its sectors a cycle each: a line's
  // request and sector would take its slice 1.63 cycles, the reply one cycle later.)
  const auto cg = kernel::CacheOp::CacheGlobal;
  const std::vector<std::string> set = {"memory.l2.latency=314", "memory.l1.miss_line_cycles=9", "memory.l2.sm_path_cycles=none",
                                        "memory.l2.read_request_cycles=0", "memory.l2.read_sector_cycles=1"};
  const arch::ArchConfig limited = arch::load_arch_config(test::config_path("hopper"), set);
  Port m(limited);
  m.access(StateSpace::Global, 128, 0, cg);  // brings the 32 sectors into L2
  m.access(StateSpace::Global, 4, 0, cg);    // and the rest of the first line
  EXPECT_EQ(m.access(StateSpace::Global, 128, 100000, cg).latency, 31u * 9 + 314);
  EXPECT_EQ(m.access(StateSpace::Global, 4, 200000, cg).latency, 314u);
  const arch::ArchConfig no_limit =
      arch::load_arch_config(test::config_path("hopper"), {set[0], "memory.l1.miss_line_cycles=0", set[3], set[4]});
  Port unlimited(no_limit);
  unlimited.access(StateSpace::Global, 128, 0, cg);
  // Without the limit all 32 leave at once; only sectors hashed to the same L2 slice queue.
  EXPECT_LT(unlimited.access(StateSpace::Global, 128, 100000, cg).latency, 314u + 8);
}

TEST(MemorySystem, L1HitsTakeTheBusiestLookupOrDataBank) {
  // hopper.yaml: 4 lookup banks (line number modulo 4) and 32 data banks of 4 bytes. Once the
  // lines are in the L1, 32 consecutive lines with lane l at word l of line l take 8 cycles
  // (8 lines a lookup bank), the same lines at word 0 of each take 32 (one data bank), one
  // whole line 1 (micro_l1_banks on the H100: 9.2, 32 and 2.6 with the loop around them).
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  ASSERT_EQ(hopper.memory.l1->lookup_banks, 4);
  Port port(hopper);
  for (uint64_t stride : {132u, 128u, 4u}) port.access(StateSpace::Global, stride, 0);
  EXPECT_EQ(port.access(StateSpace::Global, 132, 100000).pipeline_cycles, 8u);
  EXPECT_EQ(port.access(StateSpace::Global, 128, 200000).pipeline_cycles, 32u);
  EXPECT_EQ(port.access(StateSpace::Global, 4, 300000).pipeline_cycles, 1u);
  // Without the banks, a line a cycle: 32 for either.
  const arch::ArchConfig per_line = arch::load_arch_config(test::config_path("hopper"), {"memory.l1.lookup_banks=0"});
  Port old(per_line);
  old.access(StateSpace::Global, 132, 0);
  EXPECT_EQ(old.access(StateSpace::Global, 132, 100000).pipeline_cycles, 32u);
}

// A warp's load of one word per lane in `mask` from `addresses` (which must outlive it).
MemoryRequest global_load(const std::array<uint64_t, 32>& addresses, uint32_t mask) {
  MemoryRequest r;
  r.space = StateSpace::Global;
  r.mask = mask;
  r.bytes_per_lane = 4;
  r.addresses = addresses.data();
  return r;
}

// A warp load whose lanes miss one line's sectors out of order (lane 0 sector 2, lane 1
// sector 0: a gather) sends each sector's read below and installs both in the L1 together,
// each with its own fill. Later, in one cycle, another warp's load misses a line (the
// cycle's first fill) and a load of each sector hits: the hit is answered at the L1's
// latency, as when the lanes went in order. (Session 68 paired a line's fills with its
// sectors by position, lowest first: met 2 then 0, each sector held the other's fill, never
// got its time, and a later hit waited for whatever fill of its cycle had that number; the
// corpus's spmv_csr_vector moved 1.1%.)
TEST(MemorySystem, ALoadsMissesOfOneLineOutOfOrderEachGetTheirOwnFill) {
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  const auto l1_latency = static_cast<engine::Cycle>(hopper.memory.l1->latency);
  const uint64_t line = uint64_t{1} << 32, far = line + (uint64_t{1} << 24);
  std::array<uint64_t, 32> gather{}, in_order{};
  gather[0] = in_order[1] = line + 64;
  gather[1] = in_order[0] = line;
  for (const auto& first : {gather, in_order}) {
    Port port(hopper);
    // Sent in one cycle and settled at its end, as an SM's cycle does.
    const auto send = [&](const std::array<uint64_t, 32>& addresses, uint32_t mask) {
      MemoryRequest r = global_load(addresses, mask);
      r.tag = ++port.tag;
      r.cycle = port.events.now();
      port.memory->send(r);
      return r.tag;
    };
    const uint64_t filled = send(first, 0b11);
    port.memory->settle(0);
    port.events.run();
    ASSERT_GT(port.sink.arrived.at(filled), l1_latency);  // through the L2
    for (uint64_t lane : {0u, 1u}) {
      SCOPED_TRACE("lane " + std::to_string(lane) + (first == gather ? ", gathered" : ", in order"));
      const engine::Cycle now = 100000 * (lane + 1);
      port.events.advance_to(now);
      std::array<uint64_t, 32> miss{}, hit{};
      miss[0] = far + 4096 * lane;
      hit[0] = first[lane];
      const uint64_t missed = send(miss, 0b1), hits = send(hit, 0b1);
      port.memory->settle(0);
      port.events.run();
      EXPECT_GT(port.sink.arrived.at(missed) - now, l1_latency);
      EXPECT_EQ(port.sink.arrived.at(hits) - now, l1_latency);
    }
  }
}

// A warp's store of one word per lane in `mask` to `addresses` (which must outlive it).
MemoryRequest global_store(const std::array<uint64_t, 32>& addresses, uint32_t mask) {
  MemoryRequest r = global_load(addresses, mask);
  r.is_store = true;
  return r;
}

// The DRAM bytes one store of the lanes of `mask` to `addresses` reads on hopper.yaml.
uint64_t dram_read(const std::array<uint64_t, 32>& addresses, uint32_t mask) {
  Port port(arch::load_arch_config(test::config_path("hopper"), {}));
  port.send(global_store(addresses, mask));
  port.events.run();
  return port.memory->stats().dram_read_bytes;
}

TEST(MemorySystem, OnlyTheSectorsAStoreCoversPartlyReadTheirChunkFromDram) {
  // hopper.yaml: a partial sector that misses in the L2 reads its 64-byte chunk from DRAM
  // first (partial_write_reads); a whole one is only written. A full warp's 32 words from
  // byte 16 of a line cover [16, 144): sectors 0 and 4 in part (16 bytes each, two chunks),
  // 1 to 3 whole. From byte 0 every sector is whole. With lane 5 off, sector 0 has 28 of its
  // 32 bytes: one chunk.
  auto run = strided(StateSpace::Global, 4);
  EXPECT_EQ(dram_read(run, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(dram_read(run, ~(1u << 5)), 64u);
  for (uint64_t& a : run) a += 16;
  EXPECT_EQ(dram_read(run, 0xFFFFFFFFu), 128u);
}

TEST(MemorySystem, AScatteredStoreReadsTheChunksOfOnlyTheSectorsItsLanesCoverInPart) {
  // hopper.yaml, as above, with the lanes scattered: lane l writes word 7 - l / 4 of one of four
  // sectors in lines of their own (lanes l % 4 == 3 the lowest, then 0, 1, 2), so that each
  // sector's eight words come from eight lanes, highest word first, and the lanes meet the
  // sectors out of address order. Every sector is whole: nothing is read. Lane 5 off: its
  // sector has 28 bytes, one 64-byte chunk. Lane 6 moved to a fifth line as well: its old
  // sector and the new one are partial too, three chunks.
  std::array<uint64_t, 32> scattered{};
  const std::array<uint64_t, 4> sector_of_lane_group = {4096, 8192, 12288, 0};
  for (uint64_t l = 0; l < 32; ++l) scattered[l] = (1ull << 32) + sector_of_lane_group[l % 4] + (7 - l / 4) * 4;
  EXPECT_EQ(dram_read(scattered, 0xFFFFFFFFu), 0u);
  EXPECT_EQ(dram_read(scattered, ~(1u << 5)), 64u);
  scattered[6] = (1ull << 32) + 16384;
  EXPECT_EQ(dram_read(scattered, ~(1u << 5)), 192u);
}

TEST(MemorySystem, AKernelsWritesAreDoneWhenAcknowledged) {
  // A store leaves nothing for the SM to wait on, but the kernel is complete only when the L2
  // has acknowledged it: from a home near the writer after the L2 latency (set to 300), from
  // a far one after the hop (set to 150) as well. One warp writes one whole sector, in each
  // of eight 4 KB chunks (homes alternate between the halves in hashed 4 KB chunks).
  const std::vector<std::string> set = {"memory.l2.latency=300", "memory.l2.far_latency=150",
                                        "memory.l2.write_request_cycles=0", "memory.l2.sm_path_cycles=none"};  // (its slice time, apart)
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), set);
  std::set<engine::Cycle> waits;
  for (uint64_t chunk = 0; chunk < 8; ++chunk) {
    Port port(arch);
    std::array<uint64_t, 32> addresses{};
    for (uint64_t l = 0; l < 8; ++l) addresses[l] = (1ull << 32) + chunk * 4096 + l * 4;
    port.events.advance_to(1000);
    port.send(global_store(addresses, 0xFFu));
    waits.insert(port.memory->drained_at() - 1000);
  }
  EXPECT_EQ(waits, (std::set<engine::Cycle>{300, 450}));
}

TEST(MemorySystem, AStoresDataLeavesTheSmASectorPerStoreSectorCycles) {
  // 32 lanes, one word each, 32 bytes apart: 8 lines, 4 sectors in each. The data stage takes
  // the 8 lines, then a cycle per sector of data (store_sector_cycles 1): 40 cycles, 8
  // wavefronts. A whole coalesced line: 1 + 4. Without the cost, one cycle per line.
  const auto taken = [](const char* per_sector, uint64_t stride_bytes) {
    const arch::ArchConfig arch =
        arch::load_arch_config(test::config_path("hopper"), {std::string("memory.l1.store_sector_cycles=") + per_sector});
    Port port(arch);
    const auto addresses = strided(StateSpace::Global, stride_bytes);
    const Accepted a = port.send(global_store(addresses, 0xFFFFFFFFu));
    return std::pair(a.wavefronts, a.busy_cycles);
  };
  EXPECT_EQ(taken("1", 32), std::pair(8u, 40u));
  EXPECT_EQ(taken("1", 4), std::pair(1u, 5u));
  EXPECT_EQ(taken("0", 32), std::pair(8u, 8u));
}

// validate/probes/sm_latency.py: each SM's round trip to the L2 is its own distance on the
// crossbar, the same for a DRAM miss as for a hit; the configured latencies are the average SM's.
TEST(MemorySystem, AnSmsPathToTheL2ShiftsItsHitsAndMissesAlike) {
  const arch::ArchConfig placed = arch::load_arch_config(test::config_path("hopper"), {});
  const arch::ArchConfig average = arch::load_arch_config(test::config_path("hopper"), {"memory.l2.sm_path_cycles=none"});
  ASSERT_EQ(placed.memory.l2->sm_path_cycles.size(), 132u);
  const int offset = placed.memory.l2->sm_path_cycles[0];
  ASSERT_NE(offset, 0);  // SM 0 is 3 cycles nearer than the average SM on the measured chip
  Port near(placed), mean(average);
  const auto cg = kernel::CacheOp::CacheGlobal;
  const engine::Cycle miss = near.access(StateSpace::Global, 4, 0, cg).latency;
  const engine::Cycle hit = near.access(StateSpace::Global, 4, 100000, cg).latency;
  EXPECT_EQ(static_cast<int64_t>(miss), static_cast<int64_t>(mean.access(StateSpace::Global, 4, 0, cg).latency) + offset);
  EXPECT_EQ(static_cast<int64_t>(hit), static_cast<int64_t>(mean.access(StateSpace::Global, 4, 100000, cg).latency) + offset);
  EXPECT_GT(miss, 600u);  // the first trip went to DRAM, the second found the line in the L2
  EXPECT_LT(hit, 400u);
}

TEST(MemorySystem, AStoreIntoAHeldLineMergesWithItsWrite) {
  // 32 lanes 32 bytes apart (8 lines, 32 partial sectors), then the next word of each sector.
  // With two lines held, the second store finds its first six lines pushed out by the first
  // store's last two: 6 lines are sent again (6 + 24 data cycles, 6 line requests and 24
  // partial writes more at the L2), the last 2 merge (their wavefronts only). With eight held,
  // all merge: 8 cycles, nothing more for the L2.
  const auto second = [](int held) {
    const arch::ArchConfig arch = arch::load_arch_config(
        test::config_path("hopper"), {"memory.l1.write_combine_lines=" + std::to_string(held), "memory.l1.store_sector_cycles=1"});
    Port port(arch);
    auto addresses = strided(StateSpace::Global, 32);
    port.send(global_store(addresses, 0xFFFFFFFFu));
    for (uint64_t& a : addresses) a += 4;
    const uint64_t requests = port.memory->stats().global_store_requests;
    const Accepted a = port.send(global_store(addresses, 0xFFFFFFFFu));
    EXPECT_EQ(port.memory->stats().global_store_requests, requests + 1);  // counted as a request either way
    return a.busy_cycles;
  };
  EXPECT_EQ(second(0), 40u);
  EXPECT_EQ(second(2), 6u + 24u + 2u);
  EXPECT_EQ(second(8), 8u);
}

TEST(WriteCombiner, HeldWritesLeaveWhenPushedOutOrAfterTheirWindow) {
  WriteCombiner two(2, 0);
  EXPECT_FALSE(two.store(1, 0));
  EXPECT_FALSE(two.store(2, 0));
  EXPECT_TRUE(two.store(1, 5));   // merges, but line 1's write is still the oldest
  EXPECT_FALSE(two.store(3, 6));  // pushes line 1 out
  EXPECT_TRUE(two.store(2, 7));
  EXPECT_FALSE(two.store(1, 8));  // pushes line 2 out
  WriteCombiner timed(8, 100);  // held for 100 cycles from the store that opened it
  EXPECT_FALSE(timed.store(1, 0));
  EXPECT_TRUE(timed.store(1, 100));
  EXPECT_FALSE(timed.store(1, 101));  // left at 100: this store opens a new one
  EXPECT_TRUE(timed.store(1, 150));
  EXPECT_FALSE(WriteCombiner(0, 0).store(1, 0));  // off: every store is sent
}

TEST(MemorySystem, ConfiguredLineAndSectorSizesAreHonoured) {
  // 32 lanes 256 bytes apart, bypassing L1 and missing in L2: 32 sectors from DRAM, each of
  // the L2's sector size, or of its DRAM access granularity (hopper.yaml: 64 bytes).
  const auto cg = kernel::CacheOp::CacheGlobal;
  const auto dram_bytes = [&](const std::vector<std::string>& set) {
    Port p(arch::load_arch_config(test::config_path("hopper"), set));
    p.access(StateSpace::Global, 256, 0, cg);
    return p.memory->stats().dram_read_bytes;
  };
  EXPECT_EQ(dram_bytes({}), 32u * 64);
  EXPECT_EQ(dram_bytes({"memory.l2.fetch_bytes=0"}), 32u * 32);
  EXPECT_EQ(dram_bytes({"memory.l2.sector_bytes=64", "memory.l1.sector_bytes=64"}), 32u * 64);
  // A warp reading 128 consecutive bytes is one 128-byte line, or two 64-byte lines: the
  // load/store pipeline spends one cycle per line (wavefront), or, with lookup banks, the two
  // lines (in two banks) take one cycle.
  Port wide(arch::load_arch_config(test::config_path("hopper"), {"memory.l1.lookup_banks=0"}));
  EXPECT_EQ(wide.access(StateSpace::Global, 4, 0).pipeline_cycles, 1u);
  Port narrow(arch::load_arch_config(test::config_path("hopper"), {"memory.l1.line_bytes=64", "memory.l1.lookup_banks=0"}));
  EXPECT_EQ(narrow.access(StateSpace::Global, 4, 0).pipeline_cycles, 2u);
  Port banked(arch::load_arch_config(test::config_path("hopper"), {"memory.l1.line_bytes=64"}));
  EXPECT_EQ(banked.access(StateSpace::Global, 4, 0).pipeline_cycles, 1u);
}

}  // namespace
}  // namespace gpusim::memory
