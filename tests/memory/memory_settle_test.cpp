// When the SM's side of the memory hierarchy learns its answers: the settle after each
// cycle's requests, responses pulled rather than sent by events, and cycles sent ahead then
// settled in (cycle, SM) order.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "arch/arch_loader.hpp"
#include "memory/memory_port.hpp"
#include "test_paths.hpp"

namespace gpusim::memory {
namespace {

using kernel::StateSpace;
using by_hand::Port;
using by_hand::strided;

TEST(MemorySystem, ALoadMeetingASectorOnItsWayInTheSameCycleWaitsForIt) {
  // Two warps of one SM load the same line in one cycle. The first misses in the L1 and L2; the
  // second finds the sectors on their way and is answered when they arrive, not after the L1's
  // 32 cycles: the L2's answer, which the SM's side learns only when the cycle's requests are
  // settled (a placeholder until then). A third, a cycle later, hits the same sectors.
  Port port(arch::load_arch_config(test::config_path("hopper"), {}));
  const auto addresses = strided(StateSpace::Global, 4);
  MemoryRequest r;
  r.space = StateSpace::Global;
  r.mask = 0xFFFFFFFFu;
  r.bytes_per_lane = 4;
  r.addresses = addresses.data();
  port.events.advance_to(1000);
  r.cycle = 1000;
  for (uint64_t tag : {1u, 2u}) {
    r.tag = tag;
    port.memory->send(r);
  }
  port.memory->settle(0);
  port.events.advance_to(1001);
  r.tag = 3;
  port.send(r);
  port.events.run();
  const engine::Cycle first = port.sink.arrived.at(1) - 1000;
  EXPECT_GT(first, 600u);  // from DRAM
  EXPECT_EQ(port.sink.arrived.at(2) - 1000, first);
  EXPECT_EQ(port.sink.arrived.at(3) - 1000, first);
  EXPECT_EQ(port.memory->stats().l1_misses, 4u);
  EXPECT_EQ(port.memory->stats().l1_hits, 8u);
}

TEST(MemorySystem, PulledResponsesComeWhenAndInTheOrderEventsBringThem) {
  // Requests of one SM over four cycles: two loads of one line in one cycle (answered
  // together), a hit on it a cycle later, then loads of two other lines, then a hit on the
  // first line again. By events, each response comes in its cycle, in the order sent within
  // it. Pulled (as an SM in a batch takes them), no event is scheduled: the sink is told each
  // due cycle at the settle, and take_due hands over the same tags in the same cycles and
  // order.
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  const auto line = strided(StateSpace::Global, 4);
  auto other = line, third = line;
  for (uint64_t& a : other) a += 4096;
  for (uint64_t& a : third) a += 8192;
  struct Sent {
    engine::Cycle at;
    uint64_t tag;
    StateSpace space;
    const uint64_t* addresses;
  };
  const std::vector<Sent> sends{{1000, 1, StateSpace::Global, line.data()},
                                {1000, 2, StateSpace::Global, line.data()},
                                {1001, 3, StateSpace::Global, line.data()},
                                {1002, 4, StateSpace::Global, third.data()},
                                {1002, 5, StateSpace::Global, other.data()},
                                {1003, 6, StateSpace::Global, line.data()}};
  const auto send_all = [&](Port& port) {
    for (size_t i = 0; i < sends.size(); ++i) {
      port.events.advance_to(sends[i].at);
      MemoryRequest r;
      r.space = sends[i].space;
      r.mask = 0xFFFFFFFFu;
      r.bytes_per_lane = 4;
      r.addresses = sends[i].addresses;
      r.tag = sends[i].tag;
      r.cycle = sends[i].at;
      port.memory->send(r);
      if (i + 1 == sends.size() || sends[i + 1].at != sends[i].at) port.memory->settle(0);
    }
  };
  // (cycle, tag), in the order they come.
  struct Ordered final : ResponseSink {
    explicit Ordered(engine::EventQueue& q) : events(q) {}
    void on_response(uint64_t tag) override { got.emplace_back(events.now(), tag); }
    void on_response_due(engine::Cycle at) override { due.insert(at); }
    engine::EventQueue& events;
    std::vector<std::pair<engine::Cycle, uint64_t>> got;
    std::set<engine::Cycle> due;
  };
  Port by_events(hopper);
  Ordered events_sink(by_events.events);
  by_events.memory->connect(0, &events_sink);
  send_all(by_events);
  EXPECT_THROW(by_events.memory->pull_responses(0), std::logic_error);  // some already due by event
  by_events.events.run();
  ASSERT_EQ(events_sink.got.size(), sends.size());
  EXPECT_TRUE(events_sink.due.empty());
  EXPECT_TRUE(std::is_sorted(events_sink.got.begin(), events_sink.got.end()));  // by cycle, then as sent
  std::map<uint64_t, engine::Cycle> at;
  for (const auto& [cycle, tag] : events_sink.got) at[tag] = cycle;
  EXPECT_EQ(at[1], at[2]);
  EXPECT_EQ(at[1], at[3]);  // the hit waits for the sectors on their way
  EXPECT_EQ(at[1], at[6]);  // so does one after other lines' reads
  EXPECT_GT(at[1], 1600u);  // from DRAM
  EXPECT_LT(at[1], at[4]);  // the other lines: DRAM reads sent two cycles later
  EXPECT_LT(at[1], at[5]);

  Port pulled(hopper);
  Ordered pulled_sink(pulled.events);
  pulled.memory->connect(0, &pulled_sink);
  pulled.memory->pull_responses(0);
  send_all(pulled);
  EXPECT_TRUE(pulled.events.empty());
  std::set<engine::Cycle> expected_due;
  for (const auto& [cycle, tag] : events_sink.got) expected_due.insert(cycle);
  EXPECT_EQ(pulled_sink.due, expected_due);
  std::vector<std::pair<engine::Cycle, uint64_t>> taken;
  for (engine::Cycle cycle : pulled_sink.due) {
    const engine::Cycle next = pulled.memory->take_due(0, cycle, [&](uint64_t tag) { taken.emplace_back(cycle, tag); });
    const auto later = pulled_sink.due.upper_bound(cycle);
    EXPECT_EQ(next, later == pulled_sink.due.end() ? engine::kNever : *later);
  }
  EXPECT_EQ(taken, events_sink.got);
  EXPECT_TRUE(pulled_sink.got.empty());
  // Connected again, the SM's responses come by events.
  pulled.memory->connect(0, &pulled.sink);
  EXPECT_GT(pulled.access(StateSpace::Global, 4, 3000).latency, 0u);
  EXPECT_TRUE(pulled_sink.got.empty());
}

TEST(MemorySystem, CyclesSentAheadSettleCycleByCycleAsIfTheSmsTickedInStep) {
  // Two SMs send loads over four cycles; some lines are both SMs' and some are read again
  // by the same SM a cycle later (a hit on sectors on their way). In step, each cycle's
  // requests of both SMs are settled before the next cycle's are sent. Ahead, each SM sends
  // all four cycles first (as an SM running ahead for a quantum would), its L1's fills from
  // earlier cycles still unknown, and settle_through then takes the cycles in order, both
  // SMs' cycle t before either's t + 1: every response comes when and in the order it came
  // in step. Settled SM by SM instead, the shared L2 sees SM 0's later reads before SM 1's
  // earlier ones and some times differ.
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  std::vector<std::array<uint64_t, 32>> lines;
  for (uint64_t i = 0; i < 4; ++i) {
    lines.push_back(strided(StateSpace::Global, 4));
    for (uint64_t& a : lines.back()) a += i * 4096;
  }
  struct Sent {
    uint32_t sm;
    engine::Cycle at;
    size_t line;
  };
  // SM 1 reads line 0 at 1000, SM 0 only at 1002: the L2 must see SM 1's read first.
  const std::vector<Sent> sends{{0, 1000, 1}, {1, 1000, 0}, {0, 1001, 1}, {1, 1001, 2},
                                {0, 1002, 0}, {1, 1002, 2}, {0, 1003, 3}, {1, 1003, 1}};
  struct Due final : ResponseSink {
    void on_response(uint64_t) override {}
    void on_response_due(engine::Cycle at) override { due.insert(at); }
    std::set<engine::Cycle> due;
  };
  enum class Order { InStep, Ahead, SmBySm };
  // Per SM, (cycle, tag) as take_due hands them over.
  const auto run = [&](Order order) {
    Port port(hopper);
    std::array<Due, 2> sinks;
    for (uint32_t sm = 0; sm < 2; ++sm) {
      port.memory->connect(sm, &sinks[sm]);
      port.memory->pull_responses(sm);
    }
    port.events.advance_to(1000);
    const auto send = [&](size_t i) {
      MemoryRequest r;
      r.space = StateSpace::Global;
      r.mask = 0xFFFFFFFFu;
      r.bytes_per_lane = 4;
      r.addresses = lines[sends[i].line].data();
      r.sm = sends[i].sm;
      r.tag = i + 1;
      r.cycle = sends[i].at;
      port.memory->send(r);
    };
    if (order == Order::InStep) {
      for (engine::Cycle t = 1000; t < 1004; ++t) {
        for (size_t i = 0; i < sends.size(); ++i)
          if (sends[i].at == t) send(i);
        for (uint32_t sm = 0; sm < 2; ++sm) port.memory->settle(sm);
      }
    } else {
      for (uint32_t sm = 0; sm < 2; ++sm)
        for (size_t i = 0; i < sends.size(); ++i)
          if (sends[i].sm == sm) send(i);
      if (order == Order::Ahead) {
        for (engine::Cycle t = 1000; t < 1004; ++t)
          for (uint32_t sm = 0; sm < 2; ++sm) port.memory->settle_through(sm, t);
      } else {
        for (uint32_t sm = 0; sm < 2; ++sm) port.memory->settle(sm);
      }
    }
    std::array<std::vector<std::pair<engine::Cycle, uint64_t>>, 2> taken;
    for (uint32_t sm = 0; sm < 2; ++sm)
      for (engine::Cycle cycle : sinks[sm].due)
        port.memory->take_due(sm, cycle, [&](uint64_t tag) { taken[sm].emplace_back(cycle, tag); });
    return taken;
  };
  const auto in_step = run(Order::InStep);
  ASSERT_EQ(in_step[0].size() + in_step[1].size(), sends.size());
  std::map<uint64_t, engine::Cycle> at;
  for (const auto& sm : in_step)
    for (const auto& [cycle, tag] : sm) at[tag] = cycle;
  EXPECT_EQ(at[1], at[3]);  // SM 0's second read of line 1 waits for the first's sectors
  EXPECT_GT(at[2], 1600u);  // SM 1's line 0 from DRAM
  EXPECT_EQ(run(Order::Ahead), in_step);
  EXPECT_NE(run(Order::SmBySm), in_step);
}

}  // namespace
}  // namespace gpusim::memory
