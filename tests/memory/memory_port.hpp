// A memory system driven by hand through SM 0's port, for the memory tests: requests sent
// at a given cycle and answered by response events.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>

#include "arch/arch_config.hpp"
#include "engine/event_queue.hpp"
#include "memory/memory_system.hpp"

namespace gpusim::memory::by_hand {

inline std::array<uint64_t, 32> strided(kernel::StateSpace space, uint64_t stride_bytes) {
  std::array<uint64_t, 32> addresses{};
  for (uint64_t l = 0; l < 32; ++l) addresses[l] = (space == kernel::StateSpace::Shared ? 0 : 1ull << 32) + l * stride_bytes;
  return addresses;
}

// Stands in for SM 0: records the cycle each response arrives.
struct Recorder final : ResponseSink {
  explicit Recorder(engine::EventQueue& q) : events(q) {}
  void on_response(uint64_t tag) override { arrived[tag] = events.now(); }
  engine::EventQueue& events;
  std::map<uint64_t, engine::Cycle> arrived;
};

// A memory system alone, with SM 0's port watched: each access is sent at a given cycle
// and answered by its response event.
struct Port {
  explicit Port(const arch::ArchConfig& arch)
      : memory(MemorySystemRegistry::instance().make(arch.memory.model, arch.memory,
                                                     {events, arch.gpu.sm_count, arch.gpu.core_clock_mhz})),
        sink(events) {
    memory->connect(0, &sink);
  }
  // Sends as an SM does in one cycle (the queue's now): the request, then what it leaves to
  // the L2 and DRAM.
  Accepted send(MemoryRequest r) {
    r.cycle = events.now();
    const Accepted a = memory->send(r);
    memory->settle(r.sm);
    return a;
  }
  struct Answer {
    engine::Cycle latency;
    uint32_t pipeline_cycles;
  };
  Answer access(kernel::StateSpace space, uint64_t stride_bytes, engine::Cycle now, kernel::CacheOp op = kernel::CacheOp::Default) {
    const auto addresses = strided(space, stride_bytes);
    MemoryRequest r;
    r.space = space;
    r.cache_op = op;
    r.mask = 0xFFFFFFFFu;
    r.bytes_per_lane = 4;
    r.addresses = addresses.data();
    r.tag = ++tag;
    events.advance_to(now);
    const uint32_t pipeline = send(r).busy_cycles;
    events.run();
    return {sink.arrived.at(r.tag) - now, pipeline};
  }
  engine::EventQueue events;
  std::unique_ptr<MemorySystem> memory;
  Recorder sink;
  uint64_t tag = 0;
};

}  // namespace gpusim::memory::by_hand
