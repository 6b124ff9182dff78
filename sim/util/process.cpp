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

std::string one_line(std::string text, size_t keep_last) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (keep_last && text.size() > keep_last) text = "..." + text.substr(text.size() - keep_last);
  for (char& c : text)
    if (c == '\n') c = ';';
  return text;
}

}  // namespace gpusim::util
