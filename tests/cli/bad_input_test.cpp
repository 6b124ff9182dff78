// Bad input, as a hostile user would give it, against the real executable: each case must
// end with one clear line on stderr naming the file, line and field (or the flag), exit 1 or
// 2, and no signal; ctest gives each case 30 seconds. Reproducers of issue 11's findings.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "temp_file.hpp"
#include "test_paths.hpp"

extern char** environ;

namespace gpusim::test {
namespace {

struct Outcome {
  int exit_code = -1;
  int signal = 0;
  std::string out, err;
};

// Runs gpusim with `args`; stdout goes to `stdout_path` when given (e.g. /dev/full).
Outcome gpusim(const std::vector<std::string>& args, const std::string& stdout_path = "") {
  const auto dir = std::filesystem::temp_directory_path() / ("gpusim-bad-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string out = stdout_path.empty() ? (dir / "out").string() : stdout_path, err = (dir / "err").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> argv_s = {GPUSIM_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  Outcome o;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) return o;
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
  if (stdout_path.empty()) o.out = read_file(out);
  o.err = read_file(err);
  std::filesystem::remove_all(dir);
  return o;
}

// The contract: no signal, exit 1 or 2, exactly one line on stderr, containing `needle`.
void expect_clean_error(const Outcome& o, const std::string& needle) {
  EXPECT_EQ(o.signal, 0) << o.err;
  EXPECT_TRUE(o.exit_code == 1 || o.exit_code == 2) << "exit " << o.exit_code << ": " << o.err;
  EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  EXPECT_LT(o.err.size(), 600u) << o.err;
  EXPECT_NE(o.err.find(needle), std::string::npos) << "wanted: " << needle << "\ngot: " << o.err;
}

std::string cfg(const char* name) { return config_path(name); }

// A workload around the vecadd kernel with `launch` as its one launch and `extra` buffers.
std::string vecadd_workload(const std::string& launch, const std::string& buffers = "") {
  return "name: bad\nkernel: {source: " + repo_path("validate/kernels/vecadd.cu") + ", entry: vecadd}\n" +
         "buffers:\n  - {name: a, type: f32, count: 64, init: zero}\n  - {name: b, type: f32, count: 64, init: zero}\n" +
         "  - {name: c, type: f32, count: 64, init: zero}\n" + buffers + "steps:\n  - launch: {" + launch + "}\n";
}

const std::string kArgs = "args: [a, b, c, 64]";

TEST(BadInput, PtxDirectiveRunningIntoEndOfFile) {
  TempFile ptx("p.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n.pragma \"nounroll\"");
  TempFile w("w.yaml", "name: p\nkernel: {ptx: " + ptx.path() + ", entry: k, regs_per_thread: 8}\nbuffers: []\n"
                       "steps:\n  - launch: {grid: 1, block: 32, args: []}\n");
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", w.path()}), "p.ptx:6: unexpected end of file");
}

TEST(BadInput, GridAndBlockPastTheLimits) {
  TempFile huge("w.yaml", vecadd_workload("grid: 2147483648, block: 32, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", huge.path()}),
                     ":8: steps[0].launch.grid: 2147483648 is out of range [1, 2147483647]");
  TempFile far("w.yaml", vecadd_workload("grid: 1099511627776, block: 32, " + kArgs));  // 2^40: once truncated to 0
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", far.path()}), "is out of range [1, 2147483647]");
  TempFile y("w.yaml", vecadd_workload("grid: [1, 70000], block: 32, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", y.path()}),
                     ":8: launch: grid y = 70000 exceeds max_grid_dims 65535 of Tesla K20X");
  TempFile z("w.yaml", vecadd_workload("grid: 1, block: [1, 1, 128], " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", z.path()}), "block z = 128 exceeds max_block_dims 64");
  TempFile threads("w.yaml", vecadd_workload("grid: 1, block: 2048, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", threads.path()}),
                     "block x = 2048 exceeds max_block_dims 1024");
}

TEST(BadInput, SharedMemoryPastTheLimits) {
  TempFile huge("w.yaml", vecadd_workload("grid: 1, block: 32, shared_bytes: 1099511627776, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", huge.path()}),
                     "steps[0].launch.shared_bytes: 1099511627776 is out of range [0, 4294967295]");
  TempFile over("w.yaml", vecadd_workload("grid: 1, block: 32, shared_bytes: 240000, shared_opt_in: true, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", over.path()}),
                     ":8: launch: 240000 bytes of shared memory per block (0 static + 240000 dynamic) exceed "
                     "max_per_block_optin 232448 of H100 SXM5 80GB");
  TempFile no_opt_in("w.yaml", vecadd_workload("grid: 1, block: 32, shared_bytes: 60000, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", no_opt_in.path()}),
                     "exceed max_per_block 49152 of H100 SXM5 80GB (" + cfg("hopper") +
                         "); up to max_per_block_optin 232448 needs 'shared_opt_in: true' in the launch");
  TempFile kepler("w.yaml", vecadd_workload("grid: 1, block: 32, shared_bytes: 60000, shared_opt_in: true, " + kArgs));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", kepler.path()}),
                     "60000 bytes of shared memory per block (0 static + 60000 dynamic) exceed max_per_block_optin 49152 "
                     "of Tesla K20X");
}

