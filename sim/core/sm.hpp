// One streaming multiprocessor: resident blocks and warps, warp schedulers (each with its
// policy, a plug-in) and their execution units, the warps' scoreboards, barriers, and the
// load/store unit. Instructions execute functionally at issue (exec::Executor); the SM
// only decides when. It ticks on the engine while it can issue and otherwise sleeps until
// a warp becomes ready or a memory response wakes it. Every scheduler-cycle is either an
// issue or one stall reason.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/instruction_class.hpp"
#include "core/instruction_profile.hpp"
#include "core/launch_stats.hpp"
#include "core/load_store_unit.hpp"
#include "core/scheduler/issue_scan.hpp"
#include "core/scheduler/policy.hpp"
#include "core/tick_batch.hpp"
#include "core/warp.hpp"
#include "engine/event_queue.hpp"
#include "exec/barrier.hpp"
#include "exec/executor.hpp"
#include "exec/run_limits.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::arch {
struct ArchConfig;
}

namespace gpusim::core {

using engine::kNever;

// The SM's part of the architecture, by value.
struct SmConfig {
  int max_warps = 0;
  int max_blocks = 0;
  int schedulers = 0;
  int issue_width = 1;
  std::string policy;
  memory::SharedAccessConfig shared;
  int barrier_latency = 0;
  double barrier_per_warp = 0;
  int taken_branch = 0;        // latencies.taken_branch
  double cycles_per_ns = 1.0;  // the core clock, for nanosleep
  int hoist_trips = 1;         // scheduling.ptxas_unroll
  int hoist_loads = 0;         // scheduling.ptxas_hoist_loads
  int block_release = 0;       // block_scheduler.block_release_cycles

  static SmConfig from(const arch::ArchConfig& arch);
};

// What one launch gives every SM.
struct KernelContext {
  const kernel::Program& program;
  const std::vector<InstructionTiming>& timing;
  exec::Executor& executor;
  bool trace_warps = false;
  bool profile = false;  // per-instruction counters for the source view
  uint64_t* instructions = nullptr;  // warp instructions issued by every SM so far
  const exec::RunLimits* limits = nullptr;
};

// Told when an SM has room for more blocks again (the block dispatcher): `count` of its blocks
// have given their room back.
class BlockSink {
 public:
  virtual ~BlockSink() = default;
  virtual void blocks_retired(uint32_t sm, uint64_t count, engine::Cycle now) = 0;
  // Whether any block was still to be assigned in cycle `now` (an SM frees a slot late only
  // if one was).
  virtual bool blocks_left_at(engine::Cycle now) const = 0;
};

class TickBatch;

class alignas(64) Sm final : private Issuer, public memory::ResponseSink {  // alone on its lines: each SM's thread writes its own
 public:
  Sm(uint32_t id, const SmConfig& config, engine::EventQueue& events, memory::MemorySystem& memory,
     const KernelContext& kernel, BlockSink& dispatcher);
  ~Sm() override;

