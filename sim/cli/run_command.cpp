// `gpusim [run] --arch A --workload W`: until the timing model lands, reports each
// kernel launch's occupancy and how many waves of blocks the grid needs.
#include <boost/program_options.hpp>
#include <cmath>

#include "arch/arch_loader.hpp"
#include "cli/app.hpp"
#include "driver/functional_run.hpp"
#include "frontend/kernel_loader.hpp"
#include "stats/json_writer.hpp"
#include "stats/occupancy_report.hpp"
#include "util/yaml_reader.hpp"
#include "workload/workload.hpp"

namespace gpusim::cli {
namespace {

namespace po = boost::program_options;

struct LaunchReport {
  const workload::LaunchStep* launch;
  stats::OccupancyReport occupancy;
  int64_t blocks = 0;
  int64_t blocks_per_wave = 0;
  double waves = 0;
};

std::string dims(const std::array<int64_t, 3>& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

LaunchReport report_launch(const arch::ArchConfig& a, const workload::Workload& w, const workload::LaunchStep& l,
                           int regs, int line) {
  const int64_t threads = w.threads_per_block(l);
  for (int i = 0; i < 3; ++i) {
    if (l.block[i] > a.limits.max_block_dims[i] || l.grid[i] > a.limits.max_grid_dims[i])
      throw util::InputError(w.source_file + ":" + std::to_string(line) + ": launch " + dims(l.grid) + " blocks of " +
                             dims(l.block) + " exceeds " + a.gpu.name + "'s grid " + dims(a.limits.max_grid_dims) +
                             " or block " + dims(a.limits.max_block_dims) + " limits");
  }
  const arch::KernelResources k{static_cast<int>(threads), regs, l.shared_bytes};
  if (const std::string why = arch::invalid_request(a, k); !why.empty())
    throw util::InputError(w.source_file + ":" + std::to_string(line) + ": launch: " + why);
  LaunchReport r{&l, stats::make_occupancy_report(a, k)};
  r.blocks = l.grid[0] * l.grid[1] * l.grid[2];
  r.blocks_per_wave = int64_t{r.occupancy.result.active_blocks} * a.gpu.sm_count;
  r.waves = r.blocks_per_wave ? static_cast<double>(r.blocks) / static_cast<double>(r.blocks_per_wave) : 0;
  return r;
}

int functional(const arch::ArchConfig& a, const workload::Workload& w, const frontend::LoadedKernel& kernel,
               uint64_t max_instructions, bool json, std::ostream& out) {
  const driver::FunctionalRun run = driver::run_functional(w, kernel.module, *kernel.program, max_instructions);
  uint64_t warp_total = 0, thread_total = 0;
  for (const auto& l : run.launches) {
    warp_total += l.stats.warp_instructions;
    thread_total += l.stats.thread_instructions;
  }
  const auto efficiency = [&](uint64_t threads, uint64_t warps) {
    return warps ? static_cast<double>(threads) / (static_cast<double>(warps) * 32.0) : 0.0;
  };
  const double rate = run.seconds > 0 ? static_cast<double>(warp_total) / run.seconds : 0;
  if (json) {
    stats::JsonWriter j(out);
    j.begin_object().field("workload", w.name).field("arch", a.gpu.name).field("mode", "functional");
    j.key("kernels").begin_array();
    for (const auto& l : run.launches)
      j.begin_object().field("name", w.kernel.entry).field("blocks", l.grid[0] * l.grid[1] * l.grid[2])
          .field("warp_instructions", static_cast<int64_t>(l.stats.warp_instructions))
          .field("thread_instructions", static_cast<int64_t>(l.stats.thread_instructions))
          .field("simt_efficiency", efficiency(l.stats.thread_instructions, l.stats.warp_instructions))
          .end_object();
    j.end_array();
    j.field("warp_instructions_per_second", rate);
    if (run.check) j.key("check").begin_object().field("passed", run.check->passed).field("detail", run.check->detail).end_object();
    j.end_object();
  } else {
    out << "gpusim --functional: workload '" << w.name << "', kernel " << w.kernel.entry << " (" << kernel.ptx_path
        << ", " << kernel.ptx_origin << ")\n";
    for (size_t i = 0; i < run.launches.size(); ++i) {
      const auto& l = run.launches[i];
      out << "  launch " << i + 1 << ": " << w.kernel.entry << "<<<" << dims(l.grid) << ", " << dims(l.block)
          << ">>>  " << l.stats.warp_instructions << " warp instructions, " << l.stats.thread_instructions
          << " thread instructions, SIMT efficiency " << 100.0 * efficiency(l.stats.thread_instructions, l.stats.warp_instructions)
          << "%\n";
    }
    out << "  total: " << warp_total << " warp instructions in " << run.seconds << " s ("
        << rate / 1e6 << " M warp instructions/s)\n";
    if (run.check) out << "  check " << w.check->buffer << ": " << (run.check->passed ? "PASSED" : "FAILED") << " — " << run.check->detail << "\n";
  }
  return run.check && !run.check->passed ? 3 : 0;
}

}  // namespace

int run_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim run options");
  std::string arch_file, workload_file, format = "text";
  std::vector<std::string> sets;
  int regs_override = -1;
  uint64_t max_instructions = 2'000'000'000;
  opts.add_options()
      ("help,h", "show this help")
      ("arch", po::value(&arch_file)->required(), "architecture file (configs/*.yaml)")
      ("workload", po::value(&workload_file)->required(), "workload file (workloads/*.yaml)")
      ("set", po::value(&sets)->composing(), "override a workload parameter: NAME=VALUE (repeatable)")
      ("regs", po::value(&regs_override), "registers per thread, overriding the workload and ptxas")
      ("functional", "run the kernels functionally: check the results, count warp instructions")
      ("max-instructions", po::value(&max_instructions), "warp instructions one launch may execute (default 2e9)")
      ("format", po::value(&format), "text (default) or json");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim [run] --arch ARCH.yaml --workload WORKLOAD.yaml [--set NAME=VALUE]... [--format F]\n" << opts;
    return 0;
  }
  po::notify(vm);
  if (format != "text" && format != "json") throw util::InputError("--format '" + format + "': expected text or json");

