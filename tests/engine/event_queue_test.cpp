// The engine alone: events run in (cycle, priority, order scheduled) order, the clock
// jumps to each, reschedule and deschedule leave no trace, and destroying a scheduled
// event removes it.
#include "engine/event_queue.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpusim::engine {
namespace {

struct Logged final : Event {
  Logged(std::string name, std::vector<std::string>& log, EventQueue& q, int32_t priority = priority::kDefault)
      : Event(priority), name(std::move(name)), log(log), q(q) {}
  void process() override { log.push_back(name + "@" + std::to_string(q.now())); }
  std::string name;
  std::vector<std::string>& log;
  EventQueue& q;
};

TEST(EventQueue, RunsInCycleThenPriorityThenSchedulingOrder) {
  EventQueue q;
  std::vector<std::string> log;
  Logged a("a", log, q), b("b", log, q), c("c", log, q, priority::kResponse), d("d", log, q, priority::kSmTick);
  q.schedule(a, 10);
  q.schedule(d, 5);
  q.schedule(b, 5);
  q.schedule(c, 5);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.next_cycle(), 5u);
  q.run();
  EXPECT_EQ(log, (std::vector<std::string>{"c@5", "b@5", "d@5", "a@10"}));
  EXPECT_EQ(q.now(), 10u);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.next_cycle(), kNever);
}

TEST(EventQueue, RescheduleDescheduleAndWakeUps) {
  EventQueue q;
  std::vector<std::string> log;
  Logged a("a", log, q), b("b", log, q);
  q.schedule(a, 100);
  q.reschedule(a, 40);  // moved earlier: runs once, at 40
  q.schedule(b, 50);
  q.schedule_by(b, 70);  // a later wake-up leaves it at 50
  q.schedule_by(b, 20);  // an earlier one moves it
  EXPECT_EQ(b.when(), 20u);
  q.run();
  EXPECT_EQ(log, (std::vector<std::string>{"b@20", "a@40"}));
  q.schedule(a, 60);
  q.deschedule(a);
  EXPECT_FALSE(a.scheduled());
  EXPECT_TRUE(q.empty());
  EXPECT_FALSE(q.step());
  EXPECT_EQ(log.size(), 2u);
}

TEST(EventQueue, EventsMayScheduleEventsAndTheClockOnlyMovesForward) {
  EventQueue q;
  int count = 0;
  struct Chain final : Event {
    Chain(EventQueue& q, int& count) : q(q), count(count) {}
    void process() override {
      if (++count < 5) q.schedule(*this, q.now() + 3);  // an event may reschedule itself
    }
    EventQueue& q;
    int& count;
  } chain(q, count);
  q.schedule(chain, 1);
  q.run();
  EXPECT_EQ(count, 5);
  EXPECT_EQ(q.now(), 13u);
  EXPECT_THROW(q.schedule(chain, 12), std::logic_error);  // in the past
  q.advance_to(20);
  EXPECT_EQ(q.now(), 20u);
  q.schedule(chain, 25);
  EXPECT_THROW(q.schedule(chain, 30), std::logic_error);  // already scheduled
  EXPECT_THROW(q.advance_to(30), std::logic_error);       // would skip it
}

TEST(EventQueue, DestroyingAScheduledEventRemovesIt) {
  EventQueue q;
  std::vector<std::string> log;
  Logged keep("keep", log, q);
  q.schedule(keep, 9);
  {
    Logged gone("gone", log, q);
    q.schedule(gone, 3);
    q.reschedule(gone, 4);  // leaves a stale entry behind
  }
  EXPECT_EQ(q.size(), 1u);
  q.run();
  EXPECT_EQ(log, (std::vector<std::string>{"keep@9"}));
}

TEST(EventQueue, MemberEventsCallTheirOwner) {
  struct Owner {
    int ticks = 0;
    void tick() { ++ticks; }
  } owner;
  EventQueue q;
  MemberEvent<Owner, &Owner::tick> e(&owner);
  q.schedule(e, 2);
  q.run();
  q.schedule(e, 7);
  q.run();
  EXPECT_EQ(owner.ticks, 2);
}

}  // namespace
}  // namespace gpusim::engine
