// The analysis on synthetic responses with known answers: metric = 1000 * a^0.5 * b^-1
// has elasticity +0.5 in a and -1 in b everywhere, whichever design sampled it.
#include "study/analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "study/points.hpp"

namespace gpusim::study {
namespace {

const std::vector<double> kA = {1, 2, 4, 8, 16};
const std::vector<double> kB = {10, 20, 40};
constexpr size_t kBaseA = 2, kBaseB = 1;  // a = 4, b = 20

Observation observe(size_t ia, size_t ib, const std::string& policy = "lrr", bool policy_base = true,
                    double policy_factor = 1) {
  Observation o;
  const double a = kA[ia], b = kB[ib];
  o.values = {std::to_string(static_cast<int>(a)), std::to_string(static_cast<int>(b)), policy};
  o.numbers = {a, b, std::nullopt};
  o.baseline = {ia == kBaseA, ib == kBaseB, policy_base};
  o.metric = 1000 * std::sqrt(a) / b * policy_factor;
  return o;
}

const FactorEffect& effect(const Analysis& a, const std::string& name) {
  for (const FactorEffect& e : a.factors)
    if (e.name == name) return e;
  throw std::runtime_error("no factor " + name);
}

TEST(Analysis, GridSlicesGiveTheExactElasticities) {
  std::vector<Observation> obs;
  for (size_t i = 0; i < kA.size(); ++i)
    for (size_t j = 0; j < kB.size(); ++j) {
      obs.push_back(observe(i, j));
      obs.push_back(observe(i, j, "gto", false, 1.25));
    }
  const Analysis an = analyse({"a", "b", "policy"}, obs);
  ASSERT_TRUE(an.baseline_metric);
  EXPECT_DOUBLE_EQ(*an.baseline_metric, 1000 * 2.0 / 20);  // sqrt(4) / 20
  const FactorEffect& a = effect(an, "a");
  const FactorEffect& b = effect(an, "b");
  const FactorEffect& p = effect(an, "policy");
  EXPECT_EQ(a.method, "slice");
  EXPECT_NEAR(*a.elasticity, 0.5, 1e-12);
  EXPECT_NEAR(*b.elasticity, -1.0, 1e-12);
  EXPECT_FALSE(p.elasticity);  // not a number: a swing only
  // Swings: a from 1 to 16 is sqrt(16) = 4x; b from 10 to 40 is 4x; the policy 1.25x.
  EXPECT_NEAR(a.swing, 4.0, 1e-12);
  EXPECT_NEAR(b.swing, 4.0, 1e-12);
  EXPECT_NEAR(p.swing, 1.25, 1e-12);
  EXPECT_NEAR(a.low, 0.5, 1e-12);   // sqrt(1) / sqrt(4)
  EXPECT_NEAR(a.high, 2.0, 1e-12);  // sqrt(16) / sqrt(4)
  EXPECT_EQ(an.factors.back().name, "policy");  // ranked by swing
  ASSERT_EQ(a.response.size(), kA.size());
  EXPECT_EQ(a.response.front().value, "1");  // ascending by value
  // A full grid crosses every pair: a x b at the policy's baseline, a x policy, b x policy.
  ASSERT_EQ(an.pairs.size(), 3u);
  const PairMap& ab = an.pairs[0];
  EXPECT_EQ(ab.a, "a");
  EXPECT_EQ(ab.b, "b");
  ASSERT_EQ(ab.normalised.size(), 5u);
  ASSERT_EQ(ab.normalised[0].size(), 3u);
  EXPECT_NEAR(*ab.normalised[4][0], (std::sqrt(16.0) / 10) / (2.0 / 20), 1e-12);
  EXPECT_EQ(an.pairs[2].a, "b");
  EXPECT_EQ(an.pairs[2].b, "policy");
  EXPECT_NEAR(*an.pairs[2].normalised[1][1], 1.25, 1e-12);  // b = 20 (baseline), gto
}

TEST(Analysis, OneAtATimeGivesTheSameElasticities) {
  std::vector<Observation> obs = {observe(kBaseA, kBaseB)};
  for (size_t i = 0; i < kA.size(); ++i)
    if (i != kBaseA) obs.push_back(observe(i, kBaseB));
  for (size_t j = 0; j < kB.size(); ++j)
    if (j != kBaseB) obs.push_back(observe(kBaseA, j));
  const Analysis an = analyse({"a", "b", "policy"}, obs);
  EXPECT_NEAR(*effect(an, "a").elasticity, 0.5, 1e-12);
  EXPECT_NEAR(*effect(an, "b").elasticity, -1.0, 1e-12);
  EXPECT_TRUE(an.pairs.empty());  // no cross of a and b away from the baseline
}

TEST(Analysis, LatinHypercubeRegressionRecoversTheElasticities) {
  // No point but the baseline has the other factors at their baselines, so the
  // elasticities come from the fit of ln metric on ln a and ln b over all points.
  std::vector<Observation> obs = {observe(kBaseA, kBaseB)};
  const auto rows = latin_hypercube({kA.size(), kB.size()}, 12, 7);
  for (const auto& r : rows)
    if (r[0] != kBaseA && r[1] != kBaseB) obs.push_back(observe(r[0], r[1]));
  ASSERT_GE(obs.size(), 4u);
  const Analysis an = analyse({"a", "b", "policy"}, obs);
  EXPECT_EQ(effect(an, "a").method, "regression");
  EXPECT_NEAR(*effect(an, "a").elasticity, 0.5, 1e-9);
  EXPECT_NEAR(*effect(an, "b").elasticity, -1.0, 1e-9);
  // The swing is the fit's own: a from 1 to 16 is sqrt(16) = 4x, whatever b did meanwhile.
  const std::set<size_t> a_levels = [&] {
    std::set<size_t> l;
    for (const auto& o : obs) l.insert(static_cast<size_t>(std::lround(std::log2(*o.numbers[0]))));
    return l;
  }();
  const double a_range = std::pow(2.0, static_cast<double>(*a_levels.rbegin() - *a_levels.begin()));
  EXPECT_NEAR(effect(an, "a").swing, std::sqrt(a_range), 1e-9);
  EXPECT_NEAR(effect(an, "a").low, std::sqrt(std::pow(2.0, static_cast<double>(*a_levels.begin())) / 4), 1e-9);
}

TEST(Analysis, WithoutABaselinePointNormalisesToTheGeometricMean) {
  const std::vector<Observation> obs = {observe(0, 0), observe(4, 0)};  // b at 10, not its baseline
  const Analysis an = analyse({"a", "b", "policy"}, obs);
  EXPECT_FALSE(an.baseline_metric);
  EXPECT_NEAR(an.reference, std::sqrt(obs[0].metric * obs[1].metric), 1e-9);
}

TEST(Analysis, LeastSquaresSolvesAndRefusesSingularSystems) {
  // y = 3 + 2 x1 - x2 exactly.
  const std::vector<std::vector<double>> x = {{0, 0}, {1, 0}, {0, 1}, {2, 3}};
  const std::vector<double> y = {3, 5, 2, 4};
  const auto b = least_squares(x, y);
  ASSERT_TRUE(b);
  EXPECT_NEAR((*b)[0], 3, 1e-12);
  EXPECT_NEAR((*b)[1], 2, 1e-12);
  EXPECT_NEAR((*b)[2], -1, 1e-12);
  EXPECT_FALSE(least_squares({{1, 2}, {2, 4}, {3, 6}}, {1, 2, 3}));  // x2 = 2 x1
  EXPECT_FALSE(least_squares({{1}}, {1}));                          // too few rows
}

}  // namespace
}  // namespace gpusim::study
