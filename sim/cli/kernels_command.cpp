// `gpusim kernels --ptx FILE.ptx`: every kernel of a PTX module and whether gpusim can run
// it, or why not (the first unsupported feature, with its .cu and PTX lines); with
// --smoke-run, each runnable kernel is also executed once on made-up inputs. Used to measure
// PTX coverage over public benchmark suites (scripts/ptx_coverage.py).
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <cstring>
#include <ostream>

#include "cli/app.hpp"
#include "exec/block_runner.hpp"
#include "frontend/ptx_parser.hpp"
#include "stats/json_output.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {

namespace po = boost::program_options;

namespace {

struct SmokeRun {
  std::string status;  // "ran", "fault" or "budget"
  std::string detail;
};

// One launch of 2 blocks of 64 threads with made-up inputs: every 8-byte parameter a pointer
// to its own zeroed 1 MB buffer, 4-byte ones 64 (or 1.0f), the rest zero; 4 KB of dynamic shared
// memory; out-of-bounds accesses counted, not fatal; at most 2 M warp instructions.
SmokeRun smoke_run(const kernel::Module& m, const kernel::Program& p) {
  exec::DeviceMemory memory;
  memory.map_variables(m);
  exec::LaunchConfig launch;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  launch.dynamic_shared_bytes = p.uses_dynamic_shared ? 4096 : 0;
  launch.params.assign(p.param_bytes, 0);
  for (size_t i = 0; i < p.params.size(); ++i) {
    const kernel::Param& param = p.params[i];
    if (param.size == 8 && !kernel::is_float(param.type)) {
      const uint64_t base = memory.allocate("arg" + std::to_string(i), 1 << 20, kernel::kGlobalHeapBase);
      std::memcpy(launch.params.data() + param.offset, &base, 8);
    } else if (param.size == 4) {
      const float one = 1.0f;
      const uint32_t n = 64;
      std::memcpy(launch.params.data() + param.offset, kernel::is_float(param.type) ? static_cast<const void*>(&one) : &n, 4);
    }
  }
  exec::OutOfBoundsLog out_of_bounds;
  launch.out_of_bounds = &out_of_bounds;
  exec::RunLimits limits;
  limits.max_warp_instructions = 2'000'000;
  try {
    const exec::FunctionalStats stats = exec::run_functional(p, memory, launch, limits);
    return {"ran", std::to_string(stats.warp_instructions) + " warp instructions, " +
                       std::to_string(out_of_bounds.total()) + " out-of-bounds accesses"};
  } catch (const exec::ExecError& e) {
    const std::string what = e.what();
    return {what.find("warp instructions in this launch") != std::string::npos ? "budget" : "fault", what};
  }
}

}  // namespace

int kernels_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim kernels options");
  std::string ptx, format = "text";
  opts.add_options()
      ("help,h", "show this help")
      ("ptx", po::value(&ptx)->required(), "PTX file (nvcc -ptx -lineinfo)")
      ("smoke-run", "also run each kernel that can run once: 2 x 64 threads, zeroed 1 MB buffers, scalars 64")
      ("format", po::value(&format), "text (default) or json");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim kernels --ptx FILE.ptx [--smoke-run] [--format json]\n" << opts;
    return 0;
  }
  po::notify(vm);
  if (format != "text" && format != "json") throw util::InputError("--format '" + format + "': expected text or json");
  const kernel::Module m = frontend::parse_ptx_file(ptx);
  const bool smoke = vm.count("smoke-run") > 0;
  if (format == "json") {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const kernel::Program& p : m.kernels) {
      j.push_back({{"kernel", p.name},
                   {"supported", p.unsupported.empty()},
                   {"reason", p.unsupported},
                   {"device_functions", p.functions.size()},
                   {"instructions", p.code.size()}});
      if (smoke && p.unsupported.empty()) {
        const SmokeRun r = smoke_run(m, p);
        j.back()["smoke_run"] = {{"status", r.status}, {"detail", r.detail}};
      }
    }
    stats::write_json(out, j);
    return 0;
  }
  for (const kernel::Program& p : m.kernels) {
    out << p.name << ": " << (p.unsupported.empty() ? "runs (" + std::to_string(p.code.size()) + " instructions)" : p.unsupported);
    if (smoke && p.unsupported.empty()) {
      const SmokeRun r = smoke_run(m, p);
      out << "; smoke run: " << r.status << " (" << r.detail << ")";
    }
    out << '\n';
  }
  return 0;
}

}  // namespace gpusim::cli
