// `gpusim [run] --arch A --workload W`: simulates the workload and reports where every
// cycle went; `--functional` only executes and checks it.
#include <boost/program_options.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "arch/arch_loader.hpp"
#include "cli/app.hpp"
#include "driver/functional_run.hpp"
#include "driver/workload_kernels.hpp"
#include "stats/printf_output.hpp"
#include "driver/timing_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "stats/check_report.hpp"
#include "stats/json_output.hpp"
#include "stats/timing_report.hpp"
#include "report/trace_writer.hpp"
#include "study/value_spec.hpp"
#include "util/cpu_count.hpp"
#include "util/yaml_reader.hpp"
#include "workload/workload.hpp"

namespace gpusim::cli {
namespace {

namespace po = boost::program_options;

// A whole number of at least 0 for `option`, also written as 5e7; refuses -1 and 1.5.
uint64_t parse_count(const std::string& option, const std::string& text) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !(v >= 0) || v != std::floor(v) || v > 1e18)
    throw util::InputError(option + " '" + util::clipped(text) + "': expected a whole number of 0 or more (such as 50000000 or 5e7)");
  return static_cast<uint64_t>(v);
}

double parse_seconds(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 1e7)
    throw util::InputError(option + " '" + util::clipped(text) + "': expected seconds, 0 or more (0: no limit)");
  return v;
}

int functional(const arch::ArchConfig& a, const workload::Workload& w, const driver::WorkloadKernels& kernels,
               const exec::RunLimits& limits, int threads, bool json, std::ostream& out) {
  const frontend::LoadedKernel& kernel = kernels.main;
  const driver::FunctionalRun run = driver::run_functional(w, kernels.modules(), limits, &a, threads);
  uint64_t warp_total = 0;
  for (const auto& l : run.launches) warp_total += l.stats.warp_instructions;
  const auto efficiency = [&](uint64_t threads, uint64_t warps) {
    return warps ? static_cast<double>(threads) / (static_cast<double>(warps) * 32.0) : 0.0;
  };
  const double rate = run.seconds > 0 ? static_cast<double>(warp_total) / run.seconds : 0;
  if (json) {
    nlohmann::ordered_json j = {{"workload", w.name}, {"arch", a.gpu.name}, {"mode", "functional"}};
    j["kernels"] = nlohmann::ordered_json::array();
    for (const auto& l : run.launches)
      j["kernels"].push_back({{"name", l.name},
                              {"blocks", l.grid[0] * l.grid[1] * l.grid[2]},
                              {"warp_instructions", l.stats.warp_instructions},
                              {"thread_instructions", l.stats.thread_instructions},
                              {"simt_efficiency", efficiency(l.stats.thread_instructions, l.stats.warp_instructions)}});
    for (size_t i = 0; i < run.launches.size(); ++i) {
      if (!run.launches[i].printf.records.empty() || run.launches[i].printf.dropped)
        j["kernels"][i]["printf"] = stats::printf_json(run.launches[i].printf);
      if (run.launches[i].out_of_bounds.total())
        j["kernels"][i]["out_of_bounds"] = stats::out_of_bounds_json(run.launches[i].out_of_bounds);
    }
    j["warp_instructions_per_second"] = rate;
    if (run.check) j["check"] = stats::check_json(*w.check, *run.check);
    stats::write_json(out, j);
  } else {
    out << "gpusim --functional: workload '" << w.name << "', kernel " << w.kernel.entry << " (" << kernel.ptx_path
        << ", " << kernel.ptx_origin << ")\n";
    for (size_t i = 0; i < run.launches.size(); ++i) {
      const auto& l = run.launches[i];
      out << "  launch " << i + 1 << ": " << l.name << "<<<" << stats::dims_text(l.grid) << ", " << stats::dims_text(l.block)
          << ">>>  " << l.stats.warp_instructions << " warp instructions, " << l.stats.thread_instructions
          << " thread instructions, SIMT efficiency "
          << 100.0 * efficiency(l.stats.thread_instructions, l.stats.warp_instructions) << "%\n";
      stats::write_printf_text(out, l.printf);
      stats::write_out_of_bounds_text(out, l.out_of_bounds);
    }
    out << "  total: " << warp_total << " warp instructions in " << run.seconds << " s (" << rate / 1e6
        << " M warp instructions/s)\n";
    if (run.check)
      out << "  check " << w.check->buffer << ": " << (run.check->passed ? "PASSED" : "FAILED") << " - "
          << run.check->detail << "\n";
  }
  return run.check && !run.check->passed ? 3 : 0;
}

}  // namespace

