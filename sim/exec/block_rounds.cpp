// Functional blocks side by side (run_blocks_side_by_side in block_runner.hpp).
#include <algorithm>
#include <atomic>
#include <barrier>
#include <memory>
#include <system_error>
#include <thread>

#include "exec/access_ranges.hpp"
#include "exec/block_runner.hpp"
#include "exec/store_log.hpp"

namespace gpusim::exec {

namespace {

// Blocks per thread in a round: enough that waiting for the slowest costs little, few
// enough that the logged stores stay small.
constexpr uint64_t kBlocksPerThread = 64;

// Each on its own cache lines: two threads filling neighbouring slots' logs would otherwise
// take the lines from each other at every store.
struct alignas(128) Slot {
  StoreLog stores;
  ReadRanges reads;
  FunctionalStats stats;
  bool failed = false;
};

struct Lane {  // one thread's executor and warps
  Lane(const kernel::Program& program, DeviceMemory& memory, const LaunchConfig& launch)
      : ex(program, memory, launch), warps(launch.warps_per_block()) {}
  Executor ex;
  std::vector<WarpState> warps;
};

// Runs `block` counting from `before` instructions (the clock, and the budget) and returns
// its own counts.
FunctionalStats run_counted(Lane& lane, uint64_t block, const RunLimits& limits, uint64_t before) {
  FunctionalStats s;
  s.warp_instructions = before;
  run_block(lane.ex, lane.warps, block, limits, s);
  s.warp_instructions -= before;
  return s;
}

FunctionalStats& operator+=(FunctionalStats& a, const FunctionalStats& b) {
  a.warp_instructions += b.warp_instructions;
  a.thread_instructions += b.thread_instructions;
  a.predicated_on_threads += b.predicated_on_threads;
  return a;
}

}  // namespace

std::string side_by_side_refused(const kernel::Program& program, const LaunchConfig& launch) {
  if (kernel::atomics_need_sm_order(program)) return kernel::kAtomicsNeedOrder;
  if (std::any_of(program.code.begin(), program.code.end(), kernel::reads_clock)) return "it reads the clock";
  if (kernel::calls_printf(program)) return "it calls printf";
  if (launch.out_of_bounds) return "--out-of-bounds continue logs accesses in the order run";
  return "";
}

FunctionalStats run_blocks_side_by_side(const kernel::Program& program, DeviceMemory& memory,
                                        const LaunchConfig& launch, const RunLimits& limits, uint64_t first_block,
                                        int threads) {
  std::vector<std::unique_ptr<Lane>> lanes;
  for (int t = 0; t < threads; ++t) lanes.push_back(std::make_unique<Lane>(program, memory, launch));
  std::vector<Slot> slots(kBlocksPerThread * static_cast<uint64_t>(threads));
  FunctionalStats total;
  uint64_t round_first = first_block, round_size = 0;
  std::atomic<uint64_t> next_slot{0};
  std::atomic<bool> stop{false};
  std::barrier start(threads), done(threads);

  // A thread's part of a round: slots taken in turn, each block on memory as the round found it.
  const auto work = [&](Lane& lane) {
    for (uint64_t i; (i = next_slot.fetch_add(1, std::memory_order_relaxed)) < round_size;) {
      Slot& s = slots[i];
      s.stores.discard();
      s.reads.clear();
      s.failed = false;
      lane.ex.set_store_log(&s.stores);
      lane.ex.set_read_ranges(&s.reads);
      try {  // from at least the instructions before it: the budget
        s.stats = run_counted(lane, round_first + i, limits, total.warp_instructions);
      } catch (...) {  // run again in order, where it throws as on one thread if it still fails
        s.failed = true;
      }
    }
  };
  std::vector<std::jthread> workers;
  try {
    for (int t = 1; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (;;) {
          start.arrive_and_wait();
          if (stop.load(std::memory_order_acquire)) return;
          work(*lanes[t]);
          done.arrive_and_wait();
        }
      });
  } catch (const std::system_error&) {  // no more threads to be had: the missing leave the barriers
    for (auto t = static_cast<int>(workers.size()) + 1; t < threads; ++t) {
      start.arrive_and_drop();
      done.arrive_and_drop();
    }
  }
  // Stops the workers however the rounds end (an error thrown in order, too).
  struct Stopper {
    std::atomic<bool>& stop;
    std::barrier<>& start;
    ~Stopper() {
      stop.store(true, std::memory_order_release);
      start.arrive_and_wait();
    }
  } stopper{stop, start};

  Lane& first = *lanes[0];
  WrittenRanges written;
  while (round_first < launch.block_count()) {
    round_size = std::min<uint64_t>(slots.size(), launch.block_count() - round_first);
    next_slot.store(0, std::memory_order_relaxed);
    start.arrive_and_wait();
    work(first);
    done.arrive_and_wait();
    written.clear();
    for (uint64_t i = 0; i < round_size; ++i) {
      Slot& s = slots[i];
      if (s.failed || written.meets(s.reads) || limits.over_budget(total.warp_instructions + s.stats.warp_instructions)) {
        s.stores.discard();
        first.ex.set_store_log(&s.stores);
        first.ex.set_read_ranges(nullptr);
        s.stats = run_counted(first, round_first + i, limits, total.warp_instructions);  // exactly those before it
      }
      written.add(s.stores);
      s.stores.apply();
      total += s.stats;
    }
    round_first += round_size;
  }
  return total;
}

}  // namespace gpusim::exec
