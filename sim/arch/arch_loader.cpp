#include "arch/arch_loader.hpp"

#include <functional>
#include <sstream>

#include "util/yaml_reader.hpp"

namespace gpusim::arch {
namespace {

// A list of integers from `least` on (small non-negative ones by default), or `word` for the
// default (an empty list).
std::vector<int> index_list(const YAML::Node& n, const std::function<void(const std::string&)>& fail,
                            const std::string& word, const std::string& element, const std::string& elements,
                            int least = 0) {
  std::vector<int> out;
  const std::string expected = "expected '" + word + "' or a list of " + elements;
  if (n.IsScalar() && n.Scalar() == word) return out;
  if (!n.IsSequence()) fail(expected);
  for (size_t i = 0; i < n.size(); ++i) {
    std::istringstream in(n[i].IsScalar() ? n[i].Scalar() : "");
    int index = -1;
    if (!(in >> index) || !in.eof() || index < least)
      fail("element " + std::to_string(i) + ": expected " + element + ", got '" +
           (n[i].IsScalar() ? n[i].Scalar() : "<not a scalar>") + "'");
    out.push_back(index);
  }
  if (out.empty()) fail(expected);
  return out;
}

std::string format_index_list(const std::vector<int>& list, const std::string& word) {
  if (list.empty()) return word;
  std::string s = "[";
  for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + std::to_string(list[i]);
  return s + "]";
}

}  // namespace

params::CustomSpec<ComputeCapability> GpuInfo::compute_capability_spec() {
  return {.type = "MAJOR.MINOR",
          .parse =
              [](const YAML::Node& n, const auto& fail) {
                const std::string text = n.IsScalar() ? n.Scalar() : "";
                ComputeCapability cc;
                char dot = 0;
                std::istringstream in(text);
                if (!(in >> cc.major >> dot >> cc.minor) || dot != '.' || !in.eof() || cc.major < 1 || cc.minor < 0)
                  fail("expected MAJOR.MINOR such as \"3.5\", got '" + text + "'");
                return cc;
              },
          .format = [](const ComputeCapability& cc) { return cc.str(); },
          .doc = "compute capability, as a string such as \"3.5\""};
}

params::CustomSpec<std::map<int, int>> Registers::overrides_spec() {
  return {.type = "map of integer to integer",
          .parse =
              [](const YAML::Node& n, const auto& fail) {
                std::map<int, int> out;
                if (!n.IsMap()) fail("expected a mapping of registers per thread to allocation unit");
                for (const auto& kv : n) {
                  const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
                  const std::string value = kv.second.IsScalar() ? kv.second.Scalar() : "";
                  std::istringstream k(key), v(value);
                  int regs = 0, unit = 0;
                  if (!(k >> regs) || !k.eof() || regs < 1) fail("'" + key + "': expected a register count (1 or more)");
                  if (!(v >> unit) || !v.eof() || unit < 1 || unit > 65536)
                    fail(key + ": expected an allocation unit in [1, 65536], got '" + value + "'");
                  if (!out.emplace(regs, unit).second) fail(key + ": duplicate key");
                }
                return out;
              },
          .format =
              [](const std::map<int, int>& m) {
                std::string s = "{";
                for (const auto& [k, v] : m) s += (s.size() > 1 ? ", " : "") + std::to_string(k) + ": " + std::to_string(v);
                return s + "}";
              },
          .def = std::map<int, int>{},
          .doc = "registers per thread whose per-warp allocation uses another unit (Fermi)"};
}

params::CustomSpec<std::vector<int>> SharedMemory::carveouts_spec() {
  return {.type = "a list of KB, ascending",
          .parse =
              [](const YAML::Node& n, const auto& fail) {
                std::vector<int> out;
                if (!n.IsSequence()) fail("expected a list of shared-memory capacities in KB, ascending");
                for (size_t i = 0; i < n.size(); ++i) {
                  std::istringstream in(n[i].IsScalar() ? n[i].Scalar() : "");
                  int kb = -1;
                  if (!(in >> kb) || !in.eof() || kb < 0 || kb > (1 << 20))
                    fail("element " + std::to_string(i) + ": expected a size in KB, got '" +
                         (n[i].IsScalar() ? n[i].Scalar() : "<not a scalar>") + "'");
                  if (!out.empty() && kb <= out.back()) fail("element " + std::to_string(i) + ": the list must ascend");
                  out.push_back(kb);
                }
                return out;
              },
          .format =
              [](const std::vector<int>& kbs) {
                std::string s = "[";
                for (size_t i = 0; i < kbs.size(); ++i) s += (i ? ", " : "") + std::to_string(kbs[i]);
                return s + "]";
              },
          .def = std::vector<int>{},
          .doc = "the shared-memory capacities (KB) the driver may configure per kernel in a unified L1/shared "
                 "array, the largest being per_sm; empty: shared memory is always per_sm"};
}

int64_t SharedMemory::carveout_for(int64_t needed, int preferred_percent) const {
  if (carveouts_kb.empty()) return per_sm;
  int64_t want = needed;
  if (preferred_percent >= 0) want = std::max(want, per_sm * std::min(preferred_percent, 100) / 100);
  for (int kb : carveouts_kb)
    if (int64_t{kb} * 1024 >= want) return int64_t{kb} * 1024;
  return per_sm;
}

}  // namespace gpusim::arch

