// The architecture-file schema: all ten configs load, and each kind of bad input is an
// error naming the file, the line and the key.
#include <gtest/gtest.h>

#include "arch/arch_loader.hpp"
#include "temp_file.hpp"
#include "test_paths.hpp"
#include "util/yaml_reader.hpp"

#include <filesystem>
#include <fstream>

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
  EXPECT_EQ(g80.memory.coalescing, "cc1.0");
  EXPECT_EQ(g80.shared_memory.access.conflict_scope_threads, 16);
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

// Loads configs/NAME.yaml with `from` replaced by `to` (from a temporary copy whose base,
// if any, still names the real file) and returns the error message after the file name.
std::string error_after_edit(const std::string& from, const std::string& to, int* line = nullptr,
                             const std::string& name = "hopper") {
  std::string text = test::read_file(test::config_path(name));
  const auto base = text.find("\nbase: ");
  if (base != std::string::npos) text.insert(base + 7, test::repo_path("configs/"));
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
  const std::string msg = error_after_edit("  issue_width: 2", "  issue_width: 2\n  issue_wdith: 2", &line, "kepler");
  EXPECT_EQ(msg, ":" + std::to_string(line + 1) + ": scheduling.issue_wdith: unknown key");
}

TEST(ArchLoader, MissingKey) {
  // A key without a default that neither the file nor a base states.
  const std::string msg = error_after_edit("  warp_schedulers_per_sm: 4    # [gk110]\n", "", nullptr, "kepler");
  EXPECT_NE(msg.find("scheduling: missing key 'warp_schedulers_per_sm' (it has no default)"), std::string::npos) << msg;
}

TEST(ArchLoader, WarpsTimesWarpSizeMustEqualThreads) {
  const std::string msg = error_after_edit("max_warps_per_sm: 64", "max_warps_per_sm: 48", nullptr, "kepler");
  EXPECT_NE(msg.find("limits: max_warps_per_sm x warp_size (48 x 32) must equal max_threads_per_sm (2048)"),
            std::string::npos)
      << msg;
}

TEST(ArchLoader, BadChoiceListsTheOptions) {
  // The options are the registered scheduler plug-ins.
  const std::string msg = error_after_edit("policy: lrr", "policy: fastest", nullptr, "g80");
  EXPECT_NE(msg.find("scheduling.policy: 'fastest' is not one of: gto, lrr, two_level"), std::string::npos) << msg;
}

TEST(ArchLoader, CrossFieldChecks) {
  EXPECT_NE(error_after_edit("max_per_block_optin: 232448", "max_per_block_optin: 40000").find("smaller than max_per_block"),
            std::string::npos);
  EXPECT_NE(error_after_edit("latency: 686", "latency: 100").find("dram: latency must exceed the L2's"),
            std::string::npos);
  EXPECT_NE(error_after_edit("size_bytes: 52428800", "size_bytes: 52428801").find("whole number of sets"),
            std::string::npos);
  EXPECT_NE(error_after_edit("compute_capability: \"9.0\"", "compute_capability: \"nine\"").find("MAJOR.MINOR"),
            std::string::npos);
  // Each of the 132 SMs needs a partition, and only partitions that exist.
  std::string msg = error_after_edit("sm_partitions: [0, 0, 1,", "sm_partitions: [0, 1,");
  EXPECT_NE(msg.find("memory.l2.sm_partitions: expected 'halves' or a list of 132 partitions, one per SM"),
            std::string::npos) << msg;
  msg = error_after_edit("sm_partitions: [0, 0, 1,", "sm_partitions: [0, 2, 1,");
  EXPECT_NE(msg.find("memory.l2.sm_partitions: partition 2 is out of range [0, 1]"), std::string::npos) << msg;
  msg = error_after_edit("sm_path_cycles: [-3, -4,", "sm_path_cycles: [-4,");
  EXPECT_NE(msg.find("memory.l2.sm_path_cycles: expected 'none' or a list of 132 cycles, one per SM"), std::string::npos) << msg;
  msg = error_after_edit("sm_path_cycles: [-3, -4,", "sm_path_cycles: [-300, -4,");
  EXPECT_NE(msg.find("sm_path_cycles: -300 cycles: must be within the L2's latency either way"), std::string::npos) << msg;
  msg = error_after_edit("sm_partitions: [0, 0, 1,", "sm_partitions: [0, x, 1,");
  EXPECT_NE(msg.find("element 1: expected a partition, got 'x'"), std::string::npos) << msg;
  msg = error_after_edit("partitions: 2 ", "partitions: 3 ");
  EXPECT_NE(msg.find("memory.l2.partitions: size_bytes / partitions must be a whole number of sets"), std::string::npos)
      << msg;
}

