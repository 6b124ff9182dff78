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
int run_command(const std::vector<std::string>& args, std::ostream& out);
int params_command(const std::vector<std::string>& args, std::ostream& out);
int workload_command(const std::vector<std::string>& args, std::ostream& out);
int digest_command(const std::vector<std::string>& args, std::ostream& out);
int kernels_command(const std::vector<std::string>& args, std::ostream& out);

}  // namespace gpusim::cli
