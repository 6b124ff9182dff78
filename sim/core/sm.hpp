// One streaming multiprocessor: resident blocks and warps, warp schedulers with their
// policy and issue width, per-scheduler execution units, a scoreboard per warp, and
// barriers. Instructions execute functionally at issue (exec::Executor); the SM only
// decides when. Every scheduler-cycle is either an issue or one stall reason.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "arch/arch_config.hpp"
#include "core/instruction_class.hpp"
#include "core/launch_stats.hpp"
#include "exec/executor.hpp"
#include "memory/memory_model.hpp"

namespace gpusim::core {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct TimedWarp {
  // What the scheduler reads every cycle comes first, within one cache line.
  bool done = true;
  bool at_barrier = false;
  bool next_known = false;            // next/operands_at are valid until the warp issues
  bool operands_from_memory = false;
  uint32_t slot = 0;                  // warp slot on the SM: scheduler = slot % schedulers
  uint64_t eligible_at = 0;           // its block's launch cost; a barrier's release
  uint64_t operands_at = 0;           // when the next instruction's operands are ready
  const InstructionTiming* next = nullptr;
  uint64_t age = 0;                   // launch order, for greedy-then-oldest
  uint32_t block_slot = 0;            // index into Sm::blocks_
  uint32_t barrier_id = 0;
  uint64_t start = 0;                 // for the trace
  // Scoreboard: registers with a write still in flight, as in hardware a small table
  // rather than a time per register. A full table holds back instructions that write.
  struct Pending {
    uint32_t reg;
    bool from_memory;
    uint64_t at;
  };
  static constexpr int kScoreboardEntries = 32;
  int pending_count = 0;
  std::array<Pending, kScoreboardEntries> pending{};
  exec::WarpState state;
};

struct ResidentBlock {
  exec::BlockState state;
  uint64_t linear = 0;
  uint64_t start = 0;
  uint32_t live_warps = 0;
  std::array<uint32_t, 16> arrived{};
  std::array<uint32_t, 16> expected{};  // warps; 0 = every live warp
  bool in_use = false;
};

class Sm {
 public:
  Sm(uint32_t id, const arch::ArchConfig& arch, const kernel::Program& program,
     const std::vector<InstructionTiming>& timing, exec::Executor& executor, memory::MemoryModel& memory,
     bool trace_warps);

  // Resources a block of the current launch needs, and whether one more fits now.
  bool can_accept() const { return free_block_slots_ > 0; }
  void set_block_capacity(int blocks) { free_block_slots_ = blocks; }
  void launch_block(uint64_t linear, uint64_t now, uint64_t eligible_at);

  // Simulates cycle `now` (charging stalls for the cycles since the last tick) and
  // returns the next cycle at which something can happen, or kNever.
  uint64_t tick(uint64_t now);
  // Charges the stalls up to (not including) `end` and closes the books.
  void finish(uint64_t end);

  // Blocks retired by the last tick, for the block scheduler.
  int take_retired() {
    const int n = retired_;
    retired_ = 0;
    return n;
  }
  bool has_warps() const { return live_warps_ > 0; }
  uint64_t instructions() const { return stats_.warp_instructions; }
  const SmStats& stats() const { return stats_; }
  std::vector<BlockSlice>& block_trace() { return block_trace_; }
  std::vector<WarpSlice>& warp_trace() { return warp_trace_; }
  // Why a block cannot make progress (for deadlock reports), or empty.
  std::string describe_stuck() const;

 private:
  struct Readiness {
    uint64_t at = 0;  // earliest cycle it can issue (kNever: waits on another warp)
    Stall reason = Stall::Idle;
  };
  Readiness readiness(TimedWarp& w, uint32_t scheduler, uint64_t now);
  // Issues the warp's next instruction, known to be ready; returns false only for a
  // second (dual-issue) instruction that cannot go in this cycle.
  bool try_issue(TimedWarp& w, uint32_t scheduler, uint64_t now, bool dual);
  void order_candidates(uint32_t scheduler, std::vector<uint32_t>& order);  // two-level policy
  void arrive_at_barrier(TimedWarp& w, const exec::StepResult& r, uint64_t now);
  void retire_warp(TimedWarp& w, uint64_t now);
  void account(uint64_t until);

  uint32_t id_;
  const arch::ArchConfig& arch_;
  const kernel::Program& program_;
  const std::vector<InstructionTiming>& timing_;
  exec::Executor& executor_;
  memory::MemoryModel& memory_;
  bool trace_warps_;
  uint32_t schedulers_;

  std::vector<TimedWarp> warps_;
  std::vector<ResidentBlock> blocks_;
  std::vector<std::vector<uint32_t>> live_;          // per scheduler: live warp slots, oldest first
  std::vector<std::array<uint64_t, kUnitCount>> unit_free_;  // per scheduler, in 1/kUnitTicks cycles
  uint64_t shared_free_ = 0;          // when the shared-memory banks take the next pass
  bool last_free_ = false;            // the instruction try_issue last issued was folded (no issue cycle)
  std::vector<uint64_t> issue_free_;  // per scheduler: first cycle it can issue again (expanded instructions)
  std::vector<uint32_t> last_issued_;                // per scheduler: warp slot that issued last
  std::vector<size_t> last_pos_;                     // per scheduler: its index in live_ (npos: none)
  std::vector<Stall> reason_;                        // per scheduler: stall charged since last_tick_
  // Per scheduler: no warp of it can issue before this cycle (0: evaluate). Nothing it
  // waits on changes until then unless a block arrives, a barrier opens or a warp exits.
  std::vector<uint64_t> wake_;
  std::vector<uint32_t> order_;                      // scratch
  uint64_t last_tick_ = 0;                           // cycles before this are accounted
  uint32_t live_warps_ = 0;
  int free_block_slots_ = 0;
  int retired_ = 0;
  uint64_t next_age_ = 0;
  SmStats stats_;
  std::vector<BlockSlice> block_trace_;
  std::vector<WarpSlice> warp_trace_;
};

}  // namespace gpusim::core
