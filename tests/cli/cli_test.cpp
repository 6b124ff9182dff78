// gpusim's command line end to end, through the same entry point main() uses.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
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

// The version names the commit where the source is a git checkout, so a results
// database's rows say which simulator made them.
TEST(Cli, VersionNamesTheCommit) {
  const CliRun r = gpusim({"--version"});
  EXPECT_EQ(r.code, 0);
  // "gpusim 0.1.0", then optionally "+g" and a hex commit, then optionally "-dirty".
  std::string rest = r.out;
  ASSERT_EQ(rest.rfind("gpusim 0.1.0", 0), 0u) << r.out;
  rest = rest.substr(12);
  if (rest.rfind("+g", 0) == 0) {
    const size_t hex = rest.find_first_not_of("0123456789abcdef", 2);
    EXPECT_GE(hex, 9u) << r.out;  // at least 7 digits
    rest = rest.substr(hex);
    if (rest.rfind("-dirty", 0) == 0) rest = rest.substr(6);
  }
  EXPECT_EQ(rest, "\n") << r.out;
  if (std::filesystem::exists(std::string(GPUSIM_SOURCE_DIR) + "/.git")) {
    EXPECT_NE(r.out.find("+g"), std::string::npos) << r.out;
  }
}

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

TEST(Cli, RunReportsWhereTheCyclesWent) {
  const std::string stencil = test::repo_path("workloads/stencil.yaml");
  const CliRun text = gpusim({"--arch", cfg("kepler"), "--workload", stencil, "--set", "nx=256", "--set", "ny=256", "--per-sm"});
  ASSERT_EQ(text.code, 0) << text.err;
  for (const char* needle : {"Launch 1: stencil5<<<8x32x1, 32x8x1, 0>>>", "Cycles", "IPC", "Issue-slot utilisation",
                             "achieved", "theoretical 100.0%", "SIMT efficiency", "Blocks                  256 in 2.29 waves of 112",
                             "Stalls:", "long_scoreboard", "Per SM:", "Check out: PASSED"})
    EXPECT_NE(text.out.find(needle), std::string::npos) << needle << "\n" << text.out;

  const CliRun json = gpusim({"run", "--arch", cfg("hopper"), "--workload", stencil, "--set", "nx=128", "--set", "ny=128",
                              "--set", "scheduling.policy=lrr", "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  for (const char* key : {"\"kernels\": [", "\"name\": \"stencil5\"", "\"cycles\": ", "\"warp_instructions\": ", "\"ipc\": ",
                          "\"achieved_occupancy\": ", "\"theoretical_occupancy\": 1", "\"simt_efficiency\": ", "\"stalls\": {",
                          "\"memory\": {", "\"load_sectors_per_request\": 4", "\"l2_hit_rate\": ", "\"dram_bandwidth_gbs\": ",
                          "\"effective_bandwidth_gbs\": ", "\"passed\": true"})
    EXPECT_NE(json.out.find(key), std::string::npos) << key << "\n" << json.out;

  const CliRun csv = gpusim({"--arch", cfg("volta"), "--workload", stencil, "--set", "nx=64", "--set", "ny=64", "--format", "csv"});
  ASSERT_EQ(csv.code, 0) << csv.err;
  EXPECT_EQ(count_lines(csv.out), 2);
  EXPECT_EQ(csv.out.rfind("kernel,grid,block,cycles,", 0), 0u);

  test::TempFile trace("t.json", "");
  const CliRun traced = gpusim({"--arch", cfg("kepler"), "--workload", stencil, "--set", "nx=64", "--set", "ny=64",
                                "--trace", trace.path(), "--trace-warps"});
  ASSERT_EQ(traced.code, 0) << traced.err;
  const std::string t = test::read_file(trace.path());
  EXPECT_NE(t.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(t.find("\"name\": \"SM 0\""), std::string::npos);
  EXPECT_NE(t.find("stencil5 block 0"), std::string::npos);
  EXPECT_NE(t.find("block 0 warp 7"), std::string::npos);

  expect_one_line_error({"--arch", cfg("kepler"), "--workload", stencil, "--set", "nz=1"}, "no parameter 'nz'");
  expect_one_line_error({"--arch", cfg("kepler"), "--workload", stencil, "--set", "scheduling.polcy=lrr"},
                        "no architecture parameter 'scheduling.polcy'");
  expect_one_line_error({"--arch", cfg("kepler"), "--workload", stencil, "--set", "scheduling.policy=fastest"},
                        "'fastest' is not one of: gto, lrr, two_level");
}

// `--source`: the stencil's hottest line is its five-point update (line 13 of stencil.cu),
// where the warps wait for its loads; JSON's lines and instructions add up to the launch.
TEST(Cli, SourceViewRanksTheStencilsLinesAndAddsUp) {
  const std::string stencil = test::repo_path("workloads/stencil.yaml");
  const CliRun text = gpusim({"--arch", cfg("volta"), "--workload", stencil, "--set", "nx=256", "--set", "ny=256", "--source"});
  ASSERT_EQ(text.code, 0) << text.err;
  const size_t hottest = text.out.find("Hottest lines");
  ASSERT_NE(hottest, std::string::npos) << text.out;
  const std::string first_row = text.out.substr(text.out.find('\n', text.out.find('\n', hottest) + 1) + 1, 200);
  EXPECT_EQ(first_row.find("    stencil.cu:13 "), 0u) << first_row;
  EXPECT_NE(first_row.find("long_scoreboard"), std::string::npos) << first_row;
  EXPECT_NE(text.out.find("| out[i] = 0.2f * (in[i] + in[i - 1]"), std::string::npos);
  EXPECT_NE(text.out.find("Annotated "), std::string::npos);

  const CliRun json = gpusim({"--arch", cfg("volta"), "--workload", stencil, "--set", "nx=256", "--set", "ny=256", "--source",
                              "--format", "json"});
  ASSERT_EQ(json.code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  const nlohmann::json& launch = j["kernels"][0];
  const nlohmann::json& view = j["source"][0];
  EXPECT_TRUE(view["line_info"].get<bool>());
  uint64_t line_executions = 0, instruction_executions = 0, threads = 0;
  for (const auto& l : view["lines"]) line_executions += l["warp_executions"].get<uint64_t>();
  for (const auto& i : view["instructions"]) {
    instruction_executions += i["warp_executions"].get<uint64_t>();
    threads += i["thread_executions"].get<uint64_t>();
  }
  EXPECT_EQ(line_executions, launch["warp_instructions"].get<uint64_t>());
  EXPECT_EQ(instruction_executions, launch["warp_instructions"].get<uint64_t>());
  EXPECT_EQ(threads, launch["thread_instructions"].get<uint64_t>());
  EXPECT_EQ(view["lines"][0]["line"].get<int>(), 13);
  // Without --source nothing is counted per instruction.
  const CliRun plain = gpusim({"--arch", cfg("volta"), "--workload", stencil, "--set", "nx=64", "--set", "ny=64", "--format",
                               "json"});
  EXPECT_EQ(nlohmann::json::parse(plain.out).count("source"), 0u);
  expect_one_line_error({"--arch", cfg("volta"), "--workload", stencil, "--source", "--source-top", "x"},
                        "--source-top 'x': expected a whole number");
}

// `gpusim kernels --ptx F --smoke-run`: each kernel, whether it can run or why not, and how a
// run on made-up inputs ends (it ran, a fault, or the instruction budget).
TEST(Cli, KernelsListsEachKernelAndItsSmokeRun) {
  const std::string head = ".version 9.0\n.target sm_90\n.address_size 64\n";
  test::TempFile ptx("k.ptx",
                     head +
                         ".visible .entry fine(.param .u64 out, .param .u32 n)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
                         "ld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
                         "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r1;\nret;\n}\n"
                         ".visible .entry traps()\n{\ntrap;\n}\n"
                         ".visible .entry spins()\n{\nL:\nbra L;\n}\n"
                         ".visible .entry textured(.param .u64 t)\n{\n.reg .f32 %f<4>;\n.reg .b64 %rd<2>;\n"
                         "ld.param.u64 %rd1, [t];\ntex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [%rd1, {0}];\nret;\n}\n");
  const CliRun r = gpusim({"kernels", "--ptx", ptx.path(), "--smoke-run"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("fine: runs (7 instructions); smoke run: ran (28 warp instructions, 0 out-of-bounds accesses)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("traps: runs (1 instructions); smoke run: fault (kernel traps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("trap: the kernel aborted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("spins: runs (1 instructions); smoke run: budget"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("textured: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unknown instruction 'tex'"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace gpusim::cli

namespace gpusim::cli {
namespace {

// --sample end to end: the grid is partly timed, the check still passes (every block ran),
// the instruction count is the exact run's and the cycles are close to it.
TEST(Cli, SampledRunReportsItsSampleAndPassesTheCheck) {
  const std::vector<std::string> args = {"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/vecadd.yaml"),
                                         "--set", "n=2867200", "--format", "json"};
  const CliRun exact = gpusim(args);
  std::vector<std::string> with_sample = args;
  with_sample.insert(with_sample.end(), {"--sample", "on"});
  const CliRun sampled = gpusim(with_sample);
  ASSERT_EQ(exact.code, 0) << exact.err;
  ASSERT_EQ(sampled.code, 0) << sampled.err;
  const auto e = nlohmann::json::parse(exact.out), s = nlohmann::json::parse(sampled.out);
  const auto& ek = e["kernels"][0];
  const auto& sk = s["kernels"][0];
  ASSERT_FALSE(ek.contains("sample"));
  ASSERT_TRUE(sk.contains("sample")) << sampled.out;
  EXPECT_EQ(sk["sample"]["blocks"], 11200);
  EXPECT_LT(sk["sample"]["simulated_blocks"].get<int>(), 11200 / 2);
  EXPECT_EQ(sk["warp_instructions"], ek["warp_instructions"]);
  EXPECT_TRUE(s["check"]["passed"].get<bool>()) << sampled.out;
  const double error = std::abs(sk["cycles"].get<double>() - ek["cycles"].get<double>()) / ek["cycles"].get<double>();
  EXPECT_LE(error, sk["sample"]["error_estimate"].get<double>());
}

// --threads: the SMs' cycles side by side, the report the same byte for byte (but for the
// simulation's own speed): a multi-wave stencil on Hopper, a reduction on Kepler, the
// histogram (atomics: its SMs run in order), a sampled grid, more threads than cores, and auto.
TEST(Cli, ThreadsGiveTheSameReportByteForByte) {
  const auto report = [](std::vector<std::string> args, const char* threads) {
    args.insert(args.end(), {"--format", "json", "--threads", threads});
    const CliRun r = gpusim(args);
    EXPECT_EQ(r.code, 0) << r.err;
    std::istringstream in(r.out);
    std::string kept;
    for (std::string line; std::getline(in, line);)
      if (line.find("per_second") == std::string::npos) kept += line + "\n";
    return kept;
  };
  const std::vector<std::vector<std::string>> runs = {
      {"--arch", cfg("hopper"), "--workload", test::repo_path("workloads/stencil.yaml")},
      {"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/reduce_divergent.yaml")},
      {"--arch", cfg("hopper"), "--workload", test::repo_path("workloads/histogram.yaml")},
      {"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/vecadd.yaml"), "--set", "n=2867200", "--sample",
       "on"},
      // Blocks side by side where they run functionally.
      {"--arch", cfg("hopper"), "--workload", test::repo_path("workloads/matmul.yaml"), "--functional"},
      {"--arch", cfg("hopper"), "--workload", test::repo_path("workloads/transpose_tiled.yaml"), "--functional"}};
  for (const auto& run : runs) {
    const std::string one = report(run, "1");
    EXPECT_NE(one.find("\"warp_instructions\""), std::string::npos);
    EXPECT_EQ(report(run, "2"), one) << run[3];
    EXPECT_EQ(report(run, "5"), one) << run[3];
    EXPECT_EQ(report(run, "auto"), one) << run[3];  // this machine's hardware threads
  }
}

// A grid that streams more than the L2 holds speeds up while the L2 fills and slows once
// evictions write back (wave 6 of 10 here): the sample must wait for that, and with half
// the grid gone by then, the launch is timed exactly.
TEST(Cli, SampleWaitsForTheL2ToTurnOver) {
  const CliRun r = gpusim({"--arch", cfg("kepler"), "--workload", test::repo_path("workloads/vecadd.yaml"), "--set",
                           "n=286720", "--format", "json", "--sample", "on"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto k = nlohmann::json::parse(r.out)["kernels"][0];
  EXPECT_FALSE(k.contains("sample")) << r.out;
  // The report says why every block was timed: the L2 turned over at wave 5 of 10, and
  // too few waves were left before half the grid to compare two after it.
  ASSERT_TRUE(k.contains("sample_declined")) << r.out;
  EXPECT_EQ(k["sample_declined"], "the L2 was steady from wave 5, and no two successive waves after it ran at the "
                                  "same rate within 2% in the first half of the grid");
}

// On a 2 MB L2 of two partitions, vecadd's 1.13 MB (n = 94208 x 12 B) is little over half
// the L2, but the grid's lines reach the sets unevenly and a few sets overflow: the exact
// run evicts and writes back. The sample must see, set by set, that the L2 will
// not stay as it is, and time the launch exactly.
TEST(Cli, SampleWaitsWhenAnL2SetWillEvict) {
  const auto run = [](const char* sample) {
    const CliRun r = gpusim({"--arch", cfg("hopper"), "--workload", test::repo_path("workloads/vecadd.yaml"), "--set",
                             "n=94208", "--set", "gpu.sm_count=4", "--set", "block_scheduler.sm_order=ascending",
                             "--set", "memory.l2.sm_partitions=halves", "--set", "memory.l2.sm_path_cycles=none",
                             "--set", "memory.l2.size_bytes=2097152", "--format", "json", "--sample", sample});
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out)["kernels"][0];
  };
  const auto exact = run("off"), sampled = run("on");
  EXPECT_GT(exact["memory"]["dram_write_bytes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(sampled.contains("sample")) << sampled;
  EXPECT_EQ(sampled["cycles"], exact["cycles"]);
  EXPECT_EQ(sampled["sample_declined"], "the L2 was still filling at half the grid, and some of its sets would "
                                        "overflow: later waves would evict lines and could run slower than the first");
}

// A grid whose first wave reads a table every block shares enters the L2 faster than its
// later waves, so projecting its first waves over the grid overstates what the L2 must hold.
// When every buffer fits in the L2 together nothing can be evicted: the sample need not wait
// (here 768 KB in a 2 MB L2 of two partitions, each of which keeps 1 MB whoever reads it).
// One more buffer, unused, and the L2 might turn over: exact. (The L2 latency is pinned at
// one where this grid's 8 short waves settle within the sampler's tolerance, with the store
// path's costs, the SM's block release, ptxas's predication of the bounds checks, its stall
// counts and the branch and compare latencies left out.)
TEST(Cli, SampleStartsAtOnceWhenEveryBufferFitsInTheL2) {
  const std::string workload =
      "name: shared_table\nparams: {n: 256}\nkernel: {source: " + test::repo_path("validate/kernels/matmul.cu") +
      ", entry: matmul_tiled}\nbuffers:\n"
      "  - {name: a, type: f32, count: n * n, init: zero}\n"
      "  - {name: b, type: f32, count: n * n, init: zero}\n"
      "  - {name: c, type: f32, count: n * n, init: zero}\n";
  const std::string launch = "steps:\n  - launch: {grid: [n / 16, n / 16], block: [16, 16], args: [a, b, c, n]}\n";
  test::TempFile fits("fits.yaml", workload + launch);
  test::TempFile spills("spills.yaml", workload + "  - {name: unused, type: f32, count: 131072, init: zero}\n" + launch);
  const auto run = [](const std::string& file, const char* sample) {
    const CliRun r = gpusim({"--arch", cfg("hopper"), "--workload", file, "--set", "gpu.sm_count=4", "--set",
                             "block_scheduler.sm_order=ascending", "--set", "memory.l2.sm_partitions=halves", "--set", "memory.l2.sm_path_cycles=none", "--set",
                             "memory.l2.size_bytes=2097152", "--set", "memory.l2.latency=290", "--set",
                             "memory.l1.store_sector_cycles=0", "--set", "memory.l2.write_request_cycles=0", "--set",
                             "scheduling.ptxas_predicate=false", "--set", "block_scheduler.block_release_cycles=0",
                             "--set", "scheduling.static_stalls=false", "--set", "latencies.compare=0", "--set",
                             "latencies.taken_branch=0", "--sample", sample,
                             "--format", "json"});
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out)["kernels"][0];
  };
  const auto exact = run(fits.path(), "off"), sampled = run(fits.path(), "on");
  ASSERT_TRUE(sampled.contains("sample")) << sampled;
  EXPECT_LT(sampled["sample"]["simulated_blocks"].get<int>(), 256);
  const double error = std::abs(sampled["cycles"].get<double>() - exact["cycles"].get<double>()) / exact["cycles"].get<double>();
  EXPECT_LE(error, sampled["sample"]["error_estimate"].get<double>());
  EXPECT_FALSE(run(spills.path(), "on").contains("sample"));
}

}  // namespace
}  // namespace gpusim::cli
