// The gpusim executable: all logic lives in the library (cli/app).
#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) { return gpusim::cli::gpusim_main(argc, argv, std::cout, std::cerr); }
