// The SMs that tick in one cycle, run as a batch (--threads): every SM's own cycle
// (Sm::run_cycle), side by side on the threads when enough SMs tick, each thread the due
// SMs of its own list of SM indices, then what is left of the others' (whichever thread runs
// an SM, its cycle is the same); its requests' L2 and DRAM part and the responses' times
// (Sm::settle_memory), in SM order on one thread as soon as that SM's cycle is done, while
// later SMs' cycles still run (it touches nothing they do); then, in SM order, the rest of
// what each cycle leaves to the GPU (Sm::end_cycle: its global stores, the blocks it
// retired, its next tick). A cycle that leaves the GPU nothing but its next tick and its
// instructions ends on its own thread instead (Sm::end_cycle_alone), so that this thread,
// which every cycle waits for, reads no SM's own state but what the settle needs: moving
// those cache lines to its core and back, every SM every cycle, was most of its time on 16
// threads. An SM's own cycle sees nothing another SM did in the same cycle, so the result
// is the same whatever the number of threads, byte for byte.
//
// Where nothing that one SM does can reach another within a span of cycles (set_quantum:
// the memory's lookahead, no sooner than a retired block's room comes back), each SM runs up
// to that many cycles in a row (Sm::begin_quantum, run_until), its state in one core's cache, and the
// batch then settles the requests and applies the stores of those cycles in (cycle, SM)
// order: the result of cycle-by-cycle batches, but for the stores, which other SMs see at
// the quantum's end (as a GPU's stores, unfenced, may come late). A quantum ends before the
// next other event (a block's room back, a counter sample), and before a release at which
// --sample reads the whole GPU (a ReleaseReader). Where a room comes back as its block
// retires (no release time), each SM stops after a cycle that retires one, and the rooms go
// back in (cycle, SM) order, each SM running on before the next (hand_back_in_order,
// hand_back_shared). Otherwise, on several threads the SMs run
// it in slices, and the settle of each slice trails them on this thread while they run the
// next (run_trailing): its responses, all due after the quantum, are given at its end.
//
// A kernel whose SMs meet within a cycle runs its SMs one after another, as without a batch:
// atomics (their values depend on the order of the SMs), printf (its lines come in the order
// executed), --source (its per-instruction L2 counts) and --out-of-bounds continue, or a
// memory system whose SM side waits on the shared part (limited miss-status registers).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/release_reader.hpp"
#include "core/tick_calendar.hpp"
#include "engine/event_queue.hpp"
#include "exec/executor.hpp"
#include "exec/run_limits.hpp"
#include "kernel/ir.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::core {

class Sm;

class TickBatch {
 public:
  // Why a launch's SMs cannot tick in batches (see above), or empty when they can.
  static std::string in_order_because(const kernel::Program& program, const exec::LaunchConfig& launch, bool profile,
                                      const memory::MemorySystem& memory);

  // `sms`: the GPU's, by index; each now ticks through the batch. `executors`: one per thread
  // (the first the caller's), each the launch's. `instructions`: the launch's count so far,
  // which `limits` bound (the SMs' KernelContext's).
  TickBatch(engine::EventQueue& events, const std::vector<std::unique_ptr<Sm>>& sms,
            std::vector<exec::Executor*> executors, uint64_t& instructions, const exec::RunLimits& limits,
            memory::MemorySystem& memory);
  ~TickBatch();
  TickBatch(const TickBatch&) = delete;
  TickBatch& operator=(const TickBatch&) = delete;