  uint32_t id() const { return id_; }
  // Makes block `linear` resident at `now`; its warps may issue from `eligible_at`. While
  // its batch plans a quantum, the block is kept for the SM's quantum to place at `now`.
  // `room_at`: the cycle its room came back. The SM's cycles before it are charged as they
  // were; its cycle `room_at` may be still to run (a release comes before the SM's cycle, and
  // the block before it too), and charges itself.
  void launch_block(uint64_t linear, engine::Cycle now, engine::Cycle eligible_at, engine::Cycle room_at);
  // Gives back the slots of blocks retired block_release cycles ago by `now` and tells the
  // dispatcher: at the release's event, or in a batch when the batch does it (release_at).
  void release(engine::Cycle now);
  // How many blocks' rooms release(at) would give back (retired block_release cycles before).
  uint64_t releasable_by(engine::Cycle at) const {
    return static_cast<uint64_t>(std::upper_bound(releasing_.begin(), releasing_.end(), at) - releasing_.begin());
  }
  // Ticks every cycle, never jumping over idle ones (for tests of the jump logic).
  void set_tick_every_cycle(bool v) { every_cycle_ = v; }
  // Ticks with the other SMs of its cycle in `batch` (core/tick_batch.hpp): the tick event
  // joins the batch, which runs every SM's cycle (run_cycle, side by side) and then each
  // one's effects on the rest of the GPU (end_cycle, in SM order). In a batch the SM takes
  // its responses itself, at the start of its cycle (run_cycle), rather than by an event each.
  void set_batch(TickBatch* batch);
  // The SM's own cycle: touches nothing outside the SM but its own part of the memory
  // system (which keeps the rest for settle()); global stores go to its store log.
  void run_cycle(engine::Cycle now, exec::Executor& executor);
  // What the cycle's requests leave to the memory system's shared part (the L2, DRAM, the
  // responses' times), in SM order after run_cycle: it reads and writes nothing another SM's
  // run_cycle touches, so it may run while later SMs still run theirs.
  void settle_memory() {
    if (!fault_) memory_.settle(id_);
  }
  // settle_memory for a cycle that ended alone (end_cycle_alone: without a fault), reading
  // none of the SM's own state, which its thread may be writing in its next cycle's place.
  void settle_memory_ended_alone() { memory_.settle(id_); }
  // What else the cycle leaves to the rest, after every SM's run_cycle and settle_memory: the
  // stores, the instruction budget, the blocks retired, the next tick. Rethrows the cycle's
  // fault.
  void end_cycle(engine::Cycle now);
  // end_cycle's part for a cycle that leaves nothing to the rest of the GPU (no fault, store,
  // retired block or release to schedule), done on the SM's own thread right after
  // run_cycle, so that the batch's thread need not read this SM's state: returns the next
  // tick (kNever: none), for the batch to wake it then. The cycle's instructions count
  // towards the budget through the batch. Returns nullopt, having done nothing, when the
  // cycle needs end_cycle in SM order.
  std::optional<engine::Cycle> end_cycle_alone();
  // A quantum of TickBatch (core/sm_quantum.cpp; run_until in sm.cpp): begin_quantum from
  // `from` (`slices`: how many it hands over to the memory system, 0 for none,
  // MemorySystem::begin_quantum); run_until each slice's end, or the quantum's, each cycle a
  // run_cycle with no end but its next tick, on any threads one after another;
  // finish_quantum (returns the SM's next tick, kNever: none). Its stores and requests are
  // kept for the batch to apply and settle in (cycle, SM) order, the rest for end_quantum.
  // run_until stops after a cycle that faults (or, stop_at_retire, that retires a block).
  void begin_quantum(engine::Cycle from, uint32_t slices);
  void run_until(engine::Cycle until, exec::Executor& executor);
  engine::Cycle finish_quantum();
  // Whether a block it retires in a quantum from `at` gives its room back at once (no
  // block_release) while the dispatcher has blocks left for it. Then its quantum stops after
  // that cycle (stop_at_retire), the batch gives the room back in (cycle, SM) order
  // (hand_back_retired), and the SM runs on (run_until again).
  bool retire_stops(engine::Cycle at) const { return config_.block_release <= 0 && dispatcher_.blocks_left_at(at); }
  void stop_at_retire(bool stop) { stop_at_retire_ = stop; }
  // The cycle its quantum stopped after, having retired a block (kNever: not stopped).
  engine::Cycle stopped_at() const { return stopped_at_; }
  // Tells the dispatcher of the blocks it retired in that cycle, as end_cycle would; the
  // blocks the dispatcher gives it are kept for run_until to place (the batch plans).
  void hand_back_retired();
  // While `to` is set, run_until stores there, after each cycle it runs on from, the next
  // cycle it would run: every cycle before it has run without a stop.
  void publish_progress(std::atomic<engine::Cycle>* to) { progress_out_ = to; }
  // The quantum's fault's cycle (kNever: none), and the fault, thrown.
  engine::Cycle fault_cycle() const { return fault_ ? fault_cycle_ : kNever; }
  [[noreturn]] void rethrow_fault();
  // The last cycle the quantum ran.
  engine::Cycle quantum_last() const { return quantum_last_; }
  exec::StoreLog& store_log() { return stores_; }
  // What the quantum leaves to the GPU, on the batch's thread in SM order: its release
  // event, its retired blocks' room. Returns the warp instructions it issued.
  uint64_t end_quantum();
  // The most warp instructions one of its cycles can issue.
  uint64_t max_cycle_instructions() const {
    return static_cast<uint64_t>(config_.schedulers) * static_cast<uint64_t>(config_.issue_width);
  }
  [[noreturn]] void report_past_deadline() const { report_runaway(kernel_.limits->timeout_message()); }
  // The warp instructions the SM issued in its current (batch) cycle.
  uint64_t cycle_instructions() const { return stats_.warp_instructions - instructions_before_; }
  // Throws the budget's runaway error with this SM's last issued warp.
  [[noreturn]] void report_over_budget() const;

