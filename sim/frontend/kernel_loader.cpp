#include "frontend/kernel_loader.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/ptx_parser.hpp"
#include "util/process.hpp"
#include "util/yaml_reader.hpp"

namespace gpusim::frontend {
namespace fs = std::filesystem;
using util::InputError;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string toolkit_binary(const std::string& name) {
  const char* home = std::getenv("CUDA_HOME");
  const fs::path p = fs::path(home ? home : "/usr/local/cuda") / "bin" / name;
  return fs::exists(p) ? p.string() : "";
}

// The SASS targets (sm_NN) this toolkit's ptxas can compile for, from `nvcc --list-gpu-code`;
// empty without the toolkit.
const std::vector<int>& toolkit_sass_targets() {
  static const std::vector<int> targets = [] {
    std::vector<int> out;
    const std::string nvcc = toolkit_binary("nvcc");
    std::string listing;
    if (nvcc.empty() || util::run_process({nvcc, "--list-gpu-code"}, listing) != 0) return out;
    std::istringstream in(listing);
    for (std::string word; in >> word;)
      if (word.rfind("sm_", 0) == 0) {
        const int sm = std::atoi(word.c_str() + 3);
        if (sm > 0 && std::find(out.begin(), out.end(), sm) == out.end()) out.push_back(sm);
      }
    return out;
  }();
  return targets;
}

fs::path cache_dir() {
  if (const char* dir = std::getenv("GPUSIM_CACHE_DIR")) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return fs::path(xdg) / "gpusim";
  if (const char* home = std::getenv("HOME")) return fs::path(home) / ".cache" / "gpusim";
  return fs::temp_directory_path() / "gpusim-cache";
}

// Writes through a temporary name so that concurrent runs never read half a file.
void write_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp" + std::to_string(getpid());
  std::ofstream(tmp, std::ios::binary) << text;
  fs::rename(tmp, path);
}

// PTX for the architecture's own virtual target (compute_NN), so that sm_80+ features
// compile for an Ampere or Hopper config and an older config gets the oldest supported target.
std::string compile_to_ptx(const std::string& source, int sm, std::string& origin) {
  const std::string nvcc = toolkit_binary("nvcc");
  const fs::path checked_in = fs::path(source).replace_extension(".ptx");
  if (nvcc.empty()) {
    if (!fs::exists(checked_in))
      throw InputError(source + ": nvcc not found (set CUDA_HOME) and no checked-in " + checked_in.string());
    origin = "checked-in";
    return checked_in.string();
  }
  // -lineinfo: .loc lines, so that faults and reports name the .cu line (the code is unchanged).
  const std::vector<std::string> flags = {"-ptx", "-O3", "-lineinfo", "-arch=compute_" + std::to_string(sm)};
  std::string version;
  util::run_process({nvcc, "--version"}, version);
  uint64_t key = fnv1a(read_all(source));
  key = fnv1a(version, key);
  for (const std::string& f : flags) key = fnv1a(f, key);
  const fs::path dir = cache_dir();
  char name[64];
  std::snprintf(name, sizeof name, "-%016llx.ptx", static_cast<unsigned long long>(key));
  const fs::path cached = dir / (fs::path(source).stem().string() + name);
  if (fs::exists(cached)) {
    origin = "nvcc (cached)";
    return cached.string();
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path out = cached.string() + ".build" + std::to_string(getpid());
  std::vector<std::string> argv = {nvcc};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {source, "-o", out.string()});
  std::string log;
  if (util::run_process(argv, log) != 0) {
    fs::remove(out, ec);
    throw InputError(source + ": nvcc failed: " + util::one_line(log));
  }
  fs::rename(out, cached, ec);
  if (ec) throw InputError(cached.string() + ": cannot write the PTX cache: " + ec.message());
  origin = "nvcc";
  return cached.string();
}