TEST(BadInput, RegistersPastTheLimits) {
  std::string text = vecadd_workload("grid: 1, block: 32, " + kArgs);
  text.replace(text.find("entry: vecadd"), 13, "entry: vecadd, regs_per_thread: 200");
  TempFile many("w.yaml", text);
  expect_clean_error(gpusim({"--arch", cfg("g80"), "--workload", many.path()}),
                     ":8: launch of vecadd cannot run on GeForce 8800 GTX: 200 registers per thread exceeds the "
                     "maximum of 124");
  // 100 registers x 256 threads: more than a G80 block may hold.
  expect_clean_error(gpusim({"--arch", cfg("g80"), "--workload", repo_path("workloads/stencil.yaml"), "--regs", "100"}),
                     "stencil.yaml:23: launch of stencil5 cannot run on GeForce 8800 GTX: registers: a block needs "
                     "25600 registers, more than the 8192 allowed per block");
}

TEST(BadInput, SharedMemoryOptInWithinTheLimitRuns) {
  TempFile ok("w.yaml", vecadd_workload("grid: 1, block: 32, shared_bytes: 200000, shared_opt_in: true, " + kArgs));
  const Outcome o = gpusim({"--functional", "--arch", cfg("hopper"), "--workload", ok.path()});
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(o.err, "");
}

TEST(BadInput, WarpSizeTheModelCannotSimulate) {
  std::string text = read_file(cfg("kepler"));
  text.replace(text.find("limits:"), 7, "warp_size: 64\nlimits:");
  TempFile f("k.yaml", text);
  expect_clean_error(gpusim({"--arch", f.path(), "--workload", repo_path("workloads/vecadd.yaml")}),
                     "warp_size: 64 is out of range [32, 32]");
}

TEST(BadInput, DeepNesting) {
  const std::string parens = std::string(20000, '(') + "1" + std::string(20000, ')');
  TempFile count("w.yaml", vecadd_workload("grid: 1, block: 32, " + kArgs,
                                           "  - {name: d, type: f32, init: zero, count: " + parens + "}\n"));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", count.path()}),
                     "buffers[3].count: nested more than 200 deep");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", repo_path("workloads/vecadd.yaml"), "--set",
                             "n=" + parens}),
                     "--set 'n=(((");
  TempFile yaml("a.yaml", "gpu: " + std::string(20000, '[') + std::string(20000, ']') + "\n");
  expect_clean_error(gpusim({"params", "--arch", yaml.path()}), "malformed YAML: nested too deeply");
}

TEST(BadInput, BufferSizes) {
  TempFile overflow("w.yaml", vecadd_workload("grid: 1, block: 32, " + kArgs,
                                              "  - {name: d, type: f64, init: zero, count: 2305843009213693952}\n"));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", overflow.path()}),
                     "buffers[3].count: 2305843009213693952 is out of range [1, 1152921504606846975]");
  TempFile big("w.yaml", vecadd_workload("grid: 1, block: 32, " + kArgs,
                                         "  - {name: big, type: f32, init: zero, count: 2000000000}\n"));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", big.path()}),
                     "buffer 'big' (8000000000 bytes) brings the workload's buffers to 8000000768 bytes, more than the "
                     "6442450944 bytes of device memory of Tesla K20X");
}

