// The memory system as a component: an SM's load/store unit hands it each warp access to
// global or local memory through a port, and the response comes back as an event on the
// engine at the cycle the data is there (MGPUSim's ports, gem5's timing requests). A
// model may refuse new requests for a while (its miss-status registers are all held):
// the SM asks `accepts_at` before it issues. Models are plug-ins in impl/, named in the
// architecture file (memory.model).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/event_queue.hpp"
#include "kernel/ir.hpp"
#include "memory/l2_occupancy.hpp"
#include "memory/memory_stats.hpp"
#include "util/bits.hpp"
#include "util/registry.hpp"

namespace gpusim::memory {

struct MemoryConfig;

struct MemoryRequest {
  kernel::StateSpace space = kernel::StateSpace::Global;  // resolved (generic accesses decoded)
  bool is_store = false;
  bool is_atomic = false;        // atom (a load that updates) or red (a store that updates)
  bool float_atomic = false;     // a floating-point update (slower at L2 than an integer one)
  kernel::CacheOp cache_op = kernel::CacheOp::Default;
  uint32_t mask = 0;                    // lanes that access memory
  uint32_t bytes_per_lane = 0;
  const uint64_t* addresses = nullptr;  // per lane, in the state space
  // Whether the lanes are one run (one_run(), below), where the sender worked it out.
  std::optional<bool> lanes_one_run;
  uint32_t sm = 0;
  uint64_t tag = 0;  // returned with the response
  // The SM's cycle that sends it: the memory system times it from here, not from the event
  // queue's clock, so that an SM's cycles need not be the queue's (an SM running ahead).
  engine::Cycle cycle = 0;
  engine::Cycle not_before = 0;  // it leaves the SM's load/store pipeline then (queued behind others)
};

// Whether `r`'s lanes are one run: a full warp, lane l at lane 0's address + l x bytes_per_lane.
inline bool one_run(const MemoryRequest& r) {
  if (r.lanes_one_run) return *r.lanes_one_run;
  return r.mask == 0xFFFFFFFFu && util::consecutive_lanes(r.addresses, r.bytes_per_lane);
}

// The SM side of a port: told, by an event at the cycle a request's data is there; or,
// pulling its responses (MemorySystem::pull_responses), told when one is due, at the send's
// settle, and taking it at the start of that cycle (take_due).
class ResponseSink {
 public:
  virtual ~ResponseSink() = default;
  virtual void on_response(uint64_t tag) = 0;
  virtual void on_response_due(engine::Cycle /*at*/) {}
};

// What taking a request costs the SM's load/store pipeline: its wavefronts (lines), and the
// cycles its data stage is busy with it (a store's data may take longer than its lines).
struct Accepted {
  uint32_t wavefronts = 1;
  uint32_t busy_cycles = 1;
};

struct MemorySystemContext {
  engine::EventQueue& events;
  int sm_count = 0;
  double core_clock_mhz = 0;  // DRAM and link bandwidths are in bytes per second
};

class MemorySystem {
 public:
  explicit MemorySystem(const MemorySystemContext& context);
  virtual ~MemorySystem();

