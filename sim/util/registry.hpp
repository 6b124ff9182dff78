// Plug-ins by name: an implementation registers a factory under a name and a one-line
// description from its own file (GPUSIM_REGISTER), and the configuration names which one
// to build. Adding a policy is one new file; nothing else lists the implementations.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gpusim::util {

template <typename Interface, typename... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(Args...)>;
  struct Entry {
    std::string description;
    Factory make;
  };

  // The one registry of this interface (built on first use, so registration from static
  // initialisers in any order is safe).
  static Registry& instance() {
    static Registry r;
    return r;
  }

  bool add(std::string name, std::string description, Factory make) {
    if (!entries_.emplace(std::move(name), Entry{std::move(description), std::move(make)}).second)
      throw std::logic_error("plug-in registered twice");
    return true;
  }
  const Entry* find(std::string_view name) const {
    const auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : &it->second;
  }
  std::unique_ptr<Interface> make(std::string_view name, Args... args) const {
    const Entry* e = find(name);
    if (!e) throw std::invalid_argument("no plug-in named '" + std::string(name) + "'");
    return e->make(std::forward<Args>(args)...);
  }
  // Names in sorted order, with their descriptions.
  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, entry] : entries_) out.push_back(name);
    return out;
  }

 private:
  Registry() = default;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace gpusim::util

#define GPUSIM_CONCAT_INNER(a, b) a##b
#define GPUSIM_CONCAT(a, b) GPUSIM_CONCAT_INNER(a, b)
// GPUSIM_REGISTER(RegistryType, "name", "description", factory-lambda);
#define GPUSIM_REGISTER(RegistryType, name, description, ...)                                              \
  namespace {                                                                                              \
  [[maybe_unused]] const bool GPUSIM_CONCAT(registered_, __LINE__) =                                       \
      RegistryType::instance().add(name, description, __VA_ARGS__);                                       \
  }
