// Every bundled workload runs functionally and its output equals its reference (bit for
// bit, or within the workload's stated float tolerance).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "arch/arch_loader.hpp"
#include "driver/functional_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "test_paths.hpp"
#include "workload/workload.hpp"

namespace gpusim::driver {
namespace {

std::vector<std::string> bundled_workloads() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(test::repo_path("workloads")))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

class BundledWorkload : public ::testing::TestWithParam<std::string> {};

TEST_P(BundledWorkload, MatchesItsReference) {
  const arch::ArchConfig a = arch::load_arch_config(test::config_path("hopper"));
  const workload::Workload w = workload::load_workload(test::repo_path("workloads/" + GetParam() + ".yaml"));
  ASSERT_TRUE(w.check.has_value()) << "every bundled workload ships a check";
  const frontend::LoadedKernel k = frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, a.gpu.compute_capability);
  const FunctionalRun run = run_functional(w, k.module, *k.program, 2'000'000'000);
  ASSERT_TRUE(run.check.has_value());
  EXPECT_TRUE(run.check->passed) << run.check->detail;
  ASSERT_FALSE(run.launches.empty());
  EXPECT_GT(run.launches[0].stats.warp_instructions, 0u);
}

INSTANTIATE_TEST_SUITE_P(All, BundledWorkload, ::testing::ValuesIn(bundled_workloads()),
                         [](const auto& info) { return info.param; });

TEST(Divergence, ThreadParitySplitsWarpsAndWarpParityDoesNot) {
  const arch::ArchConfig a = arch::load_arch_config(test::config_path("hopper"));
  double efficiency[2];
  int i = 0;
  for (const char* name : {"branch_by_thread", "branch_by_warp"}) {
    const workload::Workload w = workload::load_workload(test::repo_path(std::string("workloads/") + name + ".yaml"), {"n=8192"});
    const auto k = frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, a.gpu.compute_capability);
    const auto s = run_functional(w, k.module, *k.program, 100'000'000).launches[0].stats;
    efficiency[i++] = static_cast<double>(s.thread_instructions) / (32.0 * static_cast<double>(s.warp_instructions));
  }
  EXPECT_LT(efficiency[0], 0.7);  // both paths run with half the lanes
  EXPECT_GT(efficiency[1], 0.95);
}

// Without the CUDA toolkit the checked-in PTX and register table serve.
TEST(KernelLoader, WorksWithoutTheToolkit) {
  const char* old = std::getenv("CUDA_HOME");
  const std::string saved = old ? old : "";
  setenv("CUDA_HOME", "/nonexistent-cuda", 1);
  const auto k = frontend::load_kernel(test::repo_path("validate/kernels/stencil.cu"), "", "stencil5", {9, 0});
  if (old) setenv("CUDA_HOME", saved.c_str(), 1);
  else unsetenv("CUDA_HOME");
  EXPECT_EQ(k.ptx_origin, "checked-in");
  ASSERT_TRUE(k.registers.has_value());
  EXPECT_EQ(k.registers_origin, "checked-in sm_90");
  EXPECT_EQ(*k.registers, 18);
  EXPECT_EQ(frontend::ptxas_target({3, 5}), 75);
  EXPECT_EQ(frontend::ptxas_target({8, 0}), 80);
}

}  // namespace
}  // namespace gpusim::driver
