// The SMs' next ticks by cycle: each batch's due SMs in index order, and the next batch's
// cycle, near the wheel and past it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/tick_calendar.hpp"

namespace gpusim::core {
namespace {

std::vector<size_t> due_at(TickCalendar& c, engine::Cycle now) {
  std::vector<size_t> due;
  c.take_due(now, [&](size_t sm) { due.push_back(sm); });
  return due;
}

TEST(TickCalendar, TakesTheDueSmsInIndexOrderAndKeepsOnlyTheEarlierTick) {
  TickCalendar c(132, 10);
  EXPECT_EQ(c.earliest(), engine::kNever);
  EXPECT_TRUE(c.lower(70, 12));
  EXPECT_TRUE(c.lower(3, 12));
  EXPECT_TRUE(c.lower(131, 11));
  EXPECT_FALSE(c.lower(131, 15));  // already earlier: no change
  EXPECT_TRUE(c.lower(70, 11));    // moved earlier: off cycle 12
  EXPECT_EQ(c.earliest(), 11u);
  EXPECT_TRUE(due_at(c, 10).empty());
  EXPECT_EQ(due_at(c, 11), (std::vector<size_t>{70, 131}));
  EXPECT_EQ(c.next(70), engine::kNever);
  EXPECT_EQ(c.earliest(), 12u);
  EXPECT_TRUE(c.lower(5, 11));  // due in the cycle just taken: a second batch in it
  EXPECT_EQ(c.earliest(), 11u);
  EXPECT_EQ(due_at(c, 11), (std::vector<size_t>{5}));
  EXPECT_EQ(due_at(c, 12), (std::vector<size_t>{3}));
  EXPECT_EQ(c.earliest(), engine::kNever);
  EXPECT_TRUE(c.lower(9, 20));
  EXPECT_TRUE(c.lower(9, 14));  // cycle 20 is left with no SM due
  EXPECT_EQ(due_at(c, 14), (std::vector<size_t>{9}));
  EXPECT_EQ(c.earliest(), engine::kNever);
}

TEST(TickCalendar, TicksPastTheWheelComeBackOnItBeforeTheyAreDue) {
  TickCalendar c(4, 0);
  EXPECT_TRUE(c.lower(2, 5000));  // far past the wheel's 1024 cycles
  EXPECT_TRUE(c.lower(1, 3000));
  EXPECT_TRUE(c.lower(0, 1023));  // its last cycle
  EXPECT_EQ(c.earliest(), 1023u);
  EXPECT_EQ(due_at(c, 1023), (std::vector<size_t>{0}));
  EXPECT_EQ(c.earliest(), 3000u);
  EXPECT_TRUE(c.lower(2, 2999));  // off the far list, still far
  EXPECT_EQ(c.earliest(), 2999u);
  EXPECT_TRUE(due_at(c, 2500).empty());  // both now within the wheel
  EXPECT_TRUE(c.lower(3, 2600));
  EXPECT_EQ(c.earliest(), 2600u);
  EXPECT_EQ(due_at(c, 2600), (std::vector<size_t>{3}));
  EXPECT_EQ(due_at(c, 2999), (std::vector<size_t>{2}));
  EXPECT_EQ(due_at(c, 3000), (std::vector<size_t>{1}));
  EXPECT_EQ(c.earliest(), engine::kNever);
}

// Against the definition, a look at every SM: random ticks near and far, lowered and taken.
TEST(TickCalendar, AgreesWithALookAtEverySm) {
  std::mt19937_64 rng(17);
  for (const size_t sms : {1u, 15u, 64u, 132u}) {
    TickCalendar c(sms, 0);
    std::vector<engine::Cycle> next(sms, engine::kNever);
    engine::Cycle now = 0;
    for (int step = 0; step < 20000; ++step) {
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
        const size_t sm = rng() % sms;
        const uint64_t pick = rng() % 10;
        const engine::Cycle at = now + (pick < 6 ? rng() % 4 : pick < 9 ? rng() % 1500 : rng() % 5000);
        EXPECT_EQ(c.lower(sm, at), at < next[sm]);
        next[sm] = std::min(next[sm], at);
      }
      const engine::Cycle earliest = *std::min_element(next.begin(), next.end());
      ASSERT_EQ(c.earliest(), earliest);
      if (earliest == engine::kNever) continue;
      now = earliest;
      std::vector<size_t> expected;
      for (size_t sm = 0; sm < sms; ++sm)
        if (next[sm] == now) {
          expected.push_back(sm);
          next[sm] = engine::kNever;
        }
      ASSERT_EQ(due_at(c, now), expected);
      for (size_t sm = 0; sm < sms; ++sm) ASSERT_EQ(c.next(sm), next[sm]);
    }
  }
}

}  // namespace
}  // namespace gpusim::core