  // Where SM `sm`'s responses go (replaces an earlier sink; nullptr disconnects, and
  // delivers by events again).
  void connect(uint32_t sm, ResponseSink* sink);
  // SM `sm` takes its responses itself (take_due) on the cycle they are due, instead of by an
  // event each: on its own thread, as part of its cycle. Its queue must be empty.
  void pull_responses(uint32_t sm);
  // Pulled: calls take(tag) for each of SM `sm`'s responses due by `now`, in the order events
  // would have delivered them (by cycle, then as sent). Returns when the next one is due
  // (kNever: none). Touches only that SM's queue: safe beside other SMs' calls.
  template <class Take>
  engine::Cycle take_due(uint32_t sm, engine::Cycle now, Take&& take) {
    ResponseQueue& queue = *queues_[sm];
    queue.merge_handed();
    return queue.take_due(now, take);
  }
  // Whether accepts_at can ever answer later than `now` (so callers may skip asking).
  bool may_refuse() const { return may_refuse_; }
  // The first cycle, from `now`, at which SM `sm` can hand over a request.
  virtual engine::Cycle accepts_at(uint32_t /*sm*/, engine::Cycle now) const { return now; }
  // Takes a request at its cycle (request.cycle, not before the queue's now). A load's or an
  // atomic's response arrives later as an event; a store gets none (nothing waits on it; the
  // kernel's end waits for it through drained_at). Returns what it costs the SM's load/store pipeline.
  virtual Accepted send(const MemoryRequest& request) = 0;
  // Whether send() touches only the sending SM's own part of the system, leaving the rest to
  // settle(), so that SMs may send side by side on several threads.
  virtual bool sends_locally() const { return false; }
  // Does what SM `sm`'s requests since the last call leave to the shared part of the
  // system (the L2, DRAM, the responses' times), in the order sent. The SM calls it when its
  // cycle's work is done: within the cycle, the SM's own side (coalescing, its L1) needs no
  // answer from the shared part.
  virtual void settle(uint32_t /*sm*/) {}
  // settle(), for the requests SM `sm` sent up to `cycle`: an SM that ran ahead of the
  // others has its cycles settled one at a time, each after every SM's earlier cycles. A
  // model without a settle (fixed latency) has nothing to do.
  virtual void settle_through(uint32_t sm, engine::Cycle /*cycle*/) { settle(sm); }
  // The fewest cycles from a request's cycle to any answer the shared part gives it (the L2's
  // shortest round trip): SMs may run that many cycles before their requests are settled
  // (settle_until) and miss no answer. 1: none may.
  virtual engine::Cycle lookahead() const { return 1; }
  // Settles what the SMs of `sms` (ascending) sent before cycle `end`: cycle by cycle, each in
  // SM order, as settles after every cycle of all of them would have; a quantum's (its
  // responses kept for end_quantum).
  virtual void settle_until(std::span<const uint32_t> sms, engine::Cycle /*end*/) {
    for (uint32_t sm : sms) settle(sm);
  }
  // A quantum (TickBatch), for a model whose lookahead() is more than 1. On the SM's thread:
  // begin_quantum before its first cycle, with the number of slices it hands over (0: none;
  // settle_until settles the quantum); hand_off after its cycles of each slice (numbered
  // from 0), which another thread may then settle (settle_handed: the cycles [from, to)) while
  // the SM runs its next. settle_handed settles the slice's requests of `sms` (ascending) in
  // (cycle, SM) order, keeping their responses (all due after the quantum) for end_quantum,
  // which gives them, on the batch's thread once every SM and settle is done.
  virtual void begin_quantum(uint32_t /*sm*/, uint32_t /*slices*/) {}
  virtual void hand_off(uint32_t /*sm*/, uint32_t /*slice*/) {}
  virtual void settle_handed(std::span<const uint32_t> /*sms*/, uint32_t /*slice*/, engine::Cycle /*from*/,
                             engine::Cycle /*to*/) {}
  virtual void end_quantum(std::span<const uint32_t> sms) { respond_kept(sms); }
  // A kernel starts with `shared_carveout` bytes of each SM's unified L1/shared array given
  // to shared memory: the L1s are invalidated (they are not coherent) and sized to the rest;
  // the L2 keeps its data. `threads`: the host threads it may set the SMs' side up on.
  virtual void start_kernel(int64_t /*shared_carveout*/, int /*threads*/) {}
  // Each SM's L1 data capacity for the running kernel (0: none).
  virtual int64_t l1_bytes() const { return 0; }
  // What the L2 holds now (capacity 0: no L2).
  virtual L2Occupancy l2_occupancy() const { return {}; }
  // Whether the L2 would keep every line of `ranges` without evicting one it holds at home
  // (false: no L2).
  virtual bool l2_keeps_all(std::span<const AddressRange> /*ranges*/) const { return false; }
  // The cycle by which every transfer started so far has finished.
  virtual engine::Cycle drained_at() const;

  // Every counter so far.
  virtual MemoryStats stats() const { return stats_; }