  const arch::ArchConfig a = arch::load_arch_config(arch_file);
  const workload::Workload w = workload::load_workload(workload_file, sets);
  const frontend::LoadedKernel kernel =
      frontend::load_kernel(w.kernel.source, w.kernel.ptx, w.kernel.entry, a.gpu.compute_capability);
  if (vm.count("functional")) return functional(a, w, kernel, max_instructions, format == "json", out);

  int regs = regs_override;
  std::string regs_origin = "--regs";
  if (regs < 0 && w.kernel.regs_per_thread) {
    regs = *w.kernel.regs_per_thread;
    regs_origin = "the workload's regs_per_thread";
  } else if (regs < 0 && kernel.registers) {
    regs = *kernel.registers;
    regs_origin = kernel.registers_origin;
  } else if (regs < 0) {
    throw util::InputError(workload_file + ": no register count: ptxas is not available and the workload gives no "
                           "kernel.regs_per_thread; pass --regs");
  }

  std::vector<LaunchReport> reports;
  for (const workload::Step& s : w.steps)
    if (const auto* l = std::get_if<workload::LaunchStep>(&s.action)) reports.push_back(report_launch(a, w, *l, regs, s.line));

  if (format == "json") {
    stats::JsonWriter j(out);
    j.begin_object().field("workload", w.name).field("arch", a.gpu.name);
    j.key("launches").begin_array();
    for (const LaunchReport& r : reports) {
      j.begin_object().field("entry", w.kernel.entry).field("blocks", r.blocks)
          .field("blocks_per_wave", r.blocks_per_wave).field("waves", r.waves);
      j.key("occupancy");
      stats::write_occupancy_object(j, r.occupancy);
      j.end_object();
    }
    j.end_array().end_object();
    return 0;
  }

  out << "gpusim: workload '" << w.name << "' on " << a.gpu.name << " (" << a.gpu.sm_count << " SMs, "
      << a.gpu.core_clock_mhz << " MHz)\n";
  out << "Kernel " << w.kernel.entry << " from " << (w.kernel.source.empty() ? w.kernel.ptx : w.kernel.source) << " ("
      << kernel.program->code.size() << " PTX instructions, " << regs << " registers from " << regs_origin << ")\n";
  out << "Note: the timing model is not built yet; this run reports each launch's occupancy and waves.\n";
  for (size_t i = 0; i < reports.size(); ++i) {
    const LaunchReport& r = reports[i];
    out << "\n=== Launch " << i + 1 << ": " << w.kernel.entry << "<<<" << dims(r.launch->grid) << ", "
        << dims(r.launch->block) << ", " << r.launch->shared_bytes << ">>> ===\n";
    stats::write_occupancy_text(out, r.occupancy);
    out << "\nGrid: " << r.blocks << " blocks; " << r.occupancy.result.active_blocks << " blocks/SM x "
        << a.gpu.sm_count << " SMs = " << r.blocks_per_wave << " blocks per wave; " << std::ceil(r.waves)
        << " waves (" << r.waves << ")\n";
  }
  return 0;
}

}  // namespace gpusim::cli