TEST(BadInput, FloatLiteralForAnIntegerParameter) {
  TempFile f("w.yaml", vecadd_workload("grid: 1, block: 32, args: [a, b, c, 64.5]"));
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", f.path()}),
                     ":8: launch: argument 4 (vecadd_param_3): a float literal for a u32 parameter");
}

TEST(BadInput, DuplicateAndNonScalarKeys) {
  TempFile dup("w.yaml", "name: a\nname: b\n");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", dup.path()}),
                     "w.yaml:2: name: duplicate key (first at line 1)");
  TempFile key("w.yaml", "name: a\n[x, y]: 3\n");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", key.path()}),
                     "w.yaml:2: (top level): a key must be a plain name, not a list or mapping");
  std::string text = read_file(cfg("kepler"));
  text.replace(text.find("  sm_count: 14"), 14, "  sm_count: 14\n  sm_count: 15");
  TempFile arch("k.yaml", text);
  expect_clean_error(gpusim({"params", "--arch", arch.path()}), "gpu.sm_count: duplicate key (first at line");
}

TEST(BadInput, FlagsOutOfRange) {
  const std::string vecadd = repo_path("workloads/vecadd.yaml");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--max-instructions", "-1"}),
                     "--max-instructions '-1': expected a whole number of 0 or more");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--regs", "-1"}), "--regs '-1'");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--regs", "0"}),
                     "--regs '0': expected registers per thread in [1, 255] on Tesla K20X");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--timeout", "soon"}),
                     "--timeout 'soon': expected seconds");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--out-of-bounds", "maybe"}),
                     "--out-of-bounds 'maybe': expected error or continue");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--sample", "often"}),
                     "--sample 'often': expected on, auto or off");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--sample", "--source"}),
                     "--source needs every block (leave out --sample)");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--threads", "0"}),
                     "--threads '0': expected 1 to 256, or auto");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--threads", "257"}),
                     "--threads '257': expected 1 to 256, or auto");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--threads", "two"}),
                     "--threads 'two': expected 1 to 256, or auto");
  for (const char* quantum : {"0", "soon", "-3"})
    expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", vecadd, "--quantum", quantum}),
                       std::string("--quantum '") + quantum + "': expected auto or a number of cycles, 1 or more");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--set", "memory.dram.latency=abc"}),
                     "--set 'memory.dram.latency=abc': memory.dram.latency: expected an integer, got 'abc'");
}

// Hopper's file lists the L2 partition, the path length and the dispatch order of each of
// its 132 SMs: a study of gpu.sm_count alone hears of every such list at once, with the
// values that fit any count, and runs once it sets them.
TEST(BadInput, AnotherSmCountNamesEveryPerSmList) {
  const std::vector<std::string> run = {"--arch", cfg("hopper"), "--workload", repo_path("workloads/vecadd.yaml"),
                                        "--functional", "--set", "gpu.sm_count=8"};
  const auto with = [&run](std::vector<std::string> more) {
    more.insert(more.begin(), run.begin(), run.end());
    return gpusim(more);
  };
  expect_clean_error(with({}), "memory.l2.sm_partitions: expected 'halves' or a list of 8 partitions, one per SM "
                               "(gpu.sm_count is 8; to run with it: --set memory.l2.sm_partitions=halves --set "
                               "memory.l2.sm_path_cycles=none --set block_scheduler.sm_order=ascending)");
  expect_clean_error(with({"--set", "memory.l2.sm_partitions=halves"}),
                     "memory.l2.sm_path_cycles: expected 'none' or a list of 8 cycles, one per SM (gpu.sm_count is "
                     "8; to run with it: --set memory.l2.sm_path_cycles=none --set block_scheduler.sm_order=ascending)");
  const Outcome ok = with({"--set", "memory.l2.sm_partitions=halves", "--set", "memory.l2.sm_path_cycles=none", "--set",
                           "block_scheduler.sm_order=ascending"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(BadInput, FailedWritesAreErrors) {
  const std::string vecadd = repo_path("workloads/vecadd.yaml");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--set", "n=4096"}, "/dev/full"),
                     "writing to standard output failed");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--set", "n=4096", "--trace",
                             "/nonexistent-dir/t.json"}),
                     "--trace: cannot write /nonexistent-dir/t.json");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", vecadd, "--set", "n=4096", "--trace", "/dev/full"}),
                     "--trace: writing /dev/full failed");
  expect_clean_error(gpusim({"workload", "--arch", cfg("kepler"), "--workload", vecadd, "--dump-inputs", "/dev/full/x"}),
                     "--dump-inputs");
}

