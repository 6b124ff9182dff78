#include "core/tick_calendar.hpp"

#include <algorithm>

namespace gpusim::core {

TickCalendar::TickCalendar(size_t sms, engine::Cycle now)
    : words_((sms + 63) / 64), next_(sms, engine::kNever), due_(kSpan * words_, 0), next_cycle_(words_, 0),
      cursor_(now) {}

void TickCalendar::place_far(size_t sm, engine::Cycle at) {
  far_.push_back(static_cast<uint32_t>(sm));
  far_earliest_ = std::min(far_earliest_, at);
}

void TickCalendar::remove_far(size_t sm) {
  far_.erase(std::find(far_.begin(), far_.end(), static_cast<uint32_t>(sm)));
  far_earliest_ = engine::kNever;
  for (const uint32_t f : far_) far_earliest_ = std::min(far_earliest_, next_[f]);
}

void TickCalendar::bring_near() {
  far_earliest_ = engine::kNever;
  size_t kept = 0;
  for (const uint32_t sm : far_) {
    if (next_[sm] - cursor_ < kSpan) {
      place_near(sm, next_[sm]);
    } else {
      far_[kept++] = sm;
      far_earliest_ = std::min(far_earliest_, next_[sm]);
    }
  }
  far_.resize(kept);
}

engine::Cycle TickCalendar::earliest() {
  const engine::Cycle on_wheel = earliest_on_wheel();
  if (on_wheel <= cursor_ + 1) return on_wheel;
  for (const uint64_t bits : next_cycle_)
    if (bits != 0) return cursor_ + 1;
  return on_wheel;
}

engine::Cycle TickCalendar::earliest_on_wheel() {
  // The wheel's ticks all lie in [cursor_, cursor_ + kSpan): the first slot from cursor_'s,
  // around the wheel, with an SM due is the earliest; the far ones are later still.
  const size_t from = cursor_ % kSpan;
  constexpr size_t kWords = kSpan / 64;
  for (size_t step = 0; step <= kWords; ++step) {
    const size_t word = (from / 64 + step) % kWords;
    uint64_t bits = occupied_[word];
    if (step == 0) bits &= ~uint64_t{0} << (from % 64);                // from's slot on
    else if (step == kWords) bits &= (uint64_t{1} << (from % 64)) - 1;  // back before it
    for (; bits != 0; bits &= bits - 1) {
      const size_t slot = word * 64 + static_cast<size_t>(std::countr_zero(bits));
      for (size_t w = 0; w < words_; ++w)
        if (due_[w * kSpan + slot] != 0) return cursor_ + (slot + kSpan - from) % kSpan;
      occupied_[word] &= ~(uint64_t{1} << (slot % 64));  // every SM due then moved earlier
    }
  }
  return far_earliest_;
}

}  // namespace gpusim::core
