// What reads the whole GPU's state at a block's release (--sample's waves, WaveSampler). A
// batch's quantum (core/tick_batch.hpp) ends before the release it reads at, so that every
// SM has run the cycles before that release and no more, as one cycle at a time would have.
#pragma once

#include <cstdint>

namespace gpusim::core {

class ReleaseReader {
 public:
  virtual ~ReleaseReader() = default;
  // How many more blocks' rooms must come back for it to read: it reads at the release that
  // brings them to this many (UINT64_MAX: it reads at none).
  virtual uint64_t releases_before_read() const = 0;
};

}  // namespace gpusim::core
