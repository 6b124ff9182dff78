// `gpusim kernels --ptx FILE.ptx`: every kernel of a PTX module and whether gpusim can run
// it, or why not (the first unsupported feature, with its .cu and PTX lines). Used to measure
// PTX coverage over public benchmark suites (scripts/ptx_coverage.py).
#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/app.hpp"
#include "frontend/ptx_parser.hpp"
#include "stats/json_output.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {

namespace po = boost::program_options;

int kernels_command(const std::vector<std::string>& args, std::ostream& out) {
  po::options_description opts("gpusim kernels options");
  std::string ptx, format = "text";
  opts.add_options()
      ("help,h", "show this help")
      ("ptx", po::value(&ptx)->required(), "PTX file (nvcc -ptx -lineinfo)")
      ("format", po::value(&format), "text (default) or json");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim kernels --ptx FILE.ptx [--format json]\n" << opts;
    return 0;
  }
  po::notify(vm);
  if (format != "text" && format != "json") throw util::InputError("--format '" + format + "': expected text or json");
  const kernel::Module m = frontend::parse_ptx_file(ptx);
  if (format == "json") {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const kernel::Program& p : m.kernels)
      j.push_back({{"kernel", p.name},
                   {"supported", p.unsupported.empty()},
                   {"reason", p.unsupported},
                   {"device_functions", p.functions.size()},
                   {"instructions", p.code.size()}});
    stats::write_json(out, j);
    return 0;
  }
  for (const kernel::Program& p : m.kernels)
    out << p.name << ": " << (p.unsupported.empty() ? "runs (" + std::to_string(p.code.size()) + " instructions)" : p.unsupported)
        << '\n';
  return 0;
}

}  // namespace gpusim::cli
