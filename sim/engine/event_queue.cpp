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
  std::erase_if(heap_, [&](const Entry& x) { return x.event == &e; });
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
  heap_.push_back({when, e.order_, &e});
  std::push_heap(heap_.begin(), heap_.end(), Later{});
  ++live_;
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
  e.order_ = 0;  // its heap entry is now stale and is dropped when it reaches the top
  --live_;
}

void EventQueue::drop_stale() {
  while (!heap_.empty() && heap_.front().order != heap_.front().event->order_) {
    std::pop_heap(heap_.begin(), heap_.end(), Later{});
    heap_.pop_back();
  }
}

Cycle EventQueue::next_cycle() {
  drop_stale();
  return heap_.empty() ? kNever : heap_.front().when;
}

bool EventQueue::step() {
  drop_stale();
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), Later{});
  const Entry top = heap_.back();
  heap_.pop_back();
  now_ = top.when;
  top.event->when_ = kNever;
  top.event->order_ = 0;
  --live_;
  top.event->process();
  return true;
}

void EventQueue::advance_to(Cycle cycle) {
  if (next_cycle() < cycle) throw std::logic_error("advance_to would skip a due event");
  now_ = std::max(now_, cycle);
}

}  // namespace gpusim::engine