  // SM `sm` (its index) ticks in cycle `at` unless it already ticks earlier: its tick event,
  // kept here, so that a cycle's due SMs cost one event rather than one each. Inline: every
  // SM cycle's end calls it.
  [[gnu::always_inline]] void wake(uint32_t sm, engine::Cycle at) {
    if (calendar_.lower(sm, at)) events_.schedule_by(event_, at);
  }
  // SM `sm`'s first retired block's room comes back at `at` (Sm::release): the batch calls
  // it then, before that cycle's SMs, in SM order, as release events would.
  void release_at(uint32_t sm, engine::Cycle at) {
    releases_.push_back({at, sm});
    std::push_heap(releases_.begin(), releases_.end(), later_release);
    if (!planning_) events_.schedule_by(event_, at);
  }
  // While a quantum's releases are done before its SMs run: an SM keeps the blocks the
  // dispatcher gives it (Sm::launch_block), and tells the batch so.
  bool planning() const { return planning_; }
  void planned(uint32_t sm) { planned_.push_back(sm); }
  // SMs run up to `cycles` cycles in a quantum (1: one cycle per batch).
  void set_quantum(engine::Cycle cycles) { quantum_ = cycles; }
  // A quantum ends before each release that `reader` reads at (null: none).
  void set_release_reader(const ReleaseReader* reader) { reader_ = reader; }
  // The last cycle any SM ran (a quantum's cycles come after its batch's event).
  engine::Cycle last_cycle() const { return last_cycle_; }

 private:
  // Fewer SMs than this in a cycle run on one thread: handing them out costs more.
  static constexpr size_t kMinShared = 8;
  void run();                   // the batch's event, after every SM's tick event of the cycle
  // A worker's part of round `round`'s SMs' own cycles, then what is left of the others'.
  void share(size_t thread, uint64_t round);
  // Runs, on `thread`, the SMs of `part`'s list that no thread has taken yet.
  void run_part(size_t part, size_t thread, uint64_t round);
  // running_[i]'s cycle, on `thread` (in a quantum whose SMs stop at retiring cycles: its
  // run_whole up to whole_until_).
  void run_one(size_t i, size_t thread, uint64_t round);
  // running_[i]'s quantum from its first tick up to `end` or its first stop, on `thread`,
  // its requests left to settle_until.
  void run_whole(size_t i, engine::Cycle end, size_t thread);
  void serve(size_t thread);    // a worker thread's loop
  void run_shared();            // the SMs' cycles on every thread, settled in order on this one
  // Deals running_ out to the threads' lists (parts_), this thread's range by own_share_,
  // their counts cleared.
  void deal();
  // own_share_ a step towards this thread's being as busy (`busy`, ticks) as the busiest worker.
  void balance(uint64_t busy);
  // Which worker's list has SM `sm` when this thread's range ends at `own_end` (0: this thread's).
  size_t part_of(size_t sm, size_t own_end) const;
  // After running_[i] has run its cycle, on the thread that ran it: its cycle's end if that
  // touches the SM alone (Sm::end_cycle_alone), kept in its ticket and that thread's Part.
  void end_alone(size_t i, size_t thread);
  void settle(size_t i);  // running_[i]'s settle_memory, reading its state only if it did not end alone
  // The rest, in SM order on this thread: end_cycle for the SMs that need it, the
  // instructions towards the budget, the batch's next tick.
  void end_shared();
  // The quantum from now_: its end, past now_ + 1 when one is worth running.
  engine::Cycle quantum_end();
  // Every SM with a tick before `end` runs its cycles up to it, then the quantum's ends.
  void run_quantum(engine::Cycle end);
  // run_quantum's SMs on every thread, in slices of the quantum: each thread runs its list's
  // SMs a slice at a time, then what the others' lists have left of that slice, and this one,
  // as soon as every SM has run a slice, settles it while they run the next
  // (MemorySystem::settle_handed). Measured on the device machine (session 62): a thread
  // whose list was done waited for the slowest, 12-21% of a quantum on the h100 vecadd.
  void run_trailing(engine::Cycle end);
  void trail(size_t thread);  // a worker's part of run_trailing
  uint64_t start_round();   // wakes the workers on a new round (none finished yet); returns it
  void wait_for_workers();  // until every worker is done with the round (finished_)
  // Part `part`'s SMs' cycles of `slice` that this thread can take: all that are left of its
  // own list; of another's, those whose previous slice is done, but for the owner's last.
  // True when it ran one.
  bool take_slice(size_t part, uint32_t slice, size_t thread);
  bool take_others(uint32_t slice, size_t thread);  // take_slice from every other list, from the next thread's on
  void run_taken(size_t i, uint32_t slice, size_t thread);  // run_slice, once its previous slice is done; counted
  void run_slice(size_t i, uint32_t slice, size_t thread);  // running_[i]'s cycles of `slice`, handed over
  bool slice_done(uint32_t slice) const {  // every due SM's
    return slices_done_[slice].load(std::memory_order_acquire) == running_.size();
  }
  engine::Cycle slice_start(uint32_t slice) const { return slice == 0 ? now_ : slice_ends_[slice - 1]; }
  engine::Cycle slice_end(uint32_t slice) const { return slice_ends_[slice]; }
  void cut_slices(engine::Cycle end);  // slice_ends_ for the quantum [now_, end)
  uint32_t slices() const { return static_cast<uint32_t>(slice_ends_.size()); }
  // The counts the threads take slices by, and each SM's slices run, all 0.
  void clear_slice_counts();
  // run_quantum's SMs each running its cycles at once, up to `end` or (`stops`) its first
  // retiring cycle, their rooms then given back; then the settle (core/tick_batch_hand_back.cpp).
  void run_whole_quanta(engine::Cycle end, bool stops);
  // The SMs of a quantum that stopped after retiring a block (Sm::stop_at_retire): their
  // rooms given back in (cycle, SM) order, each SM then run on to `end`.
  void hand_back_in_order(engine::Cycle end);
  // The same on every thread: a room goes back once every SM running on has run past its
  // cycle, given back by whichever thread is free, and the SMs given rooms run on on
  // whichever thread takes them.
  void hand_back_shared();  // (the quantum's end is whole_until_)
  void resume_queued(size_t thread);  // a thread's part of hand_back_shared: rooms back, SMs run on
  // Gives the next room back, if it is safe and no other thread is at it: true when it did.
  bool hand_back_next();
  bool resume_one(size_t thread);     // runs on a queued SM, if one is left: true when it did
  // running_'s earliest stopped SM not running on, by (cycle, position) (size: none).
  size_t first_stopped() const;
  void end_quantum();  // responses, faults, stores, what each SM leaves, in (cycle, SM) order
  // The quantum's stores in (cycle, SM) order, unless an SM faulted (end_quantum throws then).
  // With slices, the first worker applies them as soon as every SM is done, while this thread
  // settles the last slice (the two touch nothing in common); stores_applied_ says it did.
  void apply_stores();
  size_t first_fault() const;  // running_'s position of the first fault in (cycle, SM) order (size: none)
  void apply_stores_once_done();

