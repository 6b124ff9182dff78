// The architecture-file schema: all ten configs load, and each kind of bad input is an
// error naming the file, the line and the key.
#include <gtest/gtest.h>

#include "arch/arch_loader.hpp"
#include "temp_file.hpp"
#include "test_paths.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::arch {
namespace {

using test::line_of;
using test::TempFile;

TEST(ArchLoader, AllTenConfigsLoad) {
  struct Expect {
    const char* name;
    ComputeCapability cc;
    int sms;
  };
  const Expect configs[] = {{"g80", {1, 0}, 16},     {"gt200", {1, 3}, 30},   {"fermi", {2, 0}, 15},
                            {"kepler", {3, 5}, 14},  {"maxwell", {5, 2}, 16}, {"pascal", {6, 0}, 56},
                            {"volta", {7, 0}, 80},   {"turing", {7, 5}, 68},  {"ampere", {8, 0}, 108},
                            {"hopper", {9, 0}, 132}};
  for (const auto& e : configs) {
    const ArchConfig c = load_arch_config(test::config_path(e.name));
    EXPECT_EQ(c.gpu.compute_capability, e.cc) << e.name;
    EXPECT_EQ(c.gpu.sm_count, e.sms) << e.name;
    EXPECT_EQ(c.warp_size, 32) << e.name;
  }
}

TEST(ArchLoader, GenerationDifferencesAreRead) {
  const ArchConfig g80 = load_arch_config(test::config_path("g80"));
  EXPECT_EQ(g80.registers.allocation, RegisterAllocation::PerBlock);
  EXPECT_FALSE(g80.memory.l1.has_value());
  EXPECT_EQ(g80.memory.coalescing, CoalescingRule::Cc10);
  EXPECT_EQ(g80.shared_memory.conflict_scope_threads, 16);
  EXPECT_EQ(g80.units.fp32, 8);  // a warp instruction takes 32 / 8 = 4 cycles
  const ArchConfig kepler = load_arch_config(test::config_path("kepler"));
  EXPECT_EQ(kepler.scheduling.issue_width, 2);
  EXPECT_EQ(kepler.latencies.fp32, 11);
  EXPECT_FALSE(kepler.memory.l1->caches_global_loads);
  const ArchConfig fermi = load_arch_config(test::config_path("fermi"));
  EXPECT_EQ(fermi.registers.unit_for(21), 128);
  EXPECT_EQ(fermi.registers.unit_for(20), 64);
  const ArchConfig hopper = load_arch_config(test::config_path("hopper"));
  EXPECT_EQ(hopper.memory.l2->size_bytes, 52428800);
  EXPECT_EQ(hopper.host_link.copy_engines, 3);
}

// Loads hopper.yaml with `from` replaced by `to` and returns the error message.
std::string error_after_edit(const std::string& from, const std::string& to, int* line = nullptr) {
  std::string text = test::read_file(test::config_path("hopper"));
  const auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  text.replace(pos, from.size(), to);
  if (line) *line = line_of(text, to);
  TempFile f("edited.yaml", text);
  try {
    load_arch_config(f.path());
  } catch (const util::InputError& e) {
    std::string msg = e.what();
    const auto at = msg.find(f.path());
    EXPECT_EQ(at, 0u) << msg;  // the message starts with the file name
    return msg.substr(f.path().size());
  }
  ADD_FAILURE() << "no error for " << to;
  return "";
}

TEST(ArchLoader, ImpossibleValueNamesFileLineAndKey) {
  int line = 0;
  const std::string msg = error_after_edit("sm_count: 132", "sm_count: 0", &line);
  EXPECT_EQ(msg, ":" + std::to_string(line) + ": gpu.sm_count: 0 is out of range [1, 4096]");
}

TEST(ArchLoader, WrongType) {
  int line = 0;
  const std::string msg = error_after_edit("per_sm: 65536", "per_sm: lots", &line);
  EXPECT_EQ(msg, ":" + std::to_string(line) + ": registers.per_sm: expected an integer, got 'lots'");
}

TEST(ArchLoader, UnknownKey) {
  int line = 0;
  const std::string msg = error_after_edit("  issue_width: 1", "  issue_width: 1\n  issue_wdith: 2", &line);
  EXPECT_EQ(msg, ":" + std::to_string(line + 1) + ": scheduling.issue_wdith: unknown key");
}

TEST(ArchLoader, MissingKey) {
  int line = 0;
  const std::string msg = error_after_edit("  banks: 32                    # [guide]\n", "", &line);
  EXPECT_NE(msg.find("shared_memory: missing key 'banks'"), std::string::npos) << msg;
}

TEST(ArchLoader, WarpsTimesWarpSizeMustEqualThreads) {
  const std::string msg = error_after_edit("max_warps_per_sm: 64", "max_warps_per_sm: 48");
  EXPECT_NE(msg.find("limits: max_warps_per_sm x warp_size (48 x 32) must equal max_threads_per_sm (2048)"),
            std::string::npos)
      << msg;
}

TEST(ArchLoader, BadChoiceListsTheOptions) {
  const std::string msg = error_after_edit("policy: gto", "policy: fastest");
  EXPECT_NE(msg.find("scheduling.policy: 'fastest' is not one of: lrr, gto, two_level"), std::string::npos) << msg;
}

TEST(ArchLoader, CrossFieldChecks) {
  EXPECT_NE(error_after_edit("max_per_block_optin: 232448", "max_per_block_optin: 40000").find("smaller than max_per_block"),
            std::string::npos);
  EXPECT_NE(error_after_edit("latency: 674", "latency: 100").find("dram: latency must exceed the L2's"),
            std::string::npos);
  EXPECT_NE(error_after_edit("size_bytes: 52428800", "size_bytes: 52428801").find("whole number of sets"),
            std::string::npos);
  EXPECT_NE(error_after_edit("compute_capability: \"9.0\"", "compute_capability: \"nine\"").find("MAJOR.MINOR"),
            std::string::npos);
}

TEST(ArchLoader, MalformedYamlAndMissingFile) {
  TempFile f("broken.yaml", "gpu:\n  name: [unclosed\n");
  try {
    load_arch_config(f.path());
    FAIL();
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("malformed YAML"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find(f.path()), 0u);
  }
  EXPECT_THROW(load_arch_config("/nonexistent/arch.yaml"), util::InputError);
}

}  // namespace
}  // namespace gpusim::arch