// More threads than this would each get a few SMs: a mistyped count, most likely.
constexpr uint64_t kMaxThreads = 256;

// --threads: a count, or auto (the CPUs this process may run on).
uint64_t parse_threads(const std::string& text) {
  if (text == "auto") return std::min<uint64_t>(util::usable_cpus(), kMaxThreads);  // (at least 1)
  const auto refuse = [&] {
    return util::InputError("--threads '" + util::clipped(text) + "': expected 1 to " + std::to_string(kMaxThreads) +
                            ", or auto (the CPUs this process may run on)");
  };
  uint64_t threads = 0;
  try {
    threads = parse_count("--threads", text);
  } catch (const util::InputError&) {
    throw refuse();
  }
  if (threads < 1 || threads > kMaxThreads) throw refuse();
  return threads;
}

int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  po::options_description opts("gpusim run options");
  std::string arch_file, workload_file, format = "text", trace_file, size, regs_text, max_instructions_text, timeout_text;
  std::string out_of_bounds = "error", source_top_text = "10", sample_text = "off", threads_text = "1",
              quantum_text = "auto";
  std::vector<std::string> sets, dumps;
  opts.add_options()
      ("help,h", "show this help")
      ("arch", po::value(&arch_file)->required(), "architecture file (configs/*.yaml)")
      ("workload", po::value(&workload_file)->required(), "workload file (workloads/*.yaml)")
      ("set", po::value(&sets)->composing(),
       "NAME=VALUE overrides a workload parameter; SECTION.KEY=VALUE an architecture value "
       "(e.g. scheduling.policy=lrr, memory.dram.latency=400); repeatable. Several values "
       "(300:800:100, 1024:65536:*2 or lrr,gto) run each combination and print a table")
      ("size", po::value(&size), "use the workload's named parameter set (its `sizes`, e.g. h100) for the defaults")
      ("regs", po::value(&regs_text), "registers per thread, overriding the workload and ptxas")
      ("functional", "only execute and check the kernels, without timing")
      ("per-sm", "also report per-SM figures")
      ("trace", po::value(&trace_file),
       "write a Chrome/Perfetto trace (JSON): streams, copy engines, GPU counters over time, blocks on SMs")
      ("trace-warps", "add one track per warp slot to the trace")
      ("source", "count every instruction (slower): print the kernel's source annotated, hottest lines first, "
                 "with where the warps waited (JSON: per-line and per-instruction tables)")
      ("source-top", po::value(&source_top_text), "lines in the source view's hottest-lines table (default 10)")
      ("sample", po::value(&sample_text)->implicit_value("on"),
       "time a large grid's first waves in detail until two run at the same rate (cycles per warp instruction), run the other blocks "
       "functionally and extrapolate cycles and counters (with an error estimate): on (--sample alone: grids of "
       "5 waves or more), auto (16 waves or more) or off (default: every block timed)")
      ("threads", po::value(&threads_text),
       "threads that simulate the SMs' cycles side by side (default 1; auto: the CPUs this process may run on), and "
       "run blocks side by side where they run functionally (--functional, --sample's untimed blocks), and fill the "
       "buffers, run the elementwise and matmul references and compare the check on as many; the report is the same "
       "byte for byte. In a run of several --set values, whose points run side by side, auto gives each point one. "
       "Kernels with atomics or printf, and --source, run their SMs one after another")
      ("quantum", po::value(&quantum_text),
       "cycles each SM runs before the others' in a row, before the L2 and DRAM take their requests in (cycle, SM) "
       "order (default auto: the L2's shortest round trip, and no longer than a retired block's room takes to come "
       "back; 1 with --sample on files without a release time, whose rooms come back at once). The cycles are the "
       "same; only a global store is seen by other SMs at the quantum's end rather than the next cycle. "
       "1: cycle by cycle; a number: at most that many")
      ("max-instructions", po::value(&max_instructions_text),
       "warp instructions one launch may execute before it is taken for an endless loop (default 5e7; 0: no limit)")
      ("timeout", po::value(&timeout_text), "seconds the whole run may take (default 0: no limit)")
      ("out-of-bounds", po::value(&out_of_bounds),
       "error (default: an out-of-bounds access ends the run, as compute-sanitizer reports it) or continue "
       "(loads read 0, stores are dropped, every such access is counted and reported)")
      ("dump", po::value(&dumps)->composing(),
       "NAME=FILE writes buffer NAME's device contents after the last step to FILE (.npy, else raw bytes); repeatable")
      ("format", po::value(&format), "text (default), json or csv");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim [run] --arch ARCH.yaml --workload WORKLOAD.yaml [--set NAME=VALUE]... [options]\n" << opts;
    return 0;
  }
  po::notify(vm);
  if (format != "text" && format != "json" && format != "csv")
    throw util::InputError("--format '" + format + "': expected text, json or csv");
  exec::RunLimits limits;
  if (vm.count("max-instructions")) limits.max_warp_instructions = parse_count("--max-instructions", max_instructions_text);
  if (vm.count("timeout")) limits.timeout_seconds = parse_seconds("--timeout", timeout_text);
  if (out_of_bounds != "error" && out_of_bounds != "continue")
    throw util::InputError("--out-of-bounds '" + util::clipped(out_of_bounds) + "': expected error or continue");
  limits.continue_out_of_bounds = out_of_bounds == "continue";
  if (sample_text != "on" && sample_text != "auto" && sample_text != "off")
    throw util::InputError("--sample '" + util::clipped(sample_text) + "': expected on, auto or off");
  const uint64_t threads = parse_threads(threads_text);
  uint64_t quantum = 0;  // auto
  if (quantum_text != "auto") {
    const util::InputError refused("--quantum '" + util::clipped(quantum_text) +
                                   "': expected auto or a number of cycles, 1 or more");
    try {
      quantum = parse_count("--quantum", quantum_text);
    } catch (const util::InputError&) {
      throw refused;
    }
    if (quantum < 1) throw refused;
  }
  if (sample_text != "off")
    for (const char* whole : {"source", "trace", "trace-warps", "functional"})
      if (vm.count(whole))
        throw util::InputError(std::string("--sample times part of each large grid; --") + whole +
                               " needs every block (leave out --sample)");

  const bool ranged = std::any_of(sets.begin(), sets.end(), [](const std::string& s) {
    const auto eq = s.find('=');
    return eq != std::string::npos && study::is_multi_value(s.substr(eq + 1));
  });
  if (ranged) {
    for (const char* single : {"functional", "per-sm", "trace", "trace-warps", "dump", "regs", "source"})
      if (vm.count(single))
        throw util::InputError(std::string("--") + single + " runs one point; it cannot be used with a --set of several values");
    QuickSweep q{arch_file, workload_file, size, sets, {}, format};
    if (vm.count("max-instructions")) q.passthrough.insert(q.passthrough.end(), {"--max-instructions", max_instructions_text});
    if (vm.count("timeout")) q.passthrough.insert(q.passthrough.end(), {"--timeout", timeout_text});
    q.passthrough.insert(q.passthrough.end(), {"--out-of-bounds", out_of_bounds});
    q.passthrough.insert(q.passthrough.end(), {"--quantum", quantum_text});
    if (sample_text != "off") q.passthrough.insert(q.passthrough.end(), {"--sample", sample_text});
    // The points already run side by side, one per core.
    q.passthrough.insert(q.passthrough.end(), {"--threads", threads_text == "auto" ? "1" : threads_text});
    return quick_sweep(q, out, err);
  }
  std::vector<std::string> arch_sets, workload_sets;
  for (const std::string& s : sets) {
    const auto eq = s.find('=');
    (s.substr(0, eq).find('.') != std::string::npos ? arch_sets : workload_sets).push_back(s);
  }
  params::Origins origins;
  const arch::ArchConfig a = arch::load_arch_config(arch_file, arch_sets, &origins);
  workload::Workload w = workload::load_workload(workload_file, workload_sets, size);
  for (const std::string& d : dumps) {
    const auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == d.size())
      throw util::InputError("--dump '" + util::clipped(d) + "': expected NAME=FILE");
    if (!w.find_buffer(d.substr(0, eq)))
      throw util::InputError("--dump '" + util::clipped(d) + "': the workload has no buffer named '" +
                             util::clipped(d.substr(0, eq)) + "'");
    w.final_dumps.push_back({d.substr(0, eq), d.substr(eq + 1)});
  }
  const driver::WorkloadKernels kernels =
      driver::load_workload_kernels(w, a.gpu.compute_capability, origins.at("gpu.compute_capability").text());
  const frontend::LoadedKernel& kernel = kernels.main;
  if (vm.count("functional")) return functional(a, w, kernels, limits, static_cast<int>(threads), format == "json", out);

  int regs = -1;
  std::string regs_origin = "--regs";
  if (vm.count("regs")) {
    const uint64_t n = parse_count("--regs", regs_text);
    if (n < 1 || n > static_cast<uint64_t>(a.registers.max_per_thread))
      throw util::InputError("--regs '" + regs_text + "': expected registers per thread in [1, " +
                             std::to_string(a.registers.max_per_thread) + "] on " + a.gpu.name);
    regs = static_cast<int>(n);
  } else if (w.kernel.regs_per_thread) {
    regs = *w.kernel.regs_per_thread;
    regs_origin = "registers from the workload";
  } else if (kernel.registers) {
    regs = *kernel.registers;
    regs_origin = "registers from " + kernel.registers_origin;
  } else {
    throw util::InputError(workload_file + ": no register count: ptxas is not available and the workload gives no "
                           "kernel.regs_per_thread; pass --regs");
  }

  core::TimingOptions options;
  options.limits = limits;
  options.trace_warps = vm.count("trace-warps") > 0;
  options.profile = vm.count("source") > 0;
  options.sample_counters = !trace_file.empty();
  options.threads = static_cast<int>(threads);
  options.quantum = static_cast<int64_t>(std::min<uint64_t>(quantum, uint64_t{1} << 30));
  options.sample.mode = sample_text == "on" ? core::SampleMode::On : sample_text == "auto" ? core::SampleMode::Auto
                                                                                            : core::SampleMode::Exact;
  const uint64_t source_top = parse_count("--source-top", source_top_text);
  // Other kernels the workload launches: --regs, else ptxas (or the checked-in table).
  const auto registers_of = [&](const std::string& entry) {
    if (entry == w.kernel.entry || vm.count("regs")) return regs;
    if (const std::optional<int> r = kernels.registers_for(entry)) return *r;
    throw util::InputError(workload_file + ": no register count for kernel " + entry +
                           ": ptxas is not available; pass --regs");
  };
  const driver::TimingRun run = driver::run_timed(a, w, kernels.modules(), registers_of, options);

  stats::ReportContext ctx;
  ctx.arch = &a;
  ctx.workload = &w;
  ctx.kernel_source = (w.kernel.source.empty() ? w.kernel.ptx : w.kernel.source) + ", PTX " + kernel.ptx_origin;
  ctx.registers_origin = std::to_string(regs) + " " + regs_origin;
  ctx.per_sm = vm.count("per-sm") > 0;
  if (options.profile) {
    std::vector<std::string> dirs;
    if (!w.kernel.source.empty()) dirs.push_back(std::filesystem::path(w.kernel.source).parent_path().string());
    dirs.push_back(std::filesystem::path(kernel.ptx_path).parent_path().string());
    ctx.source_views = report::build_source_views(run, dirs);
    ctx.source_top = source_top;
  }
  if (format == "json") stats::write_timing_json(out, ctx, run);
  else if (format == "csv") stats::write_timing_csv(out, ctx, run);
  else stats::write_timing_text(out, ctx, run);
  if (!trace_file.empty()) {
    report::write_trace(trace_file, a, run);
    if (format == "text") out << "Trace written to " << trace_file << " (open in ui.perfetto.dev)\n";
  }
  return run.check && !run.check->passed ? 3 : 0;
}

}  // namespace gpusim::cli