// Values the model cannot honour are refused at load time with file:line and the range.
TEST(ArchLoader, RefusesWhatTheModelCannotDo) {
  int line = 0;
  std::string msg = error_after_edit("shared_memory:\n", "shared_memory:\n  banks: 128\n", nullptr, "kepler");
  EXPECT_NE(msg.find("shared_memory.banks: 128 is out of range [1, 64]"), std::string::npos) << msg;
  msg = error_after_edit("limits:\n", "warp_size: 64\nlimits:\n", &line, "kepler");
  EXPECT_EQ(msg, ":" + std::to_string(line) + ": warp_size: 64 is out of range [32, 32]");
  msg = error_after_edit("shared_memory:\n", "shared_memory:\n  banks: 24\n", nullptr, "kepler");
  EXPECT_NE(msg.find("shared_memory.banks: must be a power of two"), std::string::npos) << msg;
  msg = error_after_edit("    associativity: 16", "    sector_bytes: 16\n    associativity: 16", &line, "kepler");
  EXPECT_EQ(msg, ":" + std::to_string(line) + ": memory.l2.sector_bytes: 16 is out of range [32, 4096]");
  msg = error_after_edit("    associativity: 4", "    sector_bytes: 64\n    line_bytes: 32\n    associativity: 4", nullptr,
                         "kepler");
  EXPECT_NE(msg.find("memory.l1.sector_bytes: must be a power of two dividing line_bytes"), std::string::npos) << msg;
  // Keys the model never used are gone: stating them is an error, not a silent no-op.
  msg = error_after_edit("  load_store: 32               # [gk110]", "  load_store: 32\n  tensor_cores: 4", &line,
                         "kepler");
  EXPECT_EQ(msg, ":" + std::to_string(line + 1) + ": execution_units.tensor_cores: unknown key");
}

TEST(ArchLoader, DuplicateAndNonScalarKeys) {
  int line = 0;
  std::string msg = error_after_edit("  issue_width: 2", "  issue_width: 2\n  issue_width: 1", &line, "kepler");
  EXPECT_EQ(msg, ":" + std::to_string(line + 1) + ": scheduling.issue_width: duplicate key (first at line " +
                     std::to_string(line) + ")");
  msg = error_after_edit("  issue_width: 2", "  issue_width: 2\n  [a, b]: 1", &line, "kepler");
  EXPECT_NE(msg.find("scheduling: a key must be a plain name"), std::string::npos) << msg;
}

TEST(ArchLoader, BaseFilesDefaultsAndOrigins) {
  // hopper.yaml names ampere.yaml, which names volta.yaml: each value comes from the most
  // derived file that states it, else from the declared default.
  params::Origins origins;
  const ArchConfig h = load_arch_config(test::config_path("hopper"), {"memory.l2.latency=300"}, &origins);
  EXPECT_EQ(h.gpu.sm_count, 132);
  EXPECT_EQ(origins.at("gpu.sm_count").text(),
            test::config_path("hopper") + ":" + std::to_string(line_of(test::read_file(test::config_path("hopper")), "sm_count")));
  EXPECT_EQ(h.memory.l1->sector_bytes, 32);  // stated by volta.yaml only
  EXPECT_NE(origins.at("memory.l1.sector_bytes").text().find("volta.yaml:"), std::string::npos);
  EXPECT_EQ(h.shared_memory.access.banks, 32);  // stated by none: the default
  EXPECT_EQ(origins.at("shared_memory.banks").text(), "default");
  EXPECT_EQ(h.memory.l2->latency, 300);
  EXPECT_EQ(origins.at("memory.l2.latency").text(), "--set 'memory.l2.latency=300'");
  // A derived file may remove a part its base has, and a base's `none` part stays absent.
  const ArchConfig no_l1 = load_arch_config(test::config_path("hopper"), {"memory.l1=none"});
  EXPECT_FALSE(no_l1.memory.l1.has_value());
  EXPECT_FALSE(load_arch_config(test::config_path("gt200")).memory.l2.has_value());
}

// A file derived from hopper.yaml (four files deep: it, hopper, ampere, volta) keeps its own
// values and names itself as their origin; the values it does not state come from its bases.
TEST(ArchLoader, ADerivedFileOfADeepChainKeepsItsValues) {
  TempFile mine("mine.yaml", "base: " + test::config_path("hopper") + "\nmemory:\n  l2:\n    latency: 400\n");
  params::Origins origins;
  const ArchConfig c = load_arch_config(mine.path(), {}, &origins);
  EXPECT_EQ(c.memory.l2->latency, 400);
  EXPECT_EQ(origins.at("memory.l2.latency").text(), mine.path() + ":4");
  EXPECT_EQ(c.gpu.sm_count, 132);  // hopper.yaml's
  EXPECT_NE(origins.at("gpu.sm_count").text().find("hopper.yaml:"), std::string::npos);
  EXPECT_EQ(c.memory.l1->sector_bytes, 32);  // volta.yaml's
}

TEST(ArchLoader, BadBases) {
  TempFile a("a.yaml", "base: b.yaml\n");
  std::filesystem::path dir = std::filesystem::path(a.path()).parent_path();
  std::ofstream(dir / "b.yaml") << "base: a.yaml\n";
  try {
    load_arch_config(a.path());
    ADD_FAILURE();
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("b.yaml:1: base: a cycle of bases"), std::string::npos) << e.what();
  }
  TempFile c("c.yaml", "gpu: {}\nbase: nowhere.yaml\n");
  try {
    load_arch_config(c.path());
    ADD_FAILURE();
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("c.yaml:2: base: no file"), std::string::npos) << e.what();
  }
}

TEST(ArchLoader, OverridesNameTheFlag) {
  const std::string path = test::config_path("kepler");
  const auto message = [&](const std::string& set) {
    try {
      load_arch_config(path, {set});
    } catch (const util::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("scheduling.polcy=lrr"),
            "--set 'scheduling.polcy=lrr': no architecture parameter 'scheduling.polcy' (gpusim params --arch FILE "
            "lists them)");
  EXPECT_EQ(message("memory.dram.latency=abc"),
            "--set 'memory.dram.latency=abc': memory.dram.latency: expected an integer, got 'abc'");
  EXPECT_EQ(message("shared_memory.banks=65"), "--set 'shared_memory.banks=65': shared_memory.banks: 65 is out of range [1, 64]");
  EXPECT_EQ(message("latencies=3"), "--set 'latencies=3': latencies: expected a mapping");
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
