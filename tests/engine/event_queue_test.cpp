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

// Events due in the cycle being run or the next one bypass the heap (an SM that issued
// ticks again in the next cycle); the order must be the same as through the heap.
TEST(EventQueue, EventsForThisCycleAndTheNextKeepTheOrder) {
  EventQueue q;
  std::vector<std::string> log;
  struct Spawner final : Event {
    Spawner(std::vector<std::string>& log, EventQueue& q, int32_t priority) : Event(priority), log(log), q(q) {}
    void process() override {
      log.push_back("s@" + std::to_string(q.now()));
      for (auto& [e, when] : then) q.schedule_by(*e, when);
      then.clear();
    }
    std::vector<std::string>& log;
    EventQueue& q;
    std::vector<std::pair<Event*, Cycle>> then;
  };
  Spawner s(log, q, 50);
  Logged early("early", log, q, -10), late("late", log, q, 60), later("later", log, q, 70), next_low("next_low", log, q, -20),
      next_high("next_high", log, q, 80), far("far", log, q, 0), moved("moved", log, q, 0);
  q.schedule(s, 4);
  q.schedule(later, 4);
  q.schedule(far, 9);
  q.schedule(moved, 9);
  // At 4, s schedules for its own cycle one event below its priority (it runs next, before
  // `later`) and one above; for the next cycle, a high priority first and then a low one
  // (which runs first); and it moves `moved` from 9 to 5.
  s.then = {{&early, 4}, {&late, 4}, {&next_high, 5}, {&next_low, 5}, {&moved, 5}};
  q.run();
  EXPECT_EQ(log, (std::vector<std::string>{"s@4", "early@4", "late@4", "later@4", "next_low@5", "moved@5", "next_high@5",
                                           "far@9"}));
  // The clock moved on with events for the next cycle still waiting: they are not lost.
  q.schedule(next_low, q.now() + 1);
  q.schedule(far, q.now() + 1);
  q.advance_to(q.now() + 1);
  EXPECT_EQ(q.next_cycle(), 10u);
  q.run();
  ASSERT_EQ(log.size(), 10u);
  EXPECT_EQ(log[8], "next_low@10");
  EXPECT_EQ(log[9], "far@10");
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
