// `gpusim occupancy`: the CUDA Occupancy Calculator on the command line.
#include <boost/program_options.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <spawn.h>
#include <sys/wait.h>

#include "arch/arch_loader.hpp"
#include "arch/occupancy.hpp"
#include "cli/app.hpp"
#include "cli/range.hpp"
#include "stats/occupancy_report.hpp"
#include "util/yaml_reader.hpp"

extern char** environ;

namespace gpusim::cli {
namespace {

namespace po = boost::program_options;
using arch::KernelResources;
using stats::SweepRow;

enum class Format { Text, Json, Csv };

Format parse_format(const std::string& text) {
  if (text == "text") return Format::Text;
  if (text == "json") return Format::Json;
  if (text == "csv") return Format::Csv;
  throw util::InputError("--format '" + util::clipped(text) + "': expected text, json or csv");
}

// Each dimension is checked alone: invalid_request() judges them independently.
void check_values(const arch::ArchConfig& a, const ValueList& threads, const ValueList& regs, const ValueList& smem) {
  auto check = [&](const KernelResources& k) {
    if (const std::string why = arch::invalid_request(a, k); !why.empty()) throw util::InputError(why);
  };
  for (int64_t t : threads.values) check({static_cast<int>(std::min<int64_t>(t, INT32_MAX)), 0, 0});
  for (int64_t r : regs.values) check({a.warp_size, static_cast<int>(std::min<int64_t>(r, INT32_MAX)), 0});
  for (int64_t s : smem.values) check({a.warp_size, 0, s});
}

std::vector<SweepRow> grid(const arch::ArchConfig& a, const ValueList& threads, const ValueList& regs,
                           const ValueList& smem) {
  const int ranges = threads.is_range + regs.is_range + smem.is_range;
  const std::string varied = ranges > 1   ? "grid"
                             : threads.is_range ? "threads"
                             : regs.is_range    ? "regs"
                                                : "smem";
  std::vector<SweepRow> rows;
  for (int64_t t : threads.values)
    for (int64_t r : regs.values)
      for (int64_t s : smem.values)
        rows.push_back({varied, arch::compute_occupancy(a, {static_cast<int>(t), static_cast<int>(r), s})});
  return rows;
}

// The calculator's three graphs around one point: block size, registers, shared memory.
std::vector<SweepRow> graphs_around(const arch::ArchConfig& a, const KernelResources& k) {
  std::vector<SweepRow> rows;
  for (int t = a.warp_size; t <= a.limits.max_threads_per_block; t += a.warp_size)
    rows.push_back({"threads", arch::compute_occupancy(a, {t, k.registers_per_thread, k.shared_bytes_per_block})});
  for (int r = 1; r <= a.registers.max_per_thread; ++r)
    rows.push_back({"regs", arch::compute_occupancy(a, {k.threads_per_block, r, k.shared_bytes_per_block})});
  const int64_t unit = a.shared_memory.allocation_unit;
  const int64_t step = std::max<int64_t>(unit, a.shared_memory.max_per_block_optin / 512 / unit * unit);
  for (int64_t s = 0; s <= a.shared_memory.max_per_block_optin; s += step)
    rows.push_back({"smem", arch::compute_occupancy(a, {k.threads_per_block, k.registers_per_thread, s})});
  return rows;
}

std::filesystem::path scripts_dir() {
  if (const char* env = std::getenv("GPUSIM_SCRIPTS_DIR")) return env;
  return std::filesystem::path(GPUSIM_SOURCE_DIR) / "scripts";
}

// Draws the sweep with scripts/plot_occupancy.py under Debian's python3-matplotlib.
void plot(const arch::ArchConfig& a, const std::vector<SweepRow>& rows, const KernelResources& point,
          const std::string& png) {
  const std::filesystem::path csv = std::filesystem::path(png).replace_extension(".csv");
  {
    std::ofstream f(csv);
    if (!f) throw util::InputError("--plot: cannot write " + csv.string());
    stats::write_sweep_csv(f, rows);
  }
  const std::string script = (scripts_dir() / "plot_occupancy.py").string();
  const std::string title = a.gpu.name + " (CC " + a.gpu.compute_capability.str() + ")";
  const std::string mark = std::to_string(point.threads_per_block) + "," + std::to_string(point.registers_per_thread) +
                           "," + std::to_string(point.shared_bytes_per_block);
  std::vector<std::string> argv_s = {"/usr/bin/python3", script, csv.string(), png, "--title", title, "--mark", mark};
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
    throw util::InputError("--plot: cannot run /usr/bin/python3 (install python3-matplotlib)");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw util::InputError("--plot: " + script + " failed (is python3-matplotlib installed?)");
}

}  // namespace

int occupancy_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim occupancy options");
  std::string arch_file, threads_text, regs_text, smem_text = "0", format_text = "text", plot_file;
  opts.add_options()
      ("help,h", "show this help")
      ("arch", po::value(&arch_file)->required(), "architecture file (configs/*.yaml)")
      ("threads", po::value(&threads_text)->required(), "threads per block: N, START:STOP[:STEP] or a,b,c")
      ("regs", po::value(&regs_text)->required(), "registers per thread: N, range or list")
      ("smem", po::value(&smem_text), "the kernel's shared memory per block in bytes (static + dynamic; "
                                      "the driver's reserve is added): N, range or list (default 0)")
      ("format", po::value(&format_text), "text (default), json or csv")
      ("plot", po::value(&plot_file), "draw occupancy against block size, registers and shared memory to a PNG");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim occupancy --arch ARCH.yaml --threads N --regs N [--smem BYTES] [--format F] [--plot F.png]\n"
        << opts;
    return 0;
  }
  po::notify(vm);

  const Format format = parse_format(format_text);
  const arch::ArchConfig a = arch::load_arch_config(arch_file);
  const ValueList threads = parse_value_list("threads", threads_text);
  const ValueList regs = parse_value_list("regs", regs_text);
  const ValueList smem = parse_value_list("smem", smem_text);
  check_values(a, threads, regs, smem);
  const KernelResources first{static_cast<int>(threads.values.front()), static_cast<int>(regs.values.front()),
                              smem.values.front()};
  const bool sweep = threads.is_range || regs.is_range || smem.is_range;

  if (!sweep) {
    const stats::OccupancyReport report = stats::make_occupancy_report(a, first);
    if (format == Format::Json) stats::write_occupancy_json(out, report);
    else if (format == Format::Csv) stats::write_occupancy_csv(out, report);
    else stats::write_occupancy_text(out, report);
  } else {
    const std::vector<SweepRow> rows = grid(a, threads, regs, smem);
    if (format == Format::Json) stats::write_sweep_json(out, a, rows);
    else if (format == Format::Csv) stats::write_sweep_csv(out, rows);
    else stats::write_sweep_text(out, a, rows);
  }

  if (!plot_file.empty()) {
    const int ranges = threads.is_range + regs.is_range + smem.is_range;
    if (ranges > 1) throw util::InputError("--plot: give at most one of --threads, --regs, --smem as a range");
    plot(a, sweep ? grid(a, threads, regs, smem) : graphs_around(a, first), first, plot_file);
    if (format == Format::Text)
      out << "\nPlot written to " << plot_file << " (data: " << std::filesystem::path(plot_file).replace_extension(".csv").string() << ")\n";
  }
  return 0;
}

}  // namespace gpusim::cli
