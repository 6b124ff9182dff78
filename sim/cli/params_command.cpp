// `gpusim params --arch FILE`: every parameter of an architecture with its value, unit and
// where it came from (the file and line, a base file, --set, or the default);
// `gpusim params --reference`: the reference of every declared parameter (Markdown).
#include <boost/program_options.hpp>

#include "arch/arch_loader.hpp"
#include "cli/app.hpp"
#include "report/metrics_reference.hpp"
#include "stats/params_report.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {

int params_command(const std::vector<std::string>& args, std::ostream& out) {
  namespace po = boost::program_options;
  po::options_description opts("gpusim params options");
  std::string arch_file, format = "text";
  std::vector<std::string> sets;
  opts.add_options()
      ("help,h", "show this help")
      ("arch", po::value(&arch_file), "architecture file (configs/*.yaml)")
      ("set", po::value(&sets)->composing(), "SECTION.KEY=VALUE overrides a value; repeatable")
      ("reference", "print the reference of every declared parameter (Markdown) instead")
      ("format", po::value(&format), "text (default) or json");
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(opts).run(), vm);
  if (vm.count("help")) {
    out << "usage: gpusim params --arch ARCH.yaml [--set SECTION.KEY=VALUE]... [--format text|json]\n"
           "       gpusim params --reference\n"
        << opts;
    return 0;
  }
  po::notify(vm);
  if (vm.count("reference")) {
    arch::ArchConfig defaults;
    stats::write_params_reference(out, arch::describe_arch(defaults));
    return 0;
  }
  if (arch_file.empty()) throw util::InputError("--arch: required (or --reference)");
  if (format != "text" && format != "json") throw util::InputError("--format '" + format + "': expected text or json");
  params::Origins origins;
  const arch::ArchConfig a = arch::load_arch_config(arch_file, sets, &origins);
  const auto described = arch::describe_arch(a);
  if (format == "json") stats::write_params_json(out, arch_file, described, origins);
  else stats::write_params_text(out, arch_file, described, origins);
  return 0;
}



// `gpusim metrics`: the metrics reference (docs/metrics.md).
int metrics_command(const std::vector<std::string>& args, std::ostream& out) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    out << "usage: gpusim metrics\n  prints the reference of every reported metric (Markdown)\n";
    return 0;
  }
  if (!args.empty()) throw util::InputError("'" + util::clipped(args[0]) + "': gpusim metrics takes no arguments");
  report::write_metrics_reference(out);
  return 0;
}

}  // namespace gpusim::cli
