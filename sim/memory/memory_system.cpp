#include "memory/memory_system.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim::memory {

MemorySystem::MemorySystem(const MemorySystemContext& context) : events_(context.events) {
  for (int i = 0; i < context.sm_count; ++i) queues_.push_back(std::make_unique<ResponseQueue>(events_));
  pulled_.assign(queues_.size(), 0);
  kept_.resize(queues_.size());
}

MemorySystem::~MemorySystem() = default;

void MemorySystem::connect(uint32_t sm, ResponseSink* sink) {
  ResponseQueue& queue = *queues_.at(sm);
  queue.merge_handed();
  rerouting(sm);
  queue.sink = sink;
  pulled_[sm] = 0;
}

void MemorySystem::pull_responses(uint32_t sm) {
  ResponseQueue& queue = *queues_.at(sm);
  queue.merge_handed();
  rerouting(sm);
  queue.pull();
  pulled_[sm] = 1;
}

void MemorySystem::due_in_the_past() { throw std::logic_error("a response due in the past"); }

void MemorySystem::respond_kept(std::span<const uint32_t> sms) {
  for (uint32_t sm : sms) {
    std::vector<Kept>& kept = kept_[sm];
    if (kept.empty()) continue;
    queues_[sm]->push_all(kept, pulled(sm));
    kept.clear();
  }
}

engine::Cycle MemorySystem::drained_at() const {
  engine::Cycle last = 0;
  for (const auto& q : queues_) last = std::max(last, q->last);
  return last;
}

void MemorySystem::respond(uint32_t sm, uint64_t tag, engine::Cycle at, uint64_t order) {
  if (at < events_.now()) due_in_the_past();
  queues_[sm]->push(at, order, tag, pulled(sm));
}

void MemorySystem::ResponseQueue::push(engine::Cycle at, uint64_t order, uint64_t tag, bool pulled) {
  // After every response due before `at`, and every one due then that was sent no later.
  const auto place = std::upper_bound(pending_.begin() + static_cast<std::ptrdiff_t>(head_), pending_.end(),
                                      Pending{at, order, 0}, earlier);
  pending_.insert(place, {at, order, tag});
  last = std::max(last, at);
  if (!pulled) events_.schedule_by(event_, at);
  else if (sink) sink->on_response_due(at);
}

void MemorySystem::ResponseQueue::push_all(std::span<const Pending> responses, bool pulled) {
  engine::Cycle first = engine::kNever;
  for (const Pending& p : responses) {
    first = std::min(first, p.at);
    last = std::max(last, p.at);
  }
  if (pulled) {  // merged by the SM's own thread (merge_handed), in the order made
    handed_.insert(handed_.end(), responses.begin(), responses.end());
    if (sink) sink->on_response_due(first);
    return;
  }
  merge(responses);
  events_.schedule_by(event_, first);
}

void MemorySystem::ResponseQueue::merge(std::span<const Pending> responses) {
  // Appended, put in order among themselves (stably: equal keys as made), then merged after
  // the equal keys already waiting: as pushes one by one would place them.
  const auto old_end = static_cast<std::ptrdiff_t>(pending_.size());
  pending_.insert(pending_.end(), responses.begin(), responses.end());
  std::stable_sort(pending_.begin() + old_end, pending_.end(), earlier);
  std::inplace_merge(pending_.begin() + static_cast<std::ptrdiff_t>(head_), pending_.begin() + old_end, pending_.end(),
                     earlier);
}

void MemorySystem::ResponseQueue::pull() {
  if (next_due() != engine::kNever) throw std::logic_error("an SM pulls its responses with some already due by event");
}

engine::Cycle MemorySystem::ResponseQueue::next_due() {
  if (head_ == pending_.size()) {  // all taken: start again at the front
    pending_.clear();
    head_ = 0;
    return engine::kNever;
  }
  if (head_ >= 64 && head_ * 2 >= pending_.size()) {  // the taken outnumber the rest: drop them
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
  return pending_[head_].at;
}

void MemorySystem::ResponseQueue::deliver() {
  auto to_sink = [this](uint64_t tag) {
    if (sink) sink->on_response(tag);
  };
  const engine::Cycle next = take_due(events_.now(), to_sink);
  if (next != engine::kNever) events_.schedule(event_, next);
}

}  // namespace gpusim::memory