  // Simulates cycle `now` (charging stalls for the cycles since the last tick) and
  // returns the next cycle at which something can happen, or kNever.
  engine::Cycle tick(engine::Cycle now);
  // Charges the stalls up to (not including) `end` and closes the books.
  void finish(engine::Cycle end);
  // Charges the stalls up to `now`, for a snapshot of the counters; changes no timing.
  void charge_until(engine::Cycle now) { account(now); }

  void on_response(uint64_t tag) override;
  void on_response_due(engine::Cycle at) override;

  bool has_warps() const { return live_warps_ > 0; }
  uint32_t live_warps() const { return live_warps_; }
  uint64_t instructions() const { return stats_.warp_instructions; }
  const SmStats& stats() const { return stats_; }
  std::vector<BlockSlice>& block_trace() { return block_trace_; }
  std::vector<WarpSlice>& warp_trace() { return warp_trace_; }
  // Per-instruction counters (empty unless the kernel context asks for them).
  const InstructionProfile& profile() const { return profile_; }
  // Why a block cannot make progress (for deadlock reports), or empty.
  std::string describe_stuck() const;

 private:
  struct ResidentBlock {
    exec::BlockState state;
    exec::BarrierTable barriers;
    uint64_t linear = 0;
    engine::Cycle start = 0;
    uint32_t live_warps = 0;
    bool in_use = false;
  };
  // A scheduler's live warp slots, oldest first, in its part of the SM's live_storage_ (so
  // that the scan's first look is near the SM's other state, not in a heap block of its own),
  // and by the same position, in its part of known_waits_, what the warp's gate last told a
  // scan (IssueScan's known waits).
  class LiveList {
   public:
    void attach(uint32_t* data, engine::Cycle* known_waits) {
      data_ = data;
      known_waits_ = known_waits;
    }
    const uint32_t* begin() const { return data_; }
    const uint32_t* end() const { return data_ + count_; }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    uint32_t operator[](size_t i) const { return data_[i]; }
    engine::Cycle* known_waits() { return known_waits_; }
    void forget_wait(size_t i) { known_waits_[i] = 0; }
    void push_back(uint32_t slot) {
      known_waits_[count_] = 0;
      data_[count_++] = slot;
    }
    void erase_at(size_t i) {
      std::copy(data_ + i + 1, data_ + count_, data_ + i);
      std::copy(known_waits_ + i + 1, known_waits_ + count_, known_waits_ + i);
      --count_;
    }

   private:
    uint32_t* data_ = nullptr;
    engine::Cycle* known_waits_ = nullptr;
    size_t count_ = 0;
  };
  struct Scheduler {
    std::unique_ptr<SchedulerPolicy> policy;
    LiveList live;
    IssueUnits units;
    uint32_t last_issued = 0;      // warp slot that issued last
    size_t last_pos = std::string::npos;  // its index in live (npos: none)
    uint64_t parked = 0;           // by index in live (< 64): waits with no known end
    Stall reason = Stall::Idle;    // stall charged since the last tick
    // No warp of it can issue before this cycle (0: evaluate). Nothing it waits on
    // changes until then unless a block arrives, a barrier opens, a warp exits or a
    // load returns.
    engine::Cycle wake = 0;
    // Its scan, made once by the SM's constructor (it points at this scheduler's lists and
    // units) and restarted each cycle: the cycle sets only what changes.
    std::optional<IssueScan> scan;
  };
  bool try_offer(IssueScan& scan, size_t index) override;
  bool active(uint32_t slot, engine::Cycle now) override;

