#include <map>
#include <memory>
#include <mutex>

#include "memory/coalescing/rule.hpp"

namespace gpusim::memory {

const CoalescingRule& coalescing_rule(const std::string& name) {
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<CoalescingRule>, std::less<>> built;
  const std::lock_guard guard(lock);
  auto it = built.find(name);
  if (it == built.end()) it = built.emplace(name, CoalescingRegistry::instance().make(name)).first;
  return *it->second;
}

}  // namespace gpusim::memory
