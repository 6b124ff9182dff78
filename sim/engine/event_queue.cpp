#include "engine/event_queue.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace gpusim::engine {

Event::~Event() {
  if (queue_) queue_->forget(*this);
}

void EventQueue::forget(const Event& e) {
  if (e.scheduled()) --live_;
  const auto mine = [&](const Entry& x) { return x.event == &e; };
  current_.erase(std::remove_if(current_.begin() + static_cast<long>(current_pos_), current_.end(), mine), current_.end());
  std::erase_if(next_, mine);
  std::erase_if(heap_, mine);
  std::make_heap(heap_.begin(), heap_.end(), Later{});
}

void EventQueue::push(Event& e, Cycle when) {
  if (when < now_)
    throw std::logic_error("event scheduled in the past: cycle " + std::to_string(when) + " < now " +
                           std::to_string(now_));
  if (e.queue_ && e.queue_ != this) throw std::logic_error("event moved to another queue");
  e.queue_ = this;
  e.when_ = when;
  // Priorities fit 16 bits (|p| < 32768); 2^48 events are more than any run schedules.
  e.order_ = uint64_t(uint16_t(e.priority_ + 32768)) << kSequenceBits | (++sequence_ & ((uint64_t{1} << kSequenceBits) - 1));
  const Entry entry{when, e.order_, &e};
  ++live_;
  if (when == now_) {  // this cycle: in its place among those not yet run
    const auto at = std::lower_bound(current_.begin() + static_cast<long>(current_pos_), current_.end(), entry,
                                     EarlierInCycle{});
    current_.insert(at, entry);
  } else if (when == now_ + 1) {
    next_.push_back(entry);
  } else {
    heap_.push_back(entry);
    std::push_heap(heap_.begin(), heap_.end(), Later{});
  }
}

void EventQueue::schedule(Event& e, Cycle when) {
  if (e.scheduled()) throw std::logic_error("event scheduled twice");
  push(e, when);
}

void EventQueue::reschedule(Event& e, Cycle when) {
  if (e.scheduled()) deschedule(e);
  push(e, when);
}

void EventQueue::deschedule(Event& e) {
  if (!e.scheduled()) return;
  e.when_ = kNever;
  e.order_ = 0;  // its entry is now stale and is dropped when it is reached
  --live_;
}

void EventQueue::drop_stale() {
  while (!heap_.empty() && stale(heap_.front())) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  }
}

bool EventQueue::begin_cycle() {
  current_.clear();
  current_pos_ = 0;
  std::erase_if(next_, stale);
  drop_stale();
  Cycle cycle = kNever;
  if (!next_.empty()) cycle = now_ + 1;  // nothing in the heap is due before the next cycle
  else if (!heap_.empty()) cycle = heap_.front().when;
  else return false;
  // The next cycle's entries came mostly in order: an insertion sort is nearly one pass.
  for (size_t i = 1; i < next_.size(); ++i) {
    const Entry x = next_[i];
    size_t j = i;
    for (; j > 0 && EarlierInCycle{}(x, next_[j - 1]); --j) next_[j] = next_[j - 1];
    next_[j] = x;
  }
  due_.clear();
  while (!heap_.empty() && heap_.front().when == cycle) {
    if (!stale(heap_.front())) due_.push_back(heap_.front());
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  }
  std::merge(next_.begin(), next_.end(), due_.begin(), due_.end(), std::back_inserter(current_), EarlierInCycle{});
  next_.clear();
  now_ = cycle;
  return true;
}

Cycle EventQueue::next_cycle() {
  while (current_pos_ < current_.size() && stale(current_[current_pos_])) ++current_pos_;
  if (current_pos_ < current_.size()) return now_;
  if (std::any_of(next_.begin(), next_.end(), [](const Entry& x) { return !stale(x); })) return now_ + 1;
  drop_stale();
  return heap_.empty() ? kNever : heap_.front().when;
}

bool EventQueue::step() {
  for (;;) {
    while (current_pos_ < current_.size()) {
      const Entry top = current_[current_pos_++];
      if (stale(top)) continue;
      top.event->when_ = kNever;
      top.event->order_ = 0;
      --live_;
      top.event->process();
      return true;
    }
    if (!begin_cycle()) return false;
  }
}

void EventQueue::advance_to(Cycle cycle) {
  if (next_cycle() < cycle) throw std::logic_error("advance_to would skip a due event");
  if (cycle <= now_) return;
  // This cycle's and the next one's entries are classed by the clock: into the heap.
  for (size_t i = current_pos_; i < current_.size(); ++i) heap_.push_back(current_[i]);
  for (const Entry& x : next_) heap_.push_back(x);
  current_.clear();
  current_pos_ = 0;
  next_.clear();
  std::make_heap(heap_.begin(), heap_.end(), Later{});
  now_ = cycle;
}

}  // namespace gpusim::engine
