// Paths to the repository's data files, for tests run from any folder.
#pragma once

#include <string>

namespace gpusim::test {

inline std::string repo_path(const std::string& relative) { return std::string(GPUSIM_SOURCE_DIR) + "/" + relative; }
inline std::string config_path(const std::string& name) { return repo_path("configs/" + name + ".yaml"); }

}  // namespace gpusim::test
