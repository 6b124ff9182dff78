// Each SM's next tick, kept by cycle: a batch finds its due SMs, and the next batch's cycle,
// without a look at every SM that has a tick ahead. Where few of many SMs tick in a cycle
// (a memory-bound kernel, its SMs asleep until responses), that look was 13% of the run.
//
// A wheel of kSpan cycles from the last cycle taken: per cycle, a bit per SM due then, and
// a bit per cycle that has any. A tick further ahead waits in a short list until the wheel
// reaches it. Most wakes are for the cycle after the last taken (an SM that issued): those
// set one bit of their own set, so that a batch of many SMs costs no more than a look at each.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/event_queue.hpp"

namespace gpusim::core {

class TickCalendar {
 public:
  // `sms` SMs, none with a tick; no tick will be earlier than `now`.
  TickCalendar(size_t sms, engine::Cycle now);

  engine::Cycle next(size_t sm) const { return next_[sm]; }
  // SM `sm` ticks at `at` unless it already ticks no later: false then, and nothing changes.
  // `at` is no earlier than the last cycle taken.
  [[gnu::always_inline]] bool lower(size_t sm, engine::Cycle at) {
    engine::Cycle& next = next_[sm];
    if (at >= next) return false;
    if (next != engine::kNever) {
      if (next - cursor_ < kSpan) unplace_near(sm, next);
      else remove_far(sm);
    }
    next = at;
    if (at == cursor_ + 1) next_cycle_[sm / 64] |= bit_of(sm);  // most wakes: as cheap as a bit
    else if (at - cursor_ < kSpan) place_near(sm, at);
    else place_far(sm, at);
    return true;
  }
  // Calls `each(sm)` for every SM due at `now`, in index order, each left without a tick.
  // No SM's tick is earlier than `now`.
  template <class Each>
  void take_due(engine::Cycle now, Each each) {
    // next_cycle_ holds cursor_ + 1's SMs: now's, if now is that cycle (else it is empty,
    // or, in a second batch of cursor_'s cycle, not yet due).
    const bool next_cycle = now == cursor_ + 1;
    cursor_ = now;
    if (far_earliest_ - now < kSpan) bring_near();
    const size_t slot = now % kSpan;
    const bool on_wheel = occupied_[slot / 64] >> (slot % 64) & 1u;
    if (!on_wheel && !next_cycle) return;
    occupied_[slot / 64] &= ~(uint64_t{1} << (slot % 64));
    for (size_t word = 0; word < words_; ++word) {
      uint64_t& wheel = due_[word * kSpan + slot];
      uint64_t bits = wheel;
      wheel = 0;
      if (next_cycle) {
        bits |= next_cycle_[word];
        next_cycle_[word] = 0;
      }
      for (; bits != 0; bits &= bits - 1) {
        const size_t sm = word * 64 + static_cast<size_t>(std::countr_zero(bits));
        next_[sm] = engine::kNever;
        each(sm);
      }
    }
  }
  // Takes SM `sm`'s tick off, returning it (kNever: it had none).
  engine::Cycle take(size_t sm) {
    const engine::Cycle at = next_[sm];
    if (at == engine::kNever) return at;
    if (at - cursor_ < kSpan) unplace_near(sm, at);
    else remove_far(sm);
    next_[sm] = engine::kNever;
    return at;
  }
  // The earliest tick held, or kNever.
  engine::Cycle earliest();

 private:
  static constexpr engine::Cycle kSpan = 1024;  // cycles the wheel holds, from cursor_
  static uint64_t bit_of(size_t sm) { return uint64_t{1} << (sm % 64); }
  uint64_t& due(size_t sm, engine::Cycle at) { return due_[sm / 64 * kSpan + at % kSpan]; }
  void place_near(size_t sm, engine::Cycle at) {  // at - cursor_ < kSpan
    due(sm, at) |= bit_of(sm);
    const size_t slot = at % kSpan;
    occupied_[slot / 64] |= uint64_t{1} << (slot % 64);
  }
  // Off its cycle at - cursor_ < kSpan, on the wheel or in next_cycle_ (that cycle's
  // `occupied_` bit is left for earliest()).
  void unplace_near(size_t sm, engine::Cycle at) {
    due(sm, at) &= ~bit_of(sm);
    next_cycle_[sm / 64] &= ~bit_of(sm);
  }
  void place_far(size_t sm, engine::Cycle at);
  void remove_far(size_t sm);
  void bring_near();  // moves the far ticks now within kSpan of cursor_ onto the wheel
  engine::Cycle earliest_on_wheel();  // on the wheel or past it: all but next_cycle_

  size_t words_;                      // of an SM bit set
  std::vector<engine::Cycle> next_;   // by SM: its tick (kNever: none)
  std::vector<uint64_t> due_;         // words_ x kSpan: by word of SM bits, cycle modulo kSpan
  // The SMs woken for cursor_ + 1 while it was so (the others of that cycle are on the wheel).
  std::vector<uint64_t> next_cycle_;
  // By cycle modulo kSpan: set when an SM became due then (and perhaps moved earlier since,
  // leaving none: earliest() clears such a bit when it meets it).
  std::array<uint64_t, kSpan / 64> occupied_{};
  // SMs whose tick lies kSpan or more past cursor_, and the earliest of those ticks.
  std::vector<uint32_t> far_;
  engine::Cycle far_earliest_ = engine::kNever;
  engine::Cycle cursor_;  // the last cycle taken: every tick held is at or after it
};

}  // namespace gpusim::core
