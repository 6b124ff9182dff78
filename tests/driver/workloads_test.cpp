// Every bundled workload runs functionally and its output equals its reference (bit for
// bit, or within the workload's stated float tolerance).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "arch/arch_loader.hpp"
#include "driver/functional_run.hpp"
#include "driver/timing_run.hpp"
#include "driver/workload_kernels.hpp"
#include "frontend/kernel_loader.hpp"
#include "temp_file.hpp"
#include "test_paths.hpp"
#include "util/yaml_reader.hpp"
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
  const FunctionalRun run = run_functional(w, k.module);
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
    const auto s = run_functional(w, k.module).launches[0].stats;
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

namespace gpusim::driver {
namespace {

// A launch past the architecture's limits is refused with the workload's line, before it runs.
TEST(LaunchLimits, GridAndBlockDimensionsAreEnforced) {
  const arch::ArchConfig kepler = arch::load_arch_config(test::config_path("kepler"));
  const auto error = [&](const std::string& launch) {
    const std::string text = "name: t\nkernel: {source: " + test::repo_path("validate/kernels/vecadd.cu") +
                             ", entry: vecadd}\nbuffers:\n  - {name: a, type: f32, count: 64, init: zero}\n"
                             "  - {name: b, type: f32, count: 64, init: zero}\n  - {name: c, type: f32, count: 64, init: zero}\n"
                             "steps:\n  - launch: {" + launch + ", args: [a, b, c, 64]}\n";
    test::TempFile f("limits.yaml", text);
    const workload::Workload w = workload::load_workload(f.path());
    const auto k = frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, kepler.gpu.compute_capability);
    try {
      run_functional(w, k.module, {}, &kepler);
    } catch (const util::InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.find(f.path() + ":8: launch: "), 0u) << msg;
      return msg.substr(msg.find("launch: "));
    }
    return std::string("no error");
  };
  const std::string gpu = " of Tesla K20X (" + test::config_path("kepler") + ")";
  EXPECT_EQ(error("grid: 1, block: [1, 1, 128]"), "launch: block z = 128 exceeds max_block_dims 64" + gpu);
  EXPECT_EQ(error("grid: [1, 70000], block: 32"), "launch: grid y = 70000 exceeds max_grid_dims 65535" + gpu);
  EXPECT_EQ(error("grid: 1, block: [64, 32]"), "launch: 2048 threads per block exceed max_threads_per_block 1024" + gpu);
  EXPECT_EQ(error("grid: 1, block: 64, shared_bytes: 60000"),
            "launch: 60000 bytes of shared memory per block (0 static + 60000 dynamic) exceed max_per_block 49152" + gpu);
  EXPECT_EQ(error("grid: 1, block: 64, shared_bytes: 60000, shared_opt_in: true"),
            "launch: 60000 bytes of shared memory per block (0 static + 60000 dynamic) exceed max_per_block_optin 49152" + gpu);
  EXPECT_EQ(error("grid: 1, block: 64, shared_bytes: 49152"), "no error");
  EXPECT_EQ(error("grid: 1, block: 64"), "no error");
}

}  // namespace
}  // namespace gpusim::driver

