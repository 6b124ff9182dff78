// The simulation engine: one clock and a queue of timed events (gem5's eventq idiom).
// Components own their events and schedule them here; the queue runs them in order of
// (cycle, priority, order scheduled), so runs are deterministic. An event is scheduled at
// most once at a time; moving it is a reschedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace gpusim::engine {

using Cycle = uint64_t;
inline constexpr Cycle kNever = std::numeric_limits<Cycle>::max();

// Order of events due in the same cycle: lower first. Memory responses land before SMs
// look at their warps, so data that arrives in cycle t can be used in cycle t.
namespace priority {
inline constexpr int32_t kResponse = -100;
inline constexpr int32_t kDefault = 0;
// + the SM's index: retired blocks' slots come back in index order, whenever each SM's event
// was scheduled (an SM running ahead for a quantum schedules its own before the others').
inline constexpr int32_t kSmRelease = 1;
inline constexpr int32_t kSmTick = 16384;  // + the SM's index: SMs tick in index order
// gpu.sm_count's limit (arch_config.hpp): the queue keeps a priority in 16 bits, and every
// one above fits with this many SMs, the batch's event (kSmTick + the SM count) included.
inline constexpr int32_t kMaxSms = 4096;
static_assert(kSmRelease + kMaxSms < kSmTick && kSmTick + kMaxSms <= INT16_MAX && kResponse >= INT16_MIN);
}  // namespace priority

class Event {
 public:
  explicit Event(int32_t priority = priority::kDefault) : priority_(priority) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  virtual ~Event();  // leaves no entry behind in the queue it was scheduled on

  virtual void process() = 0;

  bool scheduled() const { return when_ != kNever; }
  Cycle when() const { return when_; }
  int32_t priority() const { return priority_; }

 private:
  friend class EventQueue;
  class EventQueue* queue_ = nullptr;  // the queue it was last scheduled on
  Cycle when_ = kNever;
  uint64_t order_ = 0;  // priority and sequence of its live heap entry; older entries are stale
  int32_t priority_;
};

// Wraps a member function as an event, rather than subclassing the component.
template <typename T, void (T::*Method)()>
class MemberEvent final : public Event {
 public:
  MemberEvent(T* owner, int32_t priority = priority::kDefault) : Event(priority), owner_(owner) {}
  void process() override { (owner_->*Method)(); }

 private:
  T* owner_;
};

class EventQueue {
 public:
  Cycle now() const { return now_; }

  // Schedules an unscheduled event at `when` (not before now).
  void schedule(Event& e, Cycle when);
  // Schedules the event, or moves it if it is already scheduled.
  void reschedule(Event& e, Cycle when);
  // Schedules the event at `when` unless it is already due no later: a wake-up.
  void schedule_by(Event& e, Cycle when) {
    if (e.when_ > when) reschedule(e, when);
  }
  void deschedule(Event& e);

  bool empty() const { return live_ == 0; }
  size_t size() const { return live_; }
  // The cycle of the next live event, or kNever.
  Cycle next_cycle();

  // Processes the next event (advancing the clock to it); false when there is none.
  bool step();
  // Processes events until none is left.
  void run() {
    while (step()) {
    }
  }
  // Moves the clock forward to `cycle` (no event may be due before it).
  void advance_to(Cycle cycle);

 private:
  // Priority in the top 16 bits, the order scheduled below: one comparison orders both.
  static constexpr int kSequenceBits = 48;
  struct Entry {
    Cycle when;
    uint64_t order;
    Event* event;
  };
  struct Later {  // a functor, so that the heap operations inline it
    bool operator()(const Entry& a, const Entry& b) const {
      return a.when != b.when ? a.when > b.when : a.order > b.order;
    }
  };
  struct EarlierInCycle {  // within one cycle: priority, then order scheduled
    bool operator()(const Entry& a, const Entry& b) const { return a.order < b.order; }
  };
  static bool stale(const Entry& x) { return x.order != x.event->order_; }
  friend class Event;
  void push(Event& e, Cycle when);
  void drop_stale();
  // Makes the next cycle with events the current one: its entries into current_, in order.
  bool begin_cycle();
  void forget(const Event& e);  // removes every entry of an event being destroyed

  // Most events are due in this cycle or the next (an SM that issued ticks again in the
  // next), so those skip the heap: this cycle's in order from current_pos_, the next
  // cycle's as they come (put in order once, when it begins; they mostly come in order),
  // later ones in a heap. Keys are unique, so the order is the heap's alone.
  std::vector<Entry> current_;
  size_t current_pos_ = 0;
  std::vector<Entry> next_;
  std::vector<Entry> heap_;
  std::vector<Entry> due_;  // scratch: the heap's entries for the cycle beginning
  uint64_t sequence_ = 0;
  size_t live_ = 0;
  Cycle now_ = 0;
};

}  // namespace gpusim::engine
