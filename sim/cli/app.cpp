#include "cli/app.hpp"

#include <boost/program_options/errors.hpp>
#include <exception>
#include <filesystem>
#include <new>

#include "exec/exec_error.hpp"
#include "gpusim_version.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::cli {
namespace {

constexpr const char* kUsage =
    "usage: gpusim [run] --arch ARCH.yaml --workload WORKLOAD.yaml [options]\n"
    "       gpusim occupancy --arch ARCH.yaml --threads N --regs N [--smem BYTES] [options]\n"
    "       gpusim params --arch ARCH.yaml [--set SECTION.KEY=VALUE]... | --reference\n"
    "       gpusim workload --arch ARCH.yaml --workload W.yaml [--size S] --dump-inputs DIR\n"
    "       gpusim digest --type f32 FILE\n"
    "       gpusim kernels --ptx FILE.ptx\n"
    "       gpusim sweep STUDY.yaml [--db FILE] [-j N] [--resume] [--slurm]\n"
    "       gpusim results DB [--format text|csv|jsonl|json] [--metric NAME]...\n"
    "       gpusim metrics\n"
    "\n"
    "Subcommands:\n"
    "  run         simulate a workload on an architecture (the default)\n"
    "  occupancy   how many blocks and warps of a kernel fit on one SM, and what limits it\n"
    "  params      every parameter of an architecture file, its value and where it came from\n"
    "  workload    write a workload's resolved launches and initial buffers (--dump-inputs DIR)\n"
    "  digest      the CRC-32 and samples of a raw output buffer, as reports give them\n"
    "  kernels     every kernel of a PTX file and whether gpusim runs it, or why not\n"
    "  sweep       run a study (parameters x workloads x architectures) into a results database\n"
    "  results     a study database's what-matters tables, rows (CSV, JSON Lines) and analysis (JSON)\n"
    "  metrics     the reference of every reported metric and warp state, with Nsight Compute's names\n"
    "\n"
    "Run `gpusim SUBCOMMAND --help` for its options.\n";

}  // namespace

int gpusim_main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  return gpusim_main(std::vector<std::string>(argv + 1, argv + argc), out, err);
}

int gpusim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    (args.empty() ? err : out) << kUsage;
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    out << "gpusim " GPUSIM_VERSION "\n";
    return 0;
  }
  const std::string& first = args[0];
  const bool named = first == "occupancy" || first == "run" || first == "params" || first == "workload" ||
                     first == "digest" || first == "kernels" || first == "sweep" || first == "results" || first == "metrics";
  if (!named && first.rfind("--", 0) != 0) {
    err << "gpusim: unknown subcommand '" << util::clipped(first) << "' (see gpusim --help)\n";
    return 2;
  }
  const std::vector<std::string> rest(args.begin() + (named ? 1 : 0), args.end());
  const std::string name = named ? first : "run";
  try {
    if (name == "occupancy") return occupancy_command(rest, out);
    if (name == "params") return params_command(rest, out);
    if (name == "workload") return workload_command(rest, out);
    if (name == "digest") return digest_command(rest, out);
    if (name == "kernels") return kernels_command(rest, out);
    if (name == "sweep") return sweep_command(rest, out, err);
    if (name == "results") return results_command(rest, out);
    if (name == "metrics") return metrics_command(rest, out);
    return run_command(rest, out, err);
  } catch (const exec::ExecError& e) {
    err << "gpusim " << name << ": error: " << e.what() << '\n';
  } catch (const util::InputError& e) {
    err << "gpusim " << name << ": error: " << e.what() << '\n';
  } catch (const boost::program_options::error& e) {
    err << "gpusim " << name << ": error: " << e.what() << " (see gpusim " << name << " --help)\n";
  } catch (const std::bad_alloc&) {  // the named buffers are checked first; this is what is left
    err << "gpusim " << name << ": error: out of host memory (try a smaller --size or fewer --set overrides)\n";
  } catch (const std::filesystem::filesystem_error& e) {  // its message names the path
    err << "gpusim " << name << ": error: " << e.what() << '\n';
  } catch (const std::exception& e) {  // a bug in gpusim, not in the input
    err << "gpusim " << name << ": internal error: " << e.what() << '\n';
  }
  return 1;
}

}  // namespace gpusim::cli