  engine::EventQueue& events_;
  engine::MemberEvent<TickBatch, &TickBatch::run> event_;
  std::vector<Sm*> sms_;             // by SM index
  TickCalendar calendar_;             // by SM index: its next tick
  std::vector<Sm*> running_;
  std::vector<exec::Executor*> executors_;
  uint64_t& instructions_;
  const exec::RunLimits& limits_;
  engine::Cycle now_ = 0;
  memory::MemorySystem& memory_;
  void do_releases(engine::Cycle until);  // the releases due before `until`, in (cycle, SM) order
  // do_releases(end) for a quantum that ends at `end`, but for those from the first that
  // reader_ reads at after the quantum's first cycle: the quantum ends at that one's cycle,
  // returned (else `end`).
  engine::Cycle do_releases_unread(engine::Cycle end);
  void do_first_release();
  struct Release {
    engine::Cycle at;
    uint32_t sm;
  };
  static bool later_release(const Release& a, const Release& b) { return a.at > b.at || (a.at == b.at && a.sm > b.sm); }
  std::vector<Release> releases_;  // a heap: the earliest, then lowest SM, first
  bool planning_ = false;
  const ReleaseReader* reader_ = nullptr;
  std::vector<uint32_t> planned_;  // SMs given blocks while planning
  engine::Cycle quantum_ = 1;
  engine::Cycle last_cycle_ = 0;
  bool trailing_ = false;  // in run_trailing: the workers trail (else share)
  engine::Cycle whole_until_ = 0;  // a quantum whose SMs stop at retiring cycles: its end (else 0)
  bool resuming_ = false;          // in hand_back_shared: the workers run queued SMs on
  std::vector<size_t> resume_queue_;         // positions in running_, in the order given rooms
  std::atomic<size_t> queued_{0};            // how many of resume_queue_ are published
  std::atomic<size_t> resume_taken_{0};      // how many of them some thread has taken
  std::atomic<bool> resume_over_{false};     // no more will be queued
  std::mutex hand_back_lock_;                // held by the thread in hand_back_next
  // Slices of a quantum: as long as this at most. The more, the less of the settle is left
  // when the last SM is done; the fewer, the less often each SM's state comes back to a core.
  static constexpr engine::Cycle kSliceCycles = 64;
  // The last slice's settle waits for every SM, and the other threads for it: it is this
  // short at most.
  static constexpr engine::Cycle kLastSliceCycles = 16;
  std::vector<engine::Cycle> slice_ends_;
  std::vector<std::atomic<uint32_t>> slices_done_;  // by slice: how many due SMs have run it (sized between rounds)
  std::vector<engine::Cycle> from_;  // in a quantum, by position in running_: the SM's first cycle
  std::vector<uint32_t> ids_;        // in a quantum: running_'s SM indices
  struct First {
    uint32_t sm;
    engine::Cycle at;  // its first tick, at or past the quantum's end for one given a block
  };
  std::vector<First> firsts_;
  std::vector<exec::StoreLog*> logs_;  // in a quantum: running_'s
  std::vector<exec::StoreLog::PartOf> store_parts_;
  bool stores_applied_ = false;  // this quantum's, by the first worker (apply_stores_once_done)
  std::vector<std::thread> workers_;
  // The due SMs are shared out in lists: this thread's, a range of the lowest SM indices, and
  // each worker w's (1, 2, ...), every (threads - 1)th SM index above it, from w - 1. Fixed
  // by SM index, so that an SM's state stays in one core's cache from cycle to cycle. A worker
  // runs its own list, then takes what is left of the others': an SM's cycle costs from a few
  // hundred to several thousand host cycles, and with fixed shares the last worker ended 1.7x
  // after the mean. Interleaved so that the SMs the settle takes next, in SM order, are among
  // the first each list runs: with a range each, the settle came to the second worker's SMs
  // only once the first had run all of its own, and settled the rest after they were done.
  struct alignas(128) Part {
    std::vector<size_t> positions;        // in running_, ascending (set by this thread before the round)
    std::atomic<size_t> taken{0};         // how many of them some thread has taken (unused with one worker)
    // What the SMs a thread ran that ended alone leave to the batch: their instructions and
    // the earliest of their next ticks (the running thread's own Part).
    uint64_t instructions = 0;
    engine::Cycle wake = engine::kNever;
    uint64_t busy = 0;  // a worker's: how long its share of the round took (ticks)
    // run_trailing: by slice, how many of its SMs some thread has taken (sized between rounds).
    std::vector<std::atomic<uint32_t>> taken_in;
  };
  std::vector<Part> parts_;  // by thread
  // One per position in running_: written by the thread that ran the SM, polled by this one.
  // `done` on a line of its own: while this thread polls it, a write to a line it shares
  // would move that line back and forth between the two cores.
  struct Ticket {
    alignas(64) std::atomic<uint64_t> done{0};  // the round in which the SM's cycle was run
    std::atomic<uint32_t> slices{0};            // run_trailing: how many of its slices have run
    // hand_back_shared: whether a thread runs the SM on (else this thread may read it), and
    // the cycle before which it has run without stopping (Sm::publish_progress).
    std::atomic<bool> resumed{false};
    std::atomic<engine::Cycle> progress{0};
    alignas(64) bool alone = false;             // its cycle ended on its thread
    engine::Cycle next = engine::kNever;        // then: its next tick
  };
  std::vector<Ticket> tickets_;
  // This thread's range of SM indices, in parts of an even share: it also settles every SM,
  // so it takes as many as keep its SMs and the settle as long as the busiest worker's SMs
  // (timed each batch; it moves a step towards that). Whatever it is, the result is the same.
  double own_share_ = 1.0;
  std::atomic<uint64_t> round_{0};    // bumped to start the workers on running_
  std::atomic<size_t> finished_{0};   // workers done with this round
  std::atomic<bool> stop_{false};
};

}  // namespace gpusim::core