namespace gpusim::driver {
namespace {

// A struct passed by value: fields laid out as C does (the double aligned to 8 after an int
// and a float), so out[t] = a * b + c + t = 3 * 1.5 + 0.25 + t.
TEST(WorkloadArguments, StructByValueAndPointerIntoABuffer) {
  test::TempFile cu("s.cu",
                    "struct P { int a; float b; double c; };\n"
                    "extern \"C\" __global__ void use(P p, double* out) { out[threadIdx.x] = p.a * p.b + p.c + threadIdx.x; }\n");
  test::TempFile w("w.yaml", "name: s\nkernel: {source: " + cu.path() +
                                 ", entry: use}\nbuffers:\n  - {name: out, type: f64, count: 40, init: zero}\n"
                                 "steps:\n  - launch: {grid: 1, block: 32, args: [{struct: [{i32: 3}, {f32: 1.5}, "
                                 "{f64: 0.25}]}, {buffer: out, offset: 8}]}\n  - copy: {to_host: out}\n");
  const workload::Workload wl = workload::load_workload(w.path());
  const arch::ArchConfig a = arch::load_arch_config(test::config_path("hopper"));
  const frontend::LoadedKernel k = frontend::load_kernel(wl.kernel.source, "", "use", a.gpu.compute_capability);
  const FunctionalRun run = run_functional(wl, k.module);
  std::vector<double> out(40);
  std::memcpy(out.data(), run.host.at("out").data(), 40 * 8);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[i], i < 8 ? 0.0 : 4.75 + (i - 8)) << i;
}

// A dump step writes the device contents at that point: here before the kernel doubles them.
TEST(WorkloadSteps, DumpWritesTheBufferWhereTheStepIs) {
  test::TempFile cu("d.cu", "extern \"C\" __global__ void twice(int* a) { a[threadIdx.x] *= 2; }\n");
  const std::string dir = std::filesystem::path(cu.path()).parent_path().string();
  test::TempFile w("w.yaml", "name: d\nkernel: {source: " + cu.path() +
                                 ", entry: twice}\nbuffers:\n  - {name: a, type: i32, count: 32, init: iota}\n"
                                 "steps:\n  - copy: {to_device: a}\n  - dump: {buffer: a, file: " + dir +
                                 "/before.bin}\n  - launch: {grid: 1, block: 32, args: [a]}\n  - dump: {buffer: a, file: " +
                                 dir + "/after.bin}\n");
  const workload::Workload wl = workload::load_workload(w.path());
  const frontend::LoadedKernel k = frontend::load_kernel(wl.kernel.source, "", "twice", {9, 0});
  run_functional(wl, k.module);
  for (const char* name : {"before", "after"}) {
    std::ifstream in(dir + "/" + name + ".bin", std::ios::binary);
    std::vector<int32_t> a(32);
    in.read(reinterpret_cast<char*>(a.data()), 32 * 4);
    ASSERT_TRUE(in) << name;
    for (int i = 0; i < 32; ++i) EXPECT_EQ(a[i], std::string(name) == "before" ? i : 2 * i) << name << " " << i;
  }
}

// check.script: a failing script and a wrong dtype are errors that say what to fix.
TEST(ScriptReference, FailuresNameTheScriptAndTheFix) {
  test::TempFile cu("c.cu", "extern \"C\" __global__ void k(float* a) { a[threadIdx.x] += 1.0f; }\n");
  const auto run_with = [&](const std::string& script_text) -> std::string {
    test::TempFile script("ref.py", script_text);
    test::TempFile w("w.yaml", "name: c\nkernel: {source: " + cu.path() +
                                   ", entry: k}\nbuffers:\n  - {name: a, type: f32, count: 32, init: iota}\n"
                                   "steps:\n  - copy: {to_device: a}\n  - launch: {grid: 1, block: 32, args: [a]}\n"
                                   "  - copy: {to_host: a}\ncheck: {buffer: a, script: " + script.path() + "}\n");
    const workload::Workload wl = workload::load_workload(w.path());
    const frontend::LoadedKernel k = frontend::load_kernel(wl.kernel.source, "", "k", {9, 0});
    try {
      const FunctionalRun run = run_functional(wl, k.module);
      return run.check->passed ? "passed" : "failed: " + run.check->detail;
    } catch (const util::InputError& e) {
      return e.what();
    }
  };
  const std::string header = "import sys\nimport numpy as np\na = np.load(sys.argv[1] + '/a.npy')\n";
  EXPECT_EQ(run_with(header + "np.save(sys.argv[2], a + np.float32(1))\n"), "passed");
  EXPECT_NE(run_with(header + "np.save(sys.argv[2], a + np.float32(2))\n").find("failed: 32 of 32 elements differ"),
            std::string::npos);
  const std::string crash = run_with(header + "1 / 0\n");
  EXPECT_NE(crash.find("failed (exit 1)"), std::string::npos) << crash;
  EXPECT_NE(crash.find("ZeroDivisionError"), std::string::npos) << crash;
  const std::string wide = run_with(header + "np.save(sys.argv[2], a.astype(np.float64) + 1)\n");
  EXPECT_NE(wide.find("holds dtype '<f8', the buffer is f32 ('<f4'): cast the result with .astype(...)"),
            std::string::npos)
      << wide;
}

TEST(WorkloadArguments, StructLargerThanItsParameterIsAnError) {
  test::TempFile cu("s.cu", "struct P { int a; };\nextern \"C\" __global__ void use(P p, int* out) { out[0] = p.a; }\n");
  test::TempFile w("w.yaml", "name: s\nkernel: {source: " + cu.path() +
                                 ", entry: use}\nbuffers:\n  - {name: out, type: i32, count: 1, init: zero}\n"
                                 "steps:\n  - launch: {grid: 1, block: 1, args: [{struct: [{i32: 1}, {i32: 2}]}, out]}\n");
  const workload::Workload wl = workload::load_workload(w.path());
  const frontend::LoadedKernel k = frontend::load_kernel(wl.kernel.source, "", "use", {9, 0});
  try {
    run_functional(wl, k.module);
    FAIL() << "no error";
  } catch (const util::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the struct's fields take 8 bytes, the parameter has 4"), std::string::npos)
        << e.what();
  }
}

// check.reference_kernel: the reference runs on the inputs the first launch sees (a, as
// copied, not what the kernel left in it), with the main launch's arguments unless it
// gives its own; a wrong result names the first differing element, and a bad reference is
// an error naming the check's line.
TEST(ReferenceKernel, RunsOnTheFirstLaunchsInputs) {
  test::TempFile cu("r.cu",
                    "extern \"C\" __global__ void fast(float* a, float* b) { b[threadIdx.x] = a[threadIdx.x] * 2.0f; "
                    "a[threadIdx.x] = 0.0f; }\n"
                    "extern \"C\" __global__ void simple(float* a, float* b) { b[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x]; }\n"
                    "extern \"C\" __global__ void wrong(float* a, float* b) { b[threadIdx.x] = a[threadIdx.x] * 3.0f; }\n");
  const auto run_with = [&](const std::string& reference) -> std::string {
    test::TempFile w("w.yaml", "name: r\nkernel: {source: " + cu.path() +
                                   ", entry: fast}\nbuffers:\n  - {name: a, type: f32, count: 32, init: iota}\n"
                                   "  - {name: b, type: f32, count: 32, init: zero}\n"
                                   "steps:\n  - copy: {to_device: a}\n  - launch: {grid: 1, block: 32, args: [a, b]}\n"
                                   "  - copy: {to_host: b}\ncheck: {buffer: b, reference_kernel: " + reference + "}\n");
    try {
      const workload::Workload wl = workload::load_workload(w.path());
      const frontend::LoadedKernel k = frontend::load_kernel(wl.kernel.source, "", "fast", {9, 0});
      const FunctionalRun run = run_functional(wl, k.module);
      return run.check->passed ? "passed" : "failed: " + run.check->detail;
    } catch (const std::exception& e) {
      return e.what();
    }
  };
  EXPECT_EQ(run_with("{entry: simple}"), "passed");
  EXPECT_EQ(run_with("{entry: simple, grid: 1, block: 32, args: [a, b]}"), "passed");
  const std::string wrong = run_with("{entry: wrong}");
  EXPECT_NE(wrong.find("failed: 31 of 32 elements differ"), std::string::npos) << wrong;  // 0 * 2 == 0 * 3
  EXPECT_NE(wrong.find("first: element 1: got 2.000000, expected 3.000000; element 2: got 4.000000, expected 6.000000; element 3"), std::string::npos) << wrong;
  EXPECT_NE(run_with("{grid: 1}").find("check.reference_kernel: name the reference kernel's 'entry'"), std::string::npos);
  const std::string missing = run_with("{entry: nosuch}");
  EXPECT_NE(missing.find("w.yaml:10: launch: no kernel 'nosuch'"), std::string::npos) << missing;
  const std::string fault = run_with("{entry: simple, block: 64}");
  EXPECT_NE(fault.find("check.reference_kernel: kernel simple"), std::string::npos) << fault;
  EXPECT_NE(fault.find("out-of-bounds global load"), std::string::npos) << fault;
}

// A launch may name another .cu: its own module, as CUDA builds each file without -rdc, so
// two files' __device__ counters of the same name stay apart (32 and 64 additions), and a
// __constant__ of the second file is filled from the host (x 3).
TEST(WorkloadSteps, LaunchesFromTwoSourceFiles) {
  test::TempFile a("a.cu", "__device__ int counter;\nextern \"C\" __global__ void bump(int* out) {\n"
                           "  atomicAdd(&counter, 1);\n  __syncthreads();\n  if (threadIdx.x == 0) out[0] = counter;\n}\n");
  test::TempFile b("b.cu", "__device__ int counter;\n__constant__ int scale;\nextern \"C\" __global__ void twice(int* out) {\n"
                           "  atomicAdd(&counter, 2);\n  __syncthreads();\n  if (threadIdx.x == 0) out[1] = counter * scale;\n}\n");
  test::TempFile w("w.yaml", "name: two\nkernel: {source: " + a.path() +
                                 ", entry: bump}\nbuffers:\n  - {name: out, type: i32, count: 2, init: zero}\n"
                                 "  - {name: s, type: i32, count: 1, init: {constant: 3}}\n"
                                 "steps:\n  - copy: {to_symbol: scale, from: s}\n  - launch: {grid: 1, block: 32, args: [out]}\n"
                                 "  - launch: {source: " + b.path() + ", entry: twice, grid: 1, block: 32, args: [out]}\n"
                                 "  - copy: {to_host: out}\n");
  const workload::Workload wl = workload::load_workload(w.path());
  const WorkloadKernels k = load_workload_kernels(wl, {9, 0});
  ASSERT_EQ(k.others.size(), 1u);
  const FunctionalRun run = run_functional(wl, k.modules());
  std::vector<int32_t> out(2);
  std::memcpy(out.data(), run.host.at("out").data(), 8);
  EXPECT_EQ(out[0], 32);
  EXPECT_EQ(out[1], 64 * 3);
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"));
  const TimingRun timed = run_timed(hopper, wl, k.modules(), [](const std::string&) { return 32; }, {});
  ASSERT_EQ(timed.launches.size(), 2u);
  EXPECT_EQ(timed.launches[1].name, "twice");
}

}  // namespace
}  // namespace gpusim::driver