namespace gpusim::core {

params::CustomSpec<std::vector<int>> BlockDispatchConfig::sm_order_spec() {
  return {.type = "ascending, or a list of SM indices",
          .parse =
              [](const YAML::Node& n, const auto& fail) {
                return arch::index_list(n, fail, "ascending", "an SM index", "SM indices");
              },
          .format = [](const std::vector<int>& order) { return arch::format_index_list(order, "ascending"); },
          .def = std::vector<int>{},
          .doc = "the order in which SMs are offered blocks (a permutation of 0 .. sm_count-1)"};
}

}  // namespace gpusim::core

namespace gpusim::memory {

params::CustomSpec<std::vector<int>> L2Config::sm_partitions_spec() {
  return {.type = "halves, or a list of partitions, one per SM",
          .parse =
              [](const YAML::Node& n, const auto& fail) { return arch::index_list(n, fail, "halves", "a partition", "partitions, one per SM");
              },
          .format = [](const std::vector<int>& parts) { return arch::format_index_list(parts, "halves"); },
          .def = std::vector<int>{},
          .doc = "each SM's near partition (by SM index); 'halves': the SMs split into partitions equal groups of "
                 "consecutive indices. Which SMs share a partition differs from chip to chip (disabled TPCs)"};
}

params::CustomSpec<std::vector<int>> L2Config::sm_path_cycles_spec() {
  return {.type = "none, or a list of cycles, one per SM",
          .parse =
              [](const YAML::Node& n, const auto& fail) {
                return arch::index_list(n, fail, "none", "a whole number of cycles", "cycles, one per SM", -100000);
              },
          .format = [](const std::vector<int>& cycles) { return arch::format_index_list(cycles, "none"); },
          .def = std::vector<int>{},
          .doc = "added to every round trip between an SM (by SM index) and the L2, hits and misses alike: how much "
                 "farther or nearer than the average SM it sits on the crossbar (negative: nearer). The latencies "
                 "are the average SM's. Differs from chip to chip; 'none': every SM alike"};
}

}  // namespace gpusim::memory

namespace gpusim::arch {

ArchConfig load_arch_config(const std::string& path, const std::vector<std::string>& overrides,
                            params::Origins* origins) {
  return load_arch_config_text(nullptr, path, overrides, origins);
}

ArchConfig load_arch_config_text(const std::string* text, const std::string& path,
                                 const std::vector<std::string>& overrides, params::Origins* origins) {
  params::Layers layers = params::Layers::from_text(text, path);
  for (const std::string& o : overrides) layers.add_override(o);
  ArchConfig c;
  params::Origins found = params::Loader::load(layers, c);
  c.source_file = path;
  if (origins) *origins = std::move(found);
  return c;
}

std::vector<params::ParamInfo> describe_arch(const ArchConfig& config) {
  ArchConfig copy = config;
  return params::Describer::describe(copy);
}

}  // namespace gpusim::arch