  [[gnu::always_inline]] Readiness readiness(TimedWarp& w, Scheduler& s, engine::Cycle now);
  // readiness() of a warp IssueScan::offer() has let by: offer() checked its gate and, where
  // the next instruction was known, that instruction's operands and units.
  [[gnu::always_inline]] Readiness offered_readiness(TimedWarp& w, Scheduler& s, engine::Cycle now);
  // readiness()'s last part: whether the load/store unit takes the next instruction now.
  [[gnu::always_inline]] Readiness lsu_readiness(const WarpGate& g, engine::Cycle now);
  // Decides what the warp issues next - the instruction at its PC, or the oldest one it set
  // aside - setting aside (executing) the instructions ptxas would have moved below later
  // ones; fills w.next and w.operands_at.
  [[gnu::always_inline]] void choose_next(TimedWarp& w);
  void set_aside(TimedWarp& w, const InstructionTiming& t);
  void issue_set_aside(TimedWarp& w, Scheduler& s, engine::Cycle now);
  // What an instruction issued at `now` starts: when its result is ready, what the scoreboard
  // waits for, how long its unit is busy (a memory access goes out here); counts it.
  struct Begun {
    engine::Cycle ready;
    uint32_t ticket;
    uint64_t busy;
  };
  Begun begin(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, engine::Cycle now);
  [[gnu::always_inline]] Begun start(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, engine::Cycle now);  // begin's work, unprofiled
  // Charges the scheduler's unit (and issue slot) for an instruction issued at `now`.
  void occupy(Scheduler& s, const InstructionTiming& t, uint64_t busy, engine::Cycle now);
  // Issues the warp's next instruction, known to be ready; returns false only for a
  // second (dual-issue) instruction that cannot go in this cycle.
  bool try_issue(TimedWarp& w, Scheduler& s, engine::Cycle now, bool dual);
  // try_issue's work once it has decided to issue. Compiled into try_offer, whose first issue
  // of a cycle is most of them, and into try_issue for the rest: no call of its own.
  [[gnu::always_inline]] void issue(TimedWarp& w, Scheduler& s, engine::Cycle now);
  void arrive_at_barrier(TimedWarp& w, const exec::StepResult& r, engine::Cycle now);
  // A taken branch: the warp's target issues latencies.taken_branch later.
  void take_branch(TimedWarp& w, engine::Cycle now);
  // Keeps the warp from issuing before `until`, charged to `why`.
  void hold(TimedWarp& w, engine::Cycle until, Stall why);
  // ptxas's stall count of `t`, just issued (core/static_stalls.hpp). Instructions set aside
  // stand for a reordering the static schedule does not know: none applies while any is left.
  void pay_stall_count(TimedWarp& w, const InstructionTiming& t, engine::Cycle now) {
    if (t.stall > 1 && w.hoist.empty()) hold(w, now + t.stall, Stall::Wait);
  }
  // cp.async groups, nanosleep, match.sync: what the few instructions with t.rare do after
  // issuing; returns the latency they add to their result.
  engine::Cycle after_rare_issue(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, uint32_t ticket,
                                 engine::Cycle now);
  void release_barriers(uint32_t block_slot, uint32_t barriers, engine::Cycle at);
  void retire_warp(TimedWarp& w, engine::Cycle now);
  void wake_all();
  void account(engine::Cycle until);
  // A launched block's executor state (its shared memory, its warps' registers) is made at
  // the SM's next tick, not at the launch: the dispatcher launches on the batch's thread,
  // which every thread waits for, and the tick runs on the SM's own thread.
  void make_ready();
  // The source view's accounting (core/sm_profile.cpp): which instruction each live warp
  // waits to issue and in which state, charged per cycle without changing what the timing reads.
  struct WarpState {
    size_t index;  // instruction
    int state;     // a Stall, kSelected or kNotSelected
  };
  WarpState warp_state(TimedWarp& w, const Scheduler& s, engine::Cycle now);
  void profile_states(engine::Cycle at, uint64_t cycles);
  // Counts an issued instruction and the memory traffic it caused since `before`.
  struct TrafficMark {
    memory::MemoryStats memory;
    uint64_t shared_requests, shared_passes;
  };
  TrafficMark traffic_mark() const { return {memory_.stats(), stats_.shared_requests, stats_.shared_passes}; }
  void profile_issue(TimedWarp& w, const InstructionTiming& t, const exec::StepResult& r, const TrafficMark& before,
                     engine::Cycle now);
  void on_tick();  // the SM's tick event, when it ticks alone (no batch)
  // The SM ticks in cycle `at` unless it already does earlier (its batch keeps its ticks).
  // Inline (below): every cycle's end calls it.
  void wake_at(engine::Cycle at);
  void on_release() { release(events_.now()); }  // the release event (no batch)
  // The release of the first slot in releasing_ is due: an event, or with the batch.
  void schedule_release();
  // launch_block's work, but for its wake.
  void place_block(uint64_t linear, engine::Cycle eligible_at, engine::Cycle room_at);
  // Throws exec::ExecError naming a warp still running (kernel, block, PC): a runaway.
  [[noreturn]] void report_runaway(const std::string& what) const;
  // The instruction budget, the deadline, the blocks retired and the next tick, after a cycle
  // that issued the instructions past `before` and can go on at `next`.
  // Compiled into its two callers, end_cycle and on_tick (sm_cycle_end.cpp): a call per SM
  // cycle, on the thread that ends every cycle.
  [[gnu::always_inline]] void after_cycle(engine::Cycle now, uint64_t before, engine::Cycle next);
  // run_cycle and tick, compiled into their callers in sm.cpp (run_until's loop).
  [[gnu::always_inline]] void run_cycle_inline(engine::Cycle now, exec::Executor& executor);
  [[gnu::always_inline]] engine::Cycle tick_inline(engine::Cycle now);
  exec::Executor& executor() const { return *executor_; }
  // A response to a live warp: its data is there. False when nothing waited for it.
  bool take_response(uint64_t tag, engine::Cycle now);

