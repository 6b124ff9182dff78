// The gpusim executable: all logic lives in the library (cli/app). A report that could not
// be written (a full disk, a closed pipe) is an error, not a silent success.
#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  const int code = gpusim::cli::gpusim_main(argc, argv, std::cout, std::cerr);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "gpusim: error: writing to standard output failed (a full disk or a closed pipe?)\n";
    return code == 0 ? 1 : code;
  }
  return code;
}