 protected:
  // Delivers `tag` to SM `sm`'s sink at cycle `at` (not before now). Responses due in one
  // cycle come in the order of `order` (the SM's requests' order: a response may be made
  // before another that was sent earlier), then as made; by default, as made.
  void respond(uint32_t sm, uint64_t tag, engine::Cycle at, uint64_t order = ~uint64_t{0});
  // respond(), from a quantum's settle (settle_handed, beside the SMs, or settle_until): kept
  // until respond_kept(sms) gives the kept responses of `sms`, each SM's at once, which
  // touches their queues.
  void respond_later(uint32_t sm, uint64_t tag, engine::Cycle at, uint64_t order) {
    if (at < events_.now()) due_in_the_past();
    kept_[sm].push_back({at, order, tag});
  }
  void respond_kept(std::span<const uint32_t> sms);
  [[noreturn]] static void due_in_the_past();
  engine::EventQueue& events() const { return events_; }
  void set_may_refuse(bool v) { may_refuse_ = v; }
  // Whether SM `sm` takes its responses itself (pull_responses).
  bool pulled(uint32_t sm) const { return pulled_[sm] != 0; }
  // SM `sm`'s responses are about to go another way (connect, pull_responses): what a model
  // keeps for the way they went so far must be done with.
  virtual void rerouting(uint32_t /*sm*/) {}

  MemoryStats stats_;

 private:
  // One SM's responses in flight, delivered by one event in cycle order (then in the order
  // sent), before any SM looks at its warps in that cycle.
  class alignas(64) ResponseQueue {  // alone on its lines: its SM's thread pushes
   public:
    explicit ResponseQueue(engine::EventQueue& events) : events_(events), event_(this, engine::priority::kResponse) {}
    // `pulled`: the sink takes them (take_due), told when each is due; no event.
    void push(engine::Cycle at, uint64_t order, uint64_t tag, bool pulled);
    struct Pending {
      engine::Cycle at;
      uint64_t order;
      uint64_t tag;
    };
    // push() of each of `responses` (their `at` not before now), in one merge: the sink told,
    // or the event set, once, for the earliest. Pulled, the merge waits for the SM's own
    // thread to take its due responses (take_due: merge_handed): the caller, the batch's
    // thread at a quantum's end, runs nothing of the SM's, and its merges of every SM there
    // took 9% of the 16-thread Hopper stencil's launch, every other thread waiting. Pushes
    // made meanwhile come before them only among equal keys, which a quantum's responses do
    // not have (each carries its request's own place in the SM's order).
    void push_all(std::span<const Pending> responses, bool pulled);
    void merge_handed() {
      if (handed_.empty()) return;
      merge(handed_);
      handed_.clear();
    }
    void deliver();
    template <class Take>
    engine::Cycle take_due(engine::Cycle now, Take& take) {
      while (head_ < pending_.size() && pending_[head_].at <= now) take(pending_[head_++].tag);
      return next_due();
    }
    void pull();

    ResponseSink* sink = nullptr;
    engine::Cycle last = 0;  // the latest cycle any response was due

   private:
    engine::EventQueue& events_;
    engine::MemberEvent<ResponseQueue, &ResponseQueue::deliver> event_;
    // A lambda, not a function: the algorithms given it compile its comparison in, as they
    // did not through a function pointer (the stencil's merges cost 0.2% more).
    static constexpr auto earlier = [](const Pending& a, const Pending& b) {
      return a.at < b.at || (a.at == b.at && a.order < b.order);
    };
    // When the first response not yet taken is due (kNever: none), after dropping the taken.
    engine::Cycle next_due();
    // Puts `responses` in order among those waiting, as pushes one by one would.
    void merge(std::span<const Pending> responses);
    // In the order taken: by cycle, then by `order`. From head_ on, not yet taken. A sorted
    // array, not a heap: an insertion is a binary search and one move of the later entries
    // (responses come due far out of the order sent: L1 hits, L2 hits, DRAM), and taking one
    // is reading the next, in order in memory, where a heap's pop sifts down.
    std::vector<Pending> pending_;
    size_t head_ = 0;
    std::vector<Pending> handed_;  // push_all()'s for a pulled queue, not yet merged
  };

  engine::EventQueue& events_;
  std::vector<std::unique_ptr<ResponseQueue>> queues_;  // per SM
  using Kept = ResponseQueue::Pending;
  std::vector<std::vector<Kept>> kept_;  // per SM: respond_later's, written by the settle's thread alone
  // Per SM, whether it pulls its responses: kept apart from its queue, whose line its SM's
  // thread writes, since every settle reads it.
  std::vector<uint8_t> pulled_;
  bool may_refuse_ = false;
};

using MemorySystemRegistry = util::Registry<MemorySystem, const MemoryConfig&, const MemorySystemContext&>;

}  // namespace gpusim::memory
