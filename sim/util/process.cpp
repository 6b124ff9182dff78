#include "util/process.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>

namespace gpusim::util {

int run_process(const std::vector<std::string>& argv, std::string& output) {
  std::string cmd;
  for (const std::string& a : argv) {
    cmd += "'";
    for (char c : a) cmd += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += "' ";
  }
  cmd += "2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) output.append(buf.data(), n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace gpusim::util