std::optional<int> registers_from_ptxas(const std::string& ptx, const std::string& entry, int sm) {
  const std::string ptxas = toolkit_binary("ptxas");
  if (ptxas.empty()) return std::nullopt;
  const fs::path cached = ptx + ".sm" + std::to_string(sm) + ".regs";
  std::string log;
  if (fs::exists(cached)) {
    log = read_all(cached.string());
  } else {
    if (util::run_process({ptxas, "-arch=sm_" + std::to_string(sm), "-v", ptx, "-o", "/dev/null"}, log) != 0)
      throw InputError(ptx + ": ptxas failed: " + util::one_line(log));
    if (ptx.rfind(cache_dir().string(), 0) == 0) write_atomically(cached, log);  // never into the repository
  }
  // "Compiling entry function 'NAME' for 'sm_90'" is followed by "Used N registers".
  std::istringstream in(log);
  std::string line;
  bool in_entry = false;
  while (std::getline(in, line)) {
    if (line.find("Compiling entry function") != std::string::npos) in_entry = line.find("'" + entry + "'") != std::string::npos;
    const auto used = line.find("Used ");
    if (in_entry && used != std::string::npos) return std::atoi(line.c_str() + used + 5);
  }
  return std::nullopt;
}

// The checked-in table beside the source: lines "sm_90 ENTRY REGISTERS".
std::optional<int> registers_from_table(const std::string& source, const std::string& entry, int sm) {
  std::ifstream in(fs::path(source).replace_extension(".regs"));
  std::string target, name;
  int regs;
  while (in >> target >> name >> regs)
    if (target == "sm_" + std::to_string(sm) && name == entry) return regs;
  return std::nullopt;
}

}  // namespace

int ptxas_target(const arch::ComputeCapability& cc) {
  const int sm = cc.major * 10 + cc.minor;
  return sm < kPtxTarget ? kPtxTarget : sm;
}

LoadedKernel load_kernel(const std::string& source, const std::string& ptx, const std::string& entry,
                         const arch::ComputeCapability& cc, const std::string& cc_where, uint64_t variable_base) {
  const int sm = ptxas_target(cc);
  const std::vector<int>& known = toolkit_sass_targets();
  if (!known.empty() && std::find(known.begin(), known.end(), sm) == known.end()) {
    std::string names;
    for (int t : known) names += (names.empty() ? "sm_" : ", sm_") + std::to_string(t);
    throw InputError((cc_where.empty() ? std::string() : cc_where + ": ") + "gpu.compute_capability " + cc.str() +
                     ": the CUDA toolkit (" + toolkit_binary("nvcc") + ") cannot compile for sm_" + std::to_string(sm) +
                     "; it knows " + names);
  }
  LoadedKernel k;
  if (!source.empty()) {
    k.ptx_path = compile_to_ptx(source, sm, k.ptx_origin);
  } else {
    k.ptx_path = ptx;
    k.ptx_origin = "given";
  }
  k.module = parse_ptx_file(k.ptx_path, variable_base);
  k.program = k.module.find(entry);
  if (!k.program) {
    std::string names;
    for (const auto& p : k.module.kernels) {
      if (!names.empty()) names.append(", ");
      names.append(p.name);
    }
    throw InputError(k.ptx_path + ": no kernel entry '" + entry + "' (found: " + names + ")");
  }
  if (!k.program->unsupported.empty()) throw InputError("kernel " + entry + ": " + k.program->unsupported);
  k.source = source;
  k.sm = sm;
  k.registers = registers_for(k, entry, &k.registers_origin);
  return k;
}

std::optional<int> registers_for(const LoadedKernel& k, const std::string& entry, std::string* origin) {
  std::optional<int> regs;
  std::string from;
  if ((regs = registers_from_ptxas(k.ptx_path, entry, k.sm))) from = "ptxas sm_" + std::to_string(k.sm);
  else if (!k.source.empty() && (regs = registers_from_table(k.source, entry, k.sm))) from = "checked-in sm_" + std::to_string(k.sm);
  if (origin) *origin = from;
  return regs;
}

}  // namespace gpusim::frontend