  uint32_t id_;
  // First, what each cycle of the SM reads (tick, run_cycle, end_cycle), together on few host
  // cache lines: on Hopper an SM's cycle comes after 131 others', which push its lines out.
  exec::Executor* executor_;  // the kernel's, or in a batch, that of the thread running the SM
  Scheduler* scanning_ = nullptr;  // the scheduler whose cycle is being scanned
  engine::Cycle next_tick_ = engine::kNever;  // in a batch: what run_cycle found
  // Pulled responses: the earliest due in the memory system's queue for this SM, kept from
  // take_due and on_response_due, so a cycle with none due does not read that queue.
  engine::Cycle response_due_ = engine::kNever;
  bool in_cycle_ = false;  // in run_cycle's tick: a response made now is the SM's own to wake for
  bool in_quantum_ = false;  // from begin_quantum to finish_quantum: its next tick is the quantum's to find, not the batch's
  bool release_pending_ = false;  // a release is scheduled (an event, or with the batch)
  struct PlannedLaunch {
    uint64_t linear;
    engine::Cycle now, eligible_at, room_at;
  };
  std::vector<PlannedLaunch> planned_;  // launch_block's while the batch plans a quantum, in order
  engine::Cycle fault_cycle_ = 0;      // in a quantum: the cycle fault_ was thrown in
  engine::Cycle quantum_last_ = 0;     // the last cycle the quantum ran
  engine::Cycle quantum_retired_ = 0;  // the cycle of its last retired block
  bool stop_at_retire_ = false;        // in a quantum: stop after a cycle that retires a block
  engine::Cycle stopped_at_ = kNever;  // the cycle it stopped after (stop_at_retire_)
  std::atomic<engine::Cycle>* progress_out_ = nullptr;  // publish_progress
  uint64_t quantum_before_ = 0;        // warp instructions before the quantum
  engine::Cycle quantum_at_ = 0;       // in a quantum: the next cycle it runs (kNever: none)
  size_t quantum_placed_ = 0;          // in a quantum: how many of planned_ it has placed
  uint64_t instructions_before_ = 0;
  engine::Cycle last_tick_ = 0;  // cycles before this are accounted
  std::exception_ptr fault_;
  uint32_t live_warps_ = 0;
  int retired_ = 0;
  uint32_t ticks_ = 0;      // for checking the wall-clock deadline now and then
  bool issued_ = false;     // whether that scan issued
  bool last_free_ = false;  // the instruction try_issue last issued was folded (no issue cycle)
  bool every_cycle_ = false;
  struct UnreadyWarp {
    uint32_t slot, warp_in_block;
  };
  std::vector<UnreadyWarp> unready_warps_;  // the warps launched since the last tick (make_ready)
  std::vector<TimedWarp> warps_;
  std::vector<WarpGate> gates_;  // by slot: what the scan reads (core/warp.hpp)
  WarpGate& gate(const TimedWarp& w) { return gates_[w.slot]; }
  const WarpGate& gate(const TimedWarp& w) const { return gates_[w.slot]; }
  std::vector<ResidentBlock> blocks_;
  std::vector<Scheduler> schedulers_;
  // Each warp slot's scheduler (slot % schedulers, kept to spare the issue path a division)
  // and, while live, its index in that scheduler's `live` (kNotLive: none), which the
  // scheduler's parked bits go by.
  static constexpr uint32_t kNotLive = 0xFFFFFFFFu;
  std::vector<uint32_t> scheduler_of_;
  std::vector<uint32_t> live_index_;
  SmStats stats_;
  TickBatch* batch_ = nullptr;
  const KernelContext& kernel_;
  memory::MemorySystem& memory_;
  SmConfig config_;
  exec::StoreLog stores_;                // in a batch: this cycle's global stores
  std::deque<engine::Cycle> releasing_;  // when each retired block's slot comes back, in order
  InstructionProfile profile_;
  LoadStoreUnit lsu_;
  std::array<uint64_t, exec::kWarpSize> run_addresses_;  // a set-aside access's lanes, written again at its issue
  // Then what only some cycles touch.
  engine::EventQueue& events_;
  BlockSink& dispatcher_;
  engine::MemberEvent<Sm, &Sm::on_tick> tick_event_;
  engine::MemberEvent<Sm, &Sm::on_release> release_event_;
  std::vector<uint32_t> live_storage_;      // the schedulers' live lists, one part each
  std::vector<engine::Cycle> known_waits_;  // and their known waits, one part each
  // A warp that waits with no known end (a response, a barrier) is parked: the scan skips it
  // (core/scheduler/issue_scan.hpp); whatever ends such a wait unparks it. The same events
  // are the only ones that can bring a warp's gate-bound wait forward: its known wait goes too.
  void unpark(uint32_t slot) { unpark(schedulers_[scheduler_of_[slot]], slot); }
  // unpark(), where the warp's scheduler `s` is at hand (an issue).
  void unpark(Scheduler& s, uint32_t slot) {
    const uint32_t index = live_index_[slot];
    if (index == kNotLive) return;
    if (index < 64) s.parked &= ~(uint64_t{1} << index);
    s.live.forget_wait(index);
  }
  uint64_t next_age_ = 0;
  std::vector<BlockSlice> block_trace_;
  std::vector<WarpSlice> warp_trace_;
};

[[gnu::always_inline]] inline void Sm::wake_at(engine::Cycle at) {
  if (in_quantum_) return;  // (run_until takes its next tick itself)
  if (batch_) batch_->wake(id_, at);
  else events_.schedule_by(tick_event_, at);
}

}  // namespace gpusim::core
