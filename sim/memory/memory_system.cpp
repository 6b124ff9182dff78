#include "memory/memory_system.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim::memory {

MemorySystem::MemorySystem(const MemorySystemContext& context) : events_(context.events) {
  for (int i = 0; i < context.sm_count; ++i) queues_.push_back(std::make_unique<ResponseQueue>(events_));
  pulled_.assign(queues_.size(), 0);
}

MemorySystem::~MemorySystem() = default;

void MemorySystem::connect(uint32_t sm, ResponseSink* sink) {
  ResponseQueue& queue = *queues_.at(sm);
  rerouting(sm);
  queue.sink = sink;
  pulled_[sm] = 0;
}

void MemorySystem::pull_responses(uint32_t sm) {
  ResponseQueue& queue = *queues_.at(sm);
  rerouting(sm);
  queue.pull();
  pulled_[sm] = 1;
}

engine::Cycle MemorySystem::drained_at() const {
  engine::Cycle last = 0;
  for (const auto& q : queues_) last = std::max(last, q->last);
  return last;
}

void MemorySystem::respond(uint32_t sm, uint64_t tag, engine::Cycle at) {
  if (at < events_.now()) throw std::logic_error("a response due in the past");
  queues_[sm]->push(at, tag, pulled(sm));
}

void MemorySystem::ResponseQueue::push(engine::Cycle at, uint64_t tag, bool pulled) {
  pending_.push({at, order_++, tag});
  last = std::max(last, at);
  if (!pulled) events_.schedule_by(event_, at);
  else if (sink) sink->on_response_due(at);
}

void MemorySystem::ResponseQueue::pull() {
  if (!pending_.empty()) throw std::logic_error("an SM pulls its responses with some already due by event");
}

void MemorySystem::ResponseQueue::deliver() {
  const engine::Cycle now = events_.now();
  while (!pending_.empty() && pending_.top().at <= now) {
    const uint64_t tag = pending_.top().tag;
    pending_.pop();
    if (sink) sink->on_response(tag);
  }
  if (!pending_.empty()) events_.schedule(event_, pending_.top().at);
}

}  // namespace gpusim::memory