TEST(BadInput, DirectoriesWhereFilesBelong) {
  expect_clean_error(gpusim({"--arch", repo_path("configs"), "--workload", repo_path("workloads/vecadd.yaml")}),
                     "configs: is a directory, not a file");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", repo_path("workloads")}),
                     "workloads: is a directory, not a YAML file");
  TempFile ptx("w.yaml", "name: p\nkernel: {ptx: " + repo_path("validate") + ", entry: k}\nbuffers: []\nsteps: []\n");
  expect_clean_error(gpusim({"--arch", cfg("kepler"), "--workload", ptx.path()}), "validate is a directory, not a file");
}

TEST(BadInput, ComputeCapabilityTheToolkitCannotCompileFor) {
  if (!std::filesystem::exists("/usr/local/cuda/bin/nvcc") && !std::getenv("CUDA_HOME"))
    GTEST_FAIL() << "the CUDA toolkit is a build dependency (scripts/install-deps.sh)";
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", repo_path("workloads/vecadd.yaml"), "--set",
                             "gpu.compute_capability=12.7"}),
                     "gpu.compute_capability 12.7: the CUDA toolkit");
}

// A kernel that never ends: one block of warps adding forever.
struct SpinningKernel {
  TempFile ptx{"spin.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry spin()\n{\n.reg .b32 %r<4>;\n"
                           "mov.u32 %r1, 0;\n$L_top:\nadd.s32 %r1, %r1, 1;\nbra.uni $L_top;\n}\n"};
  TempFile workload{"w.yaml", "name: spin\nkernel: {ptx: " + ptx.path() +
                                  ", entry: spin, regs_per_thread: 8}\nbuffers: []\n"
                                  "steps:\n  - launch: {grid: 264, block: 256, args: []}\n"};
};

// The default budget (5e7 warp instructions) ends it in seconds; the message names the
// kernel, the block and the PC (with its PTX line) where the warps loop. The sanitizers run
// about 8x slower, so there the same path is taken with a budget a fifth of the default.
TEST(BadInput, EndlessKernelEndsWithWhereItSpins) {
  SpinningKernel k;
  std::vector<std::string> args{"--arch", cfg("hopper"), "--workload", k.workload.path()};
#ifdef GPUSIM_SANITIZE
  args.insert(args.end(), {"--max-instructions", "10000000"});
#endif
  const Outcome o = gpusim(args);
  expect_clean_error(o, "kernel spin, pc ");
  // Either instruction of the two-instruction loop, with its PTX line.
  const bool at_add = o.err.find("pc 1 (" + k.ptx.path() + ":9, add), block (") != std::string::npos;
  const bool at_bra = o.err.find("pc 2 (" + k.ptx.path() + ":10, bra), block (") != std::string::npos;
  EXPECT_TRUE(at_add || at_bra) << o.err;
}

TEST(BadInput, EndlessKernelEndsInFunctionalMode) {
  SpinningKernel k;
  expect_clean_error(gpusim({"--functional", "--arch", cfg("hopper"), "--workload", k.workload.path()}),
                     "more than 50000000 warp instructions in this launch: an endless loop?");
}

TEST(BadInput, EndlessKernelEndsAtTheTimeout) {
  SpinningKernel k;
  expect_clean_error(gpusim({"--arch", cfg("hopper"), "--workload", k.workload.path(), "--max-instructions", "0",
                             "--timeout", "1"}),
                     "still running after --timeout 1 s: an endless loop?");
}

}  // namespace
}  // namespace gpusim::test
