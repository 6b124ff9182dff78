// util::usable_cpus() counts the CPUs the thread may run on, which it is set to here.
#include "util/cpu_count.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <vector>

namespace {

// The calling thread's allowed CPUs, as the kernel reports them.
std::vector<int> allowed_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  EXPECT_EQ(sched_getaffinity(0, sizeof mask, &mask), 0);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mask)) cpus.push_back(c);
  return cpus;
}

// Restricts the calling thread to `cpus` for the test's length.
class Pinned {
 public:
  explicit Pinned(const std::vector<int>& cpus) {
    sched_getaffinity(0, sizeof before_, &before_);
    cpu_set_t only;
    CPU_ZERO(&only);
    for (int c : cpus) CPU_SET(c, &only);
    ok_ = sched_setaffinity(0, sizeof only, &only) == 0;
  }
  ~Pinned() { sched_setaffinity(0, sizeof before_, &before_); }
  bool ok() const { return ok_; }

 private:
  cpu_set_t before_;
  bool ok_ = false;
};

TEST(UsableCpus, CountsTheAffinityMaskNotTheMachine) {
  const std::vector<int> cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  EXPECT_EQ(gpusim::util::usable_cpus(), cpus.size());
  {
    const Pinned one({cpus.back()});
    ASSERT_TRUE(one.ok());
    EXPECT_EQ(gpusim::util::usable_cpus(), 1u);
  }
  if (cpus.size() >= 2) {
    const Pinned two({cpus.front(), cpus.back()});
    ASSERT_TRUE(two.ok());
    EXPECT_EQ(gpusim::util::usable_cpus(), 2u);
  }
  EXPECT_EQ(gpusim::util::usable_cpus(), cpus.size());  // restored
}

}  // namespace
