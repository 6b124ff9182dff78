// A user's own reference in Python: gpusim writes every buffer's initial contents as
// INPUTS/NAME.npy and the workload's parameters as INPUTS/params.json, runs
// `python3 SCRIPT INPUTS OUT.npy` (Debian's /usr/bin/python3 with NumPy, or $GPUSIM_PYTHON),
// and reads the expected contents of the checked buffer from OUT.npy.
#pragma once

#include <cstdint>
#include <vector>

#include "reference/references.hpp"
#include "util/bytes.hpp"
#include "workload/workload.hpp"

namespace gpusim::reference {

// Throws util::InputError naming the script when it fails or writes the wrong thing.
util::Bytes script_expected(const workload::Workload& w, const Buffers& initial);

}  // namespace gpusim::reference
