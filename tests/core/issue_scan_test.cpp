// A scan that passes over warps by their known waits picks, and reports, exactly what one
// that offers every warp does: the same warp issues, or the same stall reason and wake. The
// first is one scan restarted each cycle, as the SM keeps it; the second is made anew.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/scheduler/issue_scan.hpp"
#include "core/scheduler/policy.hpp"

namespace gpusim::core {
namespace {

// The SM's side of an offer: the warps in `ready` issue; the others wait on a unit (a wait
// that other warps move, so never kept as known).
class FakeIssuer final : public Issuer {
 public:
  std::vector<bool> ready;
  std::vector<uint32_t> slots;
  bool try_offer(IssueScan& scan, size_t index) override {
    if (ready[slots[index]]) return true;
    scan.wait(Stall::MathPipeThrottle, scan.now() + 2);
    return false;
  }
  bool active(uint32_t, engine::Cycle) override { return true; }
};

struct Outcome {
  size_t issued = SIZE_MAX;
  Stall reason = Stall::Idle;
  engine::Cycle wake = 0;
  bool operator==(const Outcome&) const = default;
};

struct Scheduler {
  uint64_t parked = 0;
  std::array<engine::Cycle, 64> known{};  // zero: none known
};

// The issuer a scan calls, noting which index issued.
struct Recorder final : Issuer {
  FakeIssuer& inner;
  size_t issued = SIZE_MAX;
  explicit Recorder(FakeIssuer& i) : inner(i) {}
  bool try_offer(IssueScan& scan, size_t index) override {
    const bool ok = inner.try_offer(scan, index);
    if (ok) issued = index;
    return ok;
  }
  bool active(uint32_t slot, engine::Cycle at) override { return inner.active(slot, at); }
};

Outcome pick_once(SchedulerPolicy& policy, IssueScan& scan, Recorder& recorder) {
  recorder.issued = SIZE_MAX;
  policy.pick(scan);
  const size_t issued = recorder.issued;
  return {issued, issued == SIZE_MAX ? scan.reason() : Stall::Idle, issued == SIZE_MAX ? scan.wake() : 0};
}

// A scan made for this cycle alone, without known waits.
Outcome scan_once(SchedulerPolicy& policy, FakeIssuer& issuer, const std::vector<WarpGate>& gates, size_t last_pos,
                  engine::Cycle now, Scheduler& s) {
  const IssueUnits units;
  Recorder recorder(issuer);
  IssueScan scan(recorder, gates.data(), issuer.slots, units, last_pos, issuer.slots[last_pos % issuer.slots.size()], now,
                 &s.parked, nullptr);
  return pick_once(policy, scan, recorder);
}

void same_outcomes(const char* policy_name) {
  const size_t warps = 24;
  const InstructionTiming alu{.occupancy = 0};  // no unit: the gate and the issuer decide
  std::vector<WarpGate> gates(warps);
  FakeIssuer issuer;
  issuer.ready.assign(warps, false);
  for (uint32_t i = 0; i < warps; ++i) issuer.slots.push_back(i);
  auto kept = SchedulerPolicyRegistry::instance().make(policy_name);
  auto plain = SchedulerPolicyRegistry::instance().make(policy_name);
  Scheduler with, without;
  // The side with known waits keeps one scan and restarts it each cycle, as the SM does: what
  // one cycle's scan learnt (its reason, its wake) must not reach the next.
  const IssueUnits units;
  Recorder recorder(issuer);
  IssueScan kept_scan(recorder, gates.data(), issuer.slots, units, 0, 0, 0, &with.parked, with.known.data());
  size_t last_pos = 0, issues = 0, idle = 0;
  uint64_t seed = 12345;
  const auto draw = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return (seed >> 33) % n;
  };
  // What ends a wait (an issue, a response, a release) unparks the warp and forgets its known wait.
  const auto unpark = [&](size_t i) {
    with.parked &= ~(uint64_t{1} << i);
    without.parked &= ~(uint64_t{1} << i);
    with.known[i] = 0;
  };
  for (engine::Cycle now = 1; now < 4000; ++now) {
    // Events between cycles: a response, a barrier's release (both unpark), a unit freeing up.
    const size_t w = draw(warps);
    switch (draw(4)) {
      case 0:  // a load's value arrives: operands known again later
        gates[w].next_known = false;
        unpark(w);
        break;
      case 1:
        if (gates[w].at_barrier) {
          gates[w].at_barrier = false;
          gates[w].eligible_at = std::max(gates[w].eligible_at, now + draw(3));
          gates[w].eligible_wait = Stall::Barrier;
          unpark(w);
        }
        break;
      default:
        break;
    }
    for (size_t i = 0; i < warps; ++i) issuer.ready[i] = draw(5) == 0;
    // A warp whose next instruction is unknown learns it at its offer: the issuer would; here
    // it is known before the scan, at a time drawn now.
    for (size_t i = 0; i < warps; ++i)
      if (!gates[i].next_known && !gates[i].at_barrier) {
        const bool loaded = draw(8) == 0;
        gates[i].next = &alu;
        gates[i].operands_at = loaded ? engine::kNever : now + draw(30);
        gates[i].operands_wait = loaded ? Stall::LongScoreboard : Stall::Wait;
        gates[i].next_known = true;
        unpark(i);  // the SM forgets it too: choose_next runs in an offer, which records anew
      }
    kept_scan.restart(issuer.slots.size(), last_pos, issuer.slots[last_pos % issuer.slots.size()], now);
    const Outcome a = pick_once(*kept, kept_scan, recorder);
    const Outcome b = scan_once(*plain, issuer, gates, last_pos, now, without);
    ASSERT_EQ(a, b) << policy_name << " at cycle " << now;
    if (a.issued != SIZE_MAX) {
      ++issues;
      last_pos = a.issued;
      const size_t i = a.issued;
      gates[i].next_known = false;
      if (draw(6) == 0) gates[i].at_barrier = true;
      if (draw(4) == 0) {
        gates[i].eligible_at = now + 1 + draw(5);
        gates[i].eligible_wait = Stall::BranchResolving;
      }
      unpark(i);
    } else {
      ++idle;
    }
  }
  // Both kinds of cycle were met, many times.
  EXPECT_GT(issues, 500u) << policy_name;
  EXPECT_GT(idle, 500u) << policy_name;
}

TEST(IssueScan, KnownWaitsPickAsOffersDoLooseRoundRobin) { same_outcomes("lrr"); }
TEST(IssueScan, KnownWaitsPickAsOffersDoGreedyThenOldest) { same_outcomes("gto"); }

}  // namespace
}  // namespace gpusim::core
