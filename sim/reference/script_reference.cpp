#include "reference/script_reference.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "util/process.hpp"
#include "util/yaml_reader.hpp"
#include "workload/npy.hpp"

namespace gpusim::reference {
namespace fs = std::filesystem;

namespace {

// A private folder that removes itself.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "gpusim-check-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw util::InputError("check.script: cannot create a temporary folder");
    path = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

util::Bytes script_expected(const workload::Workload& w, const Buffers& initial) {
  const std::string& script = w.check->script;
  const std::string what = w.source_file + ": check.script " + script;
  ScratchDir dir;
  for (const workload::Buffer& b : w.buffers) workload::write_npy((dir.path / (b.name + ".npy")).string(), b.type, initial.at(b.name));
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : w.params) params[name] = value;
  std::ofstream(dir.path / "params.json") << params.dump();
  const char* python = std::getenv("GPUSIM_PYTHON");
  const fs::path out = dir.path / "expected.npy";
  std::string log;
  const int status = util::run_process({python ? python : "/usr/bin/python3", script, dir.path.string(), out.string()}, log);
  if (status != 0)
    throw util::InputError(what + " failed (exit " + std::to_string(status) + "): " + util::one_line(log, 400));
  const workload::Buffer* b = w.find_buffer(w.check->buffer);
  return workload::read_npy(out.string(), b->type, b->count, what);
}

}  // namespace gpusim::reference
