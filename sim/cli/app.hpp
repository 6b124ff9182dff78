// gpusim's command line: dispatches to subcommands. Returns the process exit code;
// errors are one line on `err` and a non-zero code, never an exception.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace gpusim::cli {

int gpusim_main(int argc, char** argv, std::ostream& out, std::ostream& err);
int gpusim_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// Subcommands, each given the arguments after its name.
int occupancy_command(const std::vector<std::string>& args, std::ostream& out);
int run_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int params_command(const std::vector<std::string>& args, std::ostream& out);
int workload_command(const std::vector<std::string>& args, std::ostream& out);
int digest_command(const std::vector<std::string>& args, std::ostream& out);
int kernels_command(const std::vector<std::string>& args, std::ostream& out);
int sweep_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int results_command(const std::vector<std::string>& args, std::ostream& out);
int metrics_command(const std::vector<std::string>& args, std::ostream& out);

// `gpusim run` with a --set that takes several values (a list or a range): each
// combination is a point of a one-off study, run in parallel on every CPU it may use (results in
// memory); a table of the points.
struct QuickSweep {
  std::string arch_file, workload_file, size;
  std::vector<std::string> sets;  // as given, some with several values
  std::vector<std::string> passthrough;  // other gpusim run options for every point
  std::string format;                    // text, csv (rows) or json (the analysis)
};
int quick_sweep(const QuickSweep& q, std::ostream& out, std::ostream& err);

}  // namespace gpusim::cli
