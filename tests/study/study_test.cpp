// Study files, their points under each design, and the checks made before anything runs.
#include "study/study.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "study/points.hpp"
#include "test_paths.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::study {
namespace {

// A study file as if it lay in studies/, so its paths are taken from there.
Study study(const std::string& body) {
  return load_study_text("name: t\narch: ../configs/hopper.yaml\nworkloads: [../workloads/copy.yaml]\n" + body,
                         test::repo_path("studies/t.yaml"));
}

std::string error_of(const std::string& text) {
  try {
    const Study s = load_study_text(text, test::repo_path("studies/t.yaml"));
    const Plan plan = make_plan(s);
    for (const Point& p : plan.points) check_point(s, plan, p);
  } catch (const util::InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Study, ReadsFactorsRangesAndLinkedParameters) {
  const Study s = study(
      "factors:\n"
      "  - {param: memory.dram.latency, values: 400:800:200, baseline: 600}\n"
      "  - {param: scheduling.policy, values: [lrr, gto]}\n"
      "  - linked: {memory.l1.size_bytes: [16384, 32768], memory.l1.associativity: [4, 8]}\n"
      "metrics: [cycles, stall_share_long_scoreboard]\n");
  ASSERT_EQ(s.factors.size(), 3u);
  EXPECT_EQ(s.factors[0].params[0].values, (std::vector<std::string>{"400", "600", "800"}));
  EXPECT_EQ(*s.factors[0].baseline, "600");
  EXPECT_EQ(s.factors[2].name, "memory.l1.size_bytes+memory.l1.associativity");
  EXPECT_EQ(s.factors[2].levels(), 2u);
  EXPECT_EQ(s.metrics, (std::vector<std::string>{"cycles", "stall_share_long_scoreboard"}));
  EXPECT_EQ(s.design, Design::Grid);
}

TEST(Study, ErrorsNameTheFileLineAndKey) {
  const std::string head = "name: t\narch: ../configs/hopper.yaml\nworkloads: [../workloads/copy.yaml]\n";
  EXPECT_NE(error_of(head + "factors:\n  - {param: memory.dram.latency, values: 400:800:200, baseline: 500}\n")
                .find("t.yaml:5: factors[0].baseline: '500' is not one of the factor's values"),
            std::string::npos);
  EXPECT_NE(error_of(head + "factors:\n  - linked: {memory.l1.size_bytes: [16384, 32768], memory.l1.associativity: [4]}\n")
                .find("factors[0].linked.memory.l1.associativity: 1 values, but memory.l1.size_bytes has 2"),
            std::string::npos);
  EXPECT_NE(error_of(head + "factors:\n  - {param: memory.dram.latency, values: [400, 400]}\n").find("appears twice"),
            std::string::npos);
  EXPECT_NE(error_of(head + "factors:\n  - {param: blocks, values: [1, 2]}\nmetrics: [cycels]\n")
                .find("'cycels' is not a metric"),
            std::string::npos);
  EXPECT_NE(error_of(head + "factors:\n  - {param: blocks, values: [1, 2]}\nsamples: 5\n")
                .find("only a Latin hypercube design"),
            std::string::npos);
  EXPECT_NE(error_of(head + "factors:\n  - {param: blocks, values: [1, 2]}\ncolour: red\n").find("colour"),
            std::string::npos);
  // Checked against the declarations before anything runs: an undeclared parameter, a
  // value out of its range, a workload parameter the workload lacks.
  EXPECT_NE(error_of(head + "factors:\n  - {param: memory.dram.latncy, values: [400, 500]}\n").find("memory.dram.latncy"),
            std::string::npos);
  const std::string range = error_of(head + "factors:\n  - {param: memory.dram.latency, values: [400, 0]}\n");
  EXPECT_NE(range.find("the point memory.dram.latency=0"), std::string::npos) << range;
  EXPECT_NE(error_of(head + "factors:\n  - {param: warps, values: [1, 2]}\n").find("no parameter 'warps'"),
            std::string::npos);
}

TEST(Study, GridIsEveryCombination) {
  const Study s = study(
      "factors:\n"
      "  - {param: memory.dram.latency, values: 400:800:100}\n"
      "  - {param: scheduling.policy, values: [lrr, gto]}\n"
      "  - {param: blocks_per_sm, values: 1:8:*2}\n");
  const Plan plan = make_plan(s);
  EXPECT_EQ(plan.points.size(), 5u * 2 * 4);
  std::set<std::string> keys;
  for (const Point& p : plan.points) keys.insert(p.key);
  EXPECT_EQ(keys.size(), plan.points.size());
  // Baselines: the configuration's own value where the factor has it (gto), else the
  // middle level: hopper's DRAM latency 674 is not among 400..800, the workload's
  // blocks_per_sm 16 not among 1..8.
  const auto& base = plan.baseline.at(0);
  EXPECT_EQ(s.factors[0].level_text(base[0]), "600");
  EXPECT_EQ(s.factors[1].level_text(base[1]), "gto");
  EXPECT_EQ(s.factors[2].level_text(base[2]), "2");
}

TEST(Study, OneAtATimeVariesOneFactorFromTheBaseline) {
  const Study s = study(
      "design: oat\n"
      "factors:\n"
      "  - {param: memory.dram.latency, values: 400:800:100, baseline: 600}\n"
      "  - {param: scheduling.policy, values: [lrr, gto, two_level], baseline: gto}\n");
  const Plan plan = make_plan(s);
  EXPECT_EQ(plan.points.size(), 1u + 4 + 2);
  for (const Point& p : plan.points) {
    const bool lat = s.factors[0].level_text(p.levels[0]) != "600";
    const bool pol = s.factors[1].level_text(p.levels[1]) != "gto";
    EXPECT_FALSE(lat && pol) << p.key;
  }
}

TEST(Study, LatinHypercubeSpreadsEveryFactorAndRepeats) {
  // With as many samples as levels, each level of each factor appears exactly once.
  const auto rows = latin_hypercube({6, 6, 6}, 6, 42);
  for (size_t f = 0; f < 3; ++f) {
    std::set<size_t> levels;
    for (const auto& r : rows) levels.insert(r[f]);
    EXPECT_EQ(levels.size(), 6u);
  }
  EXPECT_EQ(rows, latin_hypercube({6, 6, 6}, 6, 42));  // same seed, same sample
  EXPECT_NE(rows, latin_hypercube({6, 6, 6}, 6, 43));
  // Twice as many samples as levels: each level twice.
  std::map<size_t, int> count;
  for (const auto& r : latin_hypercube({4}, 8, 1)) ++count[r[0]];
  for (const auto& [level, n] : count) EXPECT_EQ(n, 2) << level;

  const Study s = study(
      "design: lhs\nsamples: 10\nseed: 3\n"
      "factors:\n"
      "  - {param: memory.dram.latency, values: 400:900:50}\n"
      "  - {param: blocks_per_sm, values: 1:32:*2}\n");
  const Plan plan = make_plan(s);
  EXPECT_GE(plan.points.size(), 2u);
  EXPECT_LE(plan.points.size(), 11u);  // the baseline and 10 samples, less repeats
  EXPECT_EQ(plan.points.front().levels, plan.baseline[0]);
}

TEST(Study, ContextsAreArchitecturesTimesWorkloads) {
  const Study s = load_study_text(
      "name: gens\narchs: [../configs/kepler.yaml, ../configs/volta.yaml]\n"
      "workloads: [../workloads/copy.yaml, {file: ../workloads/vecadd.yaml, set: {n: 65536}}]\n"
      "factors:\n  - {param: scheduling.policy, values: [lrr, gto]}\n",
      test::repo_path("studies/gens.yaml"));
  const Plan plan = make_plan(s);
  EXPECT_EQ(plan.points.size(), 2u * 2 * 2);
  EXPECT_EQ(plan.baseline.size(), 4u);
  const PointRecord r = check_point(s, plan, plan.points.back());
  EXPECT_EQ(r.arch_file, "../configs/volta.yaml");
  EXPECT_EQ(r.workload, "vecadd");
  EXPECT_EQ(r.params["workload"]["n"], 65536);
  EXPECT_EQ(r.params["arch"]["scheduling.policy"], "gto");
  EXPECT_EQ(r.config_hash.size(), 16u);
  EXPECT_NE(r.config_hash, check_point(s, plan, plan.points[plan.points.size() - 2]).config_hash);
}

}  // namespace
}  // namespace gpusim::study
