#include <gtest/gtest.h>

#include "temp_file.hpp"
#include "test_paths.hpp"
#include "util/yaml_reader.hpp"
#include "workload/workload.hpp"

namespace gpusim::workload {
namespace {

TEST(WorkloadLoader, StencilWorkload) {
  const Workload w = load_workload(test::repo_path("workloads/stencil.yaml"));
  EXPECT_EQ(w.name, "stencil");
  EXPECT_EQ(w.kernel.entry, "stencil5");
  EXPECT_EQ(w.kernel.regs_per_thread, 18);
  ASSERT_EQ(w.buffers.size(), 2u);
  EXPECT_EQ(w.buffers[0].count, 1024 * 1024);
  EXPECT_EQ(w.buffers[0].init.kind, InitSpec::Kind::Random);
  ASSERT_EQ(w.steps.size(), 3u);
  const auto& launch = std::get<LaunchStep>(w.steps[1].action);
  EXPECT_EQ(launch.grid, (std::array<int64_t, 3>{32, 128, 1}));
  EXPECT_EQ(launch.block, (std::array<int64_t, 3>{32, 8, 1}));
  ASSERT_EQ(launch.args.size(), 4u);
  EXPECT_EQ(std::get<BufferArg>(launch.args[0].value).name, "in");
  EXPECT_EQ(std::get<int64_t>(launch.args[2].value), 1024);
  EXPECT_TRUE(std::get<CopyStep>(w.steps[0].action).to_device);
  ASSERT_TRUE(w.check.has_value());
  EXPECT_EQ(w.check->buffer, "out");
}

TEST(WorkloadLoader, SetOverridesParameters) {
  const Workload w = load_workload(test::repo_path("workloads/stencil.yaml"), {"nx=4000"});
  EXPECT_EQ(std::get<LaunchStep>(w.steps[1].action).grid[0], 125);  // (4000 + 31) / 32
  EXPECT_EQ(w.buffers[0].count, 4000 * 1024);
  EXPECT_THROW(load_workload(test::repo_path("workloads/stencil.yaml"), {"nz=3"}), util::InputError);
  EXPECT_THROW(load_workload(test::repo_path("workloads/stencil.yaml"), {"nx"}), util::InputError);
}

std::string error_for(const std::string& yaml) {
  test::TempFile f("w.yaml", yaml);
  try {
    load_workload(f.path());
  } catch (const util::InputError& e) {
    const std::string msg = e.what();
    return msg.substr(msg.find("w.yaml") + 6);
  }
  return "<no error>";
}

const char* kValid =
    "name: t\nparams: {n: 64}\nkernel: {source: ../../../nonexistent.cu, entry: k}\n"
    "buffers:\n  - {name: a, type: f32, count: n, init: zero}\nsteps:\n  - launch: {grid: n / 32, block: 32, args: [a]}\n";

TEST(WorkloadLoader, ErrorsNameLineAndKey) {
  EXPECT_NE(error_for(kValid).find("kernel.source: file not found"), std::string::npos);
  // Kernel files resolve against the workload's folder; the workload itself stands in for a PTX file.
  const std::string with_ptx =
      "name: t\nparams: {n: 64}\nkernel: {ptx: w.yaml, entry: k}\n"
      "buffers:\n  - {name: a, type: f32, count: n, init: zero}\nsteps:\n";
  EXPECT_EQ(error_for(with_ptx + "  - launch: {grid: n / 0, block: 32, args: [a]}\n"),
            ":7: steps[0].launch.grid: division by zero in 'n / 0'");
  EXPECT_EQ(error_for(with_ptx + "  - launch: {grid: 2, block: 32, args: [b + 1]}\n"),
            ":7: steps[0].launch.args: unknown parameter 'b' in 'b + 1'");
  EXPECT_EQ(error_for(with_ptx + "  - copy: {to_device: nope}\n"), ":7: steps[0].copy.to_device: no buffer named 'nope'");
  EXPECT_EQ(error_for(with_ptx + "  - launch: {grid: 2, blok: 32, args: [a]}\n"), ":7: steps[0].launch: missing key 'block'");
  EXPECT_EQ(error_for(with_ptx + "  - launch: {grid: 2, block: 32, args: [a], extra: 1}\n"),
            ":7: steps[0].launch.extra: unknown key");
}

const char* kSized =
    "name: t\nparams: {n: 64, block: 32}\nsizes:\n  big: {n: 4096}\n  wide: {block: 64}\n"
    "kernel: {ptx: w.yaml, entry: k}\nbuffers:\n  - {name: a, type: f32, count: n, init: zero}\n"
    "steps:\n  - launch: {grid: n / block, block: block, args: [a]}\n";

TEST(WorkloadLoader, NamedSizesReplaceDefaultsAndSetComesLast) {
  test::TempFile f("w.yaml", kSized);
  const auto grid_of = [](const Workload& w) { return std::get<LaunchStep>(w.steps[0].action).grid[0]; };
  const Workload plain = load_workload(f.path());
  EXPECT_EQ(plain.size, "");
  EXPECT_EQ(plain.buffers[0].count, 64);
  EXPECT_EQ(grid_of(plain), 2);
  const Workload big = load_workload(f.path(), {}, "big");
  EXPECT_EQ(big.size, "big");
  EXPECT_EQ(big.buffers[0].count, 4096);
  EXPECT_EQ(grid_of(big), 128);                                       // 4096 / 32: block keeps its default
  EXPECT_EQ(grid_of(load_workload(f.path(), {"block=128"}, "big")), 32);  // --set wins over the size
  EXPECT_EQ(grid_of(load_workload(f.path(), {}, "wide")), 1);
  try {
    load_workload(f.path(), {}, "huge");
    ADD_FAILURE() << "an unknown size must be refused";
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--size 'huge': the workload has no such size (it has: big, wide)"),
              std::string::npos) << e.what();
  }
  EXPECT_EQ(error_for(std::string(kSized).replace(std::string(kSized).find("big: {n"), 7, "big: {m")),
            ":4: sizes.big.m: not one of the workload's params");
}

}  // namespace
}  // namespace gpusim::workload
