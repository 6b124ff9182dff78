// The SM and the memory system meet at a port: one SM against a fake memory whose
// responses come when the test says; loads held back by full miss-status registers
// (stall reason lg_throttle); a launch's timing independent of where on the clock it
// starts; and two launches over the same data on one clock.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <sstream>

#include "arch/arch_loader.hpp"
#include "core/gpu.hpp"
#include "frontend/ptx_parser.hpp"
#include "memory/memory_config.hpp"
#include "test_paths.hpp"

namespace gpusim::core {
namespace {

// k(in, out): each thread loads `loads` floats, 4 KB apart, adds them and stores the sum.
std::string kernel(int loads, const char* cache = "") {
  std::ostringstream p;
  p << ".version 9.0\n.target sm_75\n.address_size 64\n"
    << ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    << ".reg .b32 %r<4>;\n.reg .f32 %f<40>;\n.reg .b64 %rd<40>;\n"
    << "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n"
    << "cvta.to.global.u64 %rd1, %rd1;\ncvta.to.global.u64 %rd2, %rd2;\n"
    << "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd1, %rd3;\n";
  for (int i = 0; i < loads; ++i) p << "ld.global" << cache << ".f32 %f" << 10 + i << ", [%rd4+" << 4096 * i << "];\n";
  p << "mov.f32 %f1, 0f00000000;\n";
  for (int i = 0; i < loads; ++i) p << "add.f32 %f1, %f1, %f" << 10 + i << ";\n";
  p << "add.s64 %rd5, %rd2, %rd3;\nst.global.f32 [%rd5], %f1;\nret;\n}\n";
  return p.str();
}

struct Launch {
  kernel::Module module;
  exec::DeviceMemory memory;
  exec::LaunchConfig config;
  Launch(const std::string& ptx, uint32_t threads, uint32_t blocks) : module(frontend::parse_ptx(ptx, "port.ptx")) {
    const uint64_t in = memory.allocate("in", 64 * 4096, kernel::kGlobalHeapBase);
    const uint64_t out = memory.allocate("out", uint64_t{threads} * blocks * 4, kernel::kGlobalHeapBase);
    config.grid = {blocks, 1, 1};
    config.block = {threads, 1, 1};
    config.params.resize(16);
    std::memcpy(config.params.data(), &in, 8);
    std::memcpy(config.params.data() + 8, &out, 8);
  }
  LaunchStats run(Gpu& gpu, engine::Cycle start = 0) {
    return gpu.launch(module.kernels[0], memory, config, 32, start, {});
  }
};

struct Seen {
  uint64_t requests = 0, lanes = 0, stores = 0;
};

// Answers every load `delay` cycles after it is sent, and counts what it sees.
class FakeMemory final : public memory::MemorySystem {
 public:
  FakeMemory(const memory::MemorySystemContext& c, engine::Cycle delay, Seen& seen)
      : MemorySystem(c), delay_(delay), seen_(seen) {}
  memory::Accepted send(const memory::MemoryRequest& r) override {
    ++seen_.requests;
    seen_.lanes += static_cast<uint64_t>(std::popcount(r.mask));
    if (!r.is_store) respond(r.sm, r.tag, r.cycle + delay_);
    else ++seen_.stores;
    return {};
  }

 private:
  engine::Cycle delay_;
  Seen& seen_;
};

TEST(MemoryPort, OneSmAgainstAFakeMemory) {
  // One warp, one load: the warp waits exactly as long as the memory takes to answer, and
  // the wait is charged to the memory stall reason.
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("volta"));
  const auto run = [&](engine::Cycle delay, Seen& seen) {
    Gpu gpu(arch, [&](const memory::MemorySystemContext& c) { return std::make_unique<FakeMemory>(c, delay, seen); });
    Launch l(kernel(1), 32, 1);
    return l.run(gpu);
  };
  Seen fast, slow;
  const LaunchStats a = run(100, fast), b = run(1100, slow);
  EXPECT_EQ(fast.requests, 2u);  // the load and the store
  EXPECT_EQ(fast.stores, 1u);
  EXPECT_EQ(fast.lanes, 64u);
  EXPECT_EQ(b.cycles - a.cycles, 1000u);
  EXPECT_EQ(b.total().stalls[static_cast<int>(Stall::LongScoreboard)] - a.total().stalls[static_cast<int>(Stall::LongScoreboard)], 1000u);
}

uint64_t stall(const LaunchStats& s, Stall reason) { return s.total().stalls[static_cast<int>(reason)]; }

TEST(MemoryPort, FullMissStatusRegistersStallTheLoadStoreUnit) {
  // One warp loads four lines (4 KB apart, bypassing L1) that miss in L2. With one
  // miss-status register per L1 each load waits for the one before it to come back from
  // DRAM (674 cycles and a little queueing): three waits charged to lg_throttle. With four
  // registers, none.
  const auto run = [](const std::string& mshrs) {
    const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {"memory.l1.mshrs=" + mshrs});
    Gpu gpu(arch);
    Launch l(kernel(4, ".cg"), 32, 1);
    return l.run(gpu);
  };
  const LaunchStats one = run("1"), four = run("4"), unlimited = run("0");
  // lg_throttle also counts the few cycles the load/store unit is busy with the lines
  // themselves, the same with any number of registers.
  const uint64_t busy = stall(four, Stall::LgThrottle);
  EXPECT_EQ(busy, stall(unlimited, Stall::LgThrottle));
  EXPECT_LE(busy, 16u);
  EXPECT_EQ(four.cycles, unlimited.cycles);
  // Each wait lasts from the load's issue until the previous line is back: about the
  // DRAM latency (674) plus the L2 on the way and the loop of a few cycles.
  const uint64_t waited = stall(one, Stall::LgThrottle) - busy;
  EXPECT_GE(waited, 3u * 674);
  EXPECT_LE(waited, 3u * (674 + 60));
  EXPECT_GE(one.cycles - four.cycles, 3u * 674 - 30);
  // Only the issuing scheduler waits on the registers; the count is in scheduler cycles.
  EXPECT_LE(waited, one.cycles);
}

TEST(MemoryPort, ALaunchTimesTheSameWhereverItStarts) {
  // DRAM channels keep exact fixed-point time: nothing depends on the clock's offset.
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("turing"));
  Gpu early(arch), late(arch);
  Launch a(kernel(3), 256, 300), b(kernel(3), 256, 300);
  const LaunchStats x = a.run(early, 0), y = b.run(late, 123'456'789);
  EXPECT_EQ(x.cycles, y.cycles);
  EXPECT_EQ(x.total().stalls, y.total().stalls);
  EXPECT_EQ(x.memory.dram_read_bytes, y.memory.dram_read_bytes);
}

TEST(MemoryPort, TwoLaunchesOverTheSameDataOnOneClock) {
  // The second launch reads what the first left in L2 and is not slowed by it: the L1 was
  // invalidated at the kernel boundary (so it starts cold), the L2 kept the lines.
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"));
  Gpu gpu(arch);
  Launch l(kernel(2), 256, 264);
  const LaunchStats first = l.run(gpu, 0);
  const LaunchStats second = l.run(gpu, first.cycles + 5000);
  EXPECT_EQ(second.memory.l2_misses, 0u);
  EXPECT_GT(first.memory.l2_misses, 0u);
  EXPECT_EQ(second.memory.l1_hits, first.memory.l1_hits);  // the same in-kernel reuse, nothing older
  EXPECT_LT(second.cycles, first.cycles);
  EXPECT_THROW(l.run(gpu, 10), std::logic_error);  // a launch cannot start in the past
}

}  // namespace
}  // namespace gpusim::core
