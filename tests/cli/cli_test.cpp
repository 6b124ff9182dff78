// gpusim's command line end to end, through the same entry point main() uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "cli/app.hpp"
#include "temp_file.hpp"
#include "test_paths.hpp"

namespace gpusim::cli {
namespace {

struct CliRun {
  int code;
  std::string out, err;
};

CliRun gpusim(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = gpusim_main(args, out, err);
  return {code, out.str(), err.str()};
}

std::string cfg(const char* name) { return test::config_path(name); }

int count_lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(Cli, OccupancyJsonHasTheDocumentedKeys) {
  const CliRun r = gpusim({"occupancy", "--arch", cfg("pascal"), "--threads", "512", "--regs", "64", "--smem", "0",
                        "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* key : {"\"active_blocks_per_sm\": 2", "\"active_warps_per_sm\": 32", "\"max_warps_per_sm\": 64",
                          "\"occupancy\": 0.5", "\"limiter\": \"registers\"",
                          "\"max_active_blocks_per_multiprocessor\": 2", "\"max_potential_block_size\""})
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
}

TEST(Cli, OccupancyTextReadsLikeTheCalculator) {
  const CliRun r = gpusim({"occupancy", "--arch", cfg("pascal"), "--threads", "512", "--regs", "65"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Active blocks per SM:   1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Occupancy:              25.0%  (limited by registers)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<- binds"), std::string::npos);
  EXPECT_NE(r.out.find("cudaOccupancyMaxPotentialBlockSize"), std::string::npos);
}

TEST(Cli, NoneFitIsReportedWithAReason) {
  const CliRun r = gpusim({"occupancy", "--arch", cfg("kepler"), "--threads", "1024", "--regs", "255", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"limiter\": \"none_fit\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"reason\": \"registers: a block needs 262144 registers"), std::string::npos) << r.out;
}

TEST(Cli, RangesPrintTheTableBehindTheGraphs) {
  const CliRun text = gpusim({"occupancy", "--arch", cfg("kepler"), "--threads", "32:1024:32", "--regs", "18"});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(count_lines(text.out), 3 + 32);  // title, blank, header, one row per block size
  const CliRun csv = gpusim({"occupancy", "--arch", cfg("kepler"), "--threads", "256", "--regs", "16:64:16", "--format", "csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(count_lines(csv.out), 1 + 4);
  EXPECT_NE(csv.out.find("regs,256,64,0,4,32,64,0.5,registers"), std::string::npos) << csv.out;
}

TEST(Cli, PlotWritesAPng) {
  test::TempFile placeholder("occ.png", "");
  std::filesystem::remove(placeholder.path());
  const CliRun r = gpusim({"occupancy", "--arch", cfg("hopper"), "--threads", "256", "--regs", "32", "--plot",
                        placeholder.path()});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::exists(placeholder.path()));
  EXPECT_GT(std::filesystem::file_size(placeholder.path()), 1000u);
  EXPECT_EQ(test::read_file(placeholder.path()).substr(1, 3), "PNG");
}

// Bad input: one line on stderr naming what and why, a non-zero exit, nothing on stdout.
void expect_one_line_error(const std::vector<std::string>& args, const std::string& needle) {
  const CliRun r = gpusim(args);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Cli, BadInputGetsAOneLineError) {
  const std::string k = cfg("kepler");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "2048", "--regs", "16"},
                        "2048 threads per block exceeds the limit of 1024 on Tesla K20X");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "256", "--regs", "300"},
                        "300 registers per thread exceeds the maximum of 255");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "256", "--regs", "16", "--smem", "50000"},
                        "50000 bytes of shared memory per block exceeds the limit of 49152");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "-5", "--regs", "16"}, "must not be negative");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "many", "--regs", "16"}, "not a whole number");
  expect_one_line_error({"occupancy", "--arch", "/nonexistent.yaml", "--threads", "32", "--regs", "16"},
                        "/nonexistent.yaml: cannot open file");
  expect_one_line_error({"occupancy", "--arch", k, "--regs", "16"}, "threads");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "32", "--regs", "16", "--bogus", "1"}, "bogus");
  expect_one_line_error({"occupancy", "--arch", k, "--threads", "32", "--regs", "16", "--format", "xml"}, "--format");
  expect_one_line_error({"frobnicate"}, "unknown subcommand");
  test::TempFile bad("bad.yaml", "gpu: {name: x\n");
  expect_one_line_error({"occupancy", "--arch", bad.path(), "--threads", "32", "--regs", "16"}, "malformed YAML");
}

TEST(Cli, RunReportsTheStencilLaunch) {
  const CliRun r = gpusim({"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/stencil.yaml")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("stencil5<<<32x128x1, 32x8x1, 0>>>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8 blocks/SM x 14 SMs = 112 blocks per wave; 37 waves"), std::string::npos) << r.out;
  const CliRun big = gpusim({"run", "--arch", cfg("hopper"), "--workload", test::repo_path("workloads/stencil.yaml"),
                          "--set", "nx=4096", "--set", "ny=4096", "--format", "json"});
  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NE(big.out.find("\"blocks\": 65536"), std::string::npos) << big.out;
  expect_one_line_error({"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/stencil.yaml"), "--set",
                         "nz=1"},
                        "no parameter 'nz'");
}

}  // namespace
}  // namespace gpusim::cli
