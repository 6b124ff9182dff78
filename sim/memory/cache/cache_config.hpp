// The geometry and timing of the L1 and L2 caches (memory/cache/, memory/impl/hierarchy.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memory/cache/replacement.hpp"
#include "util/params.hpp"

namespace gpusim::memory {

// How an address picks its set: the line number modulo the sets, or with its higher bits folded in
// (the L1 of Volta and later: rings of lines a power of two apart still spread over the
// sets, measured on the H100 by workloads/micro/micro_l1_sets.yaml).
enum class SetIndex { Modulo, Hashed };

struct CacheConfig {
  int64_t size_bytes = 0;
  SetIndex set_index = SetIndex::Modulo;
  int line_bytes = 128;
  int sector_bytes = 32;
  int associativity = 0;
  int latency = 0;
  std::string replacement = "lru";

  template <class V>
  void declare_geometry(V& v) {
    v.integer("size_bytes", size_bytes,
              {.min = 1, .max = int64_t{1} << 40, .unit = "bytes", .doc = "capacity (a whole number of sets)"});
    v.integer("line_bytes", line_bytes,
              {.min = 32, .max = 4096, .def = 128, .unit = "bytes", .doc = "line (tag) size, a power of two"});
    v.integer("sector_bytes", sector_bytes,
              {.min = 32, .max = 4096, .def = 32, .unit = "bytes",
               .doc = "sector (the unit filled and counted), a power of two dividing line_bytes"});
    v.integer("associativity", associativity, {.min = 1, .max = 1024, .unit = "ways", .doc = "ways per set"});
    v.integer("latency", latency, {.min = 1, .max = 100000, .unit = "cycles", .doc = "hit latency, issue to use"});
    v.choice("set_index", set_index,
             std::vector<params::Choice<SetIndex>>{{"modulo", SetIndex::Modulo, "the line number modulo the number of sets"},
              {"hashed", SetIndex::Hashed,
               "the line number's higher bits XOR-folded into the set bits: power-of-two strides spread over the sets"}},
             std::optional(SetIndex::Modulo), "how an address picks its set");
    v.plugin("replacement", replacement, params::options_of(ReplacementRegistry::instance()),
             {.def = "lru", .doc = "which way of a full set is evicted"});
    v.check([&](const params::Checker& c) {
      c.require((line_bytes & (line_bytes - 1)) == 0, "line_bytes", "must be a power of two");
      c.require((sector_bytes & (sector_bytes - 1)) == 0 && line_bytes % sector_bytes == 0, "sector_bytes",
                "must be a power of two dividing line_bytes");
      c.require(line_bytes / sector_bytes <= 32, "sector_bytes", "at most 32 sectors per line");
      c.require(size_bytes % (int64_t{line_bytes} * associativity) == 0, "size_bytes",
                "must be a whole number of sets (line_bytes x associativity)");
    });
  }
};

struct L1Config : CacheConfig {
  int64_t unified_bytes = 0;
  bool caches_global_loads = false;
  bool caches_read_only_loads = true;
  int miss_line_cycles = 0;
  double store_sector_cycles = 0;
  int write_combine_lines = 0;
  int write_combine_cycles = 0;
  int mshrs = 0;
  int lookup_banks = 0;
  int data_banks = 0;

  template <class V>
  void declare(V& v) {
    declare_geometry(v);
    v.integer("unified_bytes", unified_bytes,
              {.min = 0, .max = int64_t{1} << 40, .def = 0, .unit = "bytes",
               .doc = "one array with shared memory (7.0 and later): for each kernel the L1 gets this less the shared "
                      "carve-out the driver picks (shared_memory.carveouts_kb), and size_bytes is unused; 0: a separate "
                      "L1 of size_bytes"});
    v.flag("caches_global_loads", caches_global_loads,
           {.doc = "whether a plain ld.global is cached here (the generation's default; ld.ca/ld.cg still choose)"});
    v.flag("caches_read_only_loads", caches_read_only_loads,
           {.def = true, .doc = "whether ld.global.nc (__ldg, const __restrict__) is cached here: the read-only path, from 3.5"});
    v.integer("miss_line_cycles", miss_line_cycles,
              {.min = 0, .max = 1000, .def = 0, .unit = "cycles/line",
               .doc = "an SM sends one line request to L2 per this many cycles; 0: no limit"});
    v.number("store_sector_cycles", store_sector_cycles,
             {.min = 0, .max = 64, .def = 0, .unit = "cycles/sector",
              .doc = "a store's data leaves the SM a 32-byte sector per this many cycles, after one cycle per line: "
                     "the load/store unit's data stage is busy as long; 0: one cycle per line"});
    v.integer("write_combine_lines", write_combine_lines,
              {.min = 0, .max = 4096, .def = 0, .unit = "lines",
               .doc = "the SM holds the writes of this many lines for write_combine_cycles; a store into a held line "
                      "merges: no data-stage cycles for its sectors and nothing more for the L2; 0: every store is sent"});
    v.integer("write_combine_cycles", write_combine_cycles,
              {.min = 0, .max = 1000000, .def = 0, .unit = "cycles",
               .doc = "how long after the store that opened it a held write leaves the SM (write_combine_lines); 0: "
                      "only when newer ones push it out"});
    v.integer("lookup_banks", lookup_banks,
              {.min = 0, .max = 64, .def = 0, .unit = "banks",
               .doc = "a cached load looks its lines up in this many banks (line number modulo this), one line per bank "
                      "per cycle; 0: one line per cycle"});
    v.integer("data_banks", data_banks,
              {.min = 0, .max = 128, .def = 0, .unit = "banks",
               .doc = "with lookup_banks: 4-byte banks of the data array; the lanes' distinct lines in one bank are "
                      "read one per cycle (as shared memory's conflicts); 0: not modelled"});
    v.integer("mshrs", mshrs,
              {.min = 0, .max = 65536, .def = 0, .unit = "lines",
               .doc = "miss-status holding registers: lines in flight from L2 per SM; when all are held the load/store "
                      "unit stalls (stall reason lg_throttle); 0: no limit"});
  }
};

struct L2Config : CacheConfig {
  int slices = 0;
  int mshrs_per_slice = 0;
  int fetch_bytes = 0;
  bool partial_write_reads = false;
  double partial_write_cycles = 1;
  double write_request_cycles = 0;
  double read_request_cycles = 0;
  double read_sector_cycles = 1;
  double fill_cycles = 0;
  int64_t atomic_unit_shared_line_bits = 0;
  double atomic_cycles = 1;
  double atomic_float_cycles = 1;
  int partitions = 1;
  int64_t partition_chunk_bytes = 4096;
  int far_latency = 0;
  bool copies_evicted_first = false;
  int merged_reads = 0;
  std::vector<int> sm_partitions;  // each SM's near partition; empty: consecutive equal groups
  std::vector<int> sm_path_cycles;  // each SM's distance to the L2 against the average SM's; empty: none

  static params::CustomSpec<std::vector<int>> sm_partitions_spec();
  static params::CustomSpec<std::vector<int>> sm_path_cycles_spec();
  // What SM `sm`'s round trip to the L2 takes more (or less) than the average SM's.
  int path_cycles(uint32_t sm) const { return sm_path_cycles.empty() ? 0 : sm_path_cycles[sm]; }
  // SM `sm`'s near partition, of `sm_count`.
  int partition_of(int sm, int sm_count) const {
    return sm_partitions.empty() ? static_cast<int>(int64_t{sm} * partitions / sm_count) : sm_partitions[static_cast<size_t>(sm)];
  }

  template <class V>
  void declare(V& v) {
    declare_geometry(v);
    v.integer("slices", slices,
              {.min = 1, .max = 1024, .doc = "independent slices (addresses hashed over them), each taking one sector per cycle"});
    v.integer("mshrs_per_slice", mshrs_per_slice,
              {.min = 0, .max = 65536, .def = 0, .unit = "sectors",
               .doc = "DRAM reads in flight per slice; a miss past them waits for one to return; 0: no limit"});
    v.integer("fetch_bytes", fetch_bytes,
              {.min = 0, .max = 4096, .def = 0, .unit = "bytes",
               .doc = "a miss reads this aligned chunk from DRAM (a power of two, at least a sector): the DRAM "
                      "access granularity; 0: one sector"});
    v.flag("partial_write_reads", partial_write_reads,
           {.def = false, .doc = "a write to part of a sector missing here reads the sector's chunk from DRAM first (ECC over "
                   "whole sectors); false: written without a read"});
    v.number("partial_write_cycles", partial_write_cycles,
             {.min = 1, .max = 64, .def = 1, .unit = "cycles",
              .doc = "how long a write to part of a sector holds its slice (the sector is read, merged and written "
                     "back, with its ECC); a whole sector takes one cycle"});
    v.number("write_request_cycles", write_request_cycles,
             {.min = 0, .max = 64, .def = 0, .unit = "cycles",
              .doc = "how long a line's write request holds the slice of its first sector, besides what its sectors "
                     "take (the request carries the address and byte mask); 0: free"});
    v.number("read_request_cycles", read_request_cycles,
             {.min = 0, .max = 64, .def = 0, .unit = "cycles",
              .doc = "how long a line's read request holds the slice of its first sector, besides what its sectors "
                     "take; 0: free"});
    v.number("read_sector_cycles", read_sector_cycles,
             {.min = 0.01, .max = 64, .def = 1, .unit = "cycles/sector",
              .doc = "how long a sector read holds its slice"});
    v.number("fill_cycles", fill_cycles,
             {.min = 0, .max = 64, .def = 0, .unit = "cycles/sector",
              .doc = "how long a sector arriving from DRAM holds its slice while it is written into the data array, "
                     "besides the request's own cycle; 0: fills are free"});
    v.integer("atomic_unit_shared_line_bits", atomic_unit_shared_line_bits,
              {.min = 0, .max = 255, .def = 0, .unit = "bit mask",
               .doc = "bits of a line's index that do not pick its atomic unit: lines differing only in them share one "
                      "(5, bits 0 and 2: the H100's lines 0, 1, 4, 5 of each 1 KB share a unit, 2, 3, 6, 7 another); 0: "
                      "each line hashed on its own"});
    v.number("atomic_cycles", atomic_cycles,
             {.min = 0.01, .max = 1000, .def = 1, .unit = "cycles/update",
              .doc = "each slice's atomic unit applies the updates to one line: a sector's lanes on distinct words together, "
                     "lanes on one word one after another, this long each (integer updates)"});
    v.number("atomic_float_cycles", atomic_float_cycles,
             {.min = 0.01, .max = 1000, .def = 1, .unit = "cycles/update",
              .doc = "as atomic_cycles, for floating-point updates (atomicAdd on float or double)"});
    v.integer("partitions", partitions,
              {.min = 1, .max = 16, .def = 1,
               .doc = "the L2 is split into this many partitions of size_bytes / partitions each; a line lives in its home "
                      "partition (partition_chunk_bytes of addresses hashed over them) and an SM reads through its near one "
                      "(sm_partitions), which keeps a copy of what the SM reads or writes from a far one; a write drops the "
                      "copies other partitions hold"});
    v.integer("partition_chunk_bytes", partition_chunk_bytes,
              {.min = 128, .max = int64_t{1} << 30, .def = 4096, .unit = "bytes",
               .doc = "addresses are given a home partition in aligned chunks of this size"});
    v.integer("far_latency", far_latency,
              {.min = 0, .max = 100000, .def = 0, .unit = "cycles",
               .doc = "added to a hit found only in a far partition (and to an atomic there): the hop between partitions"});
    v.integer("merged_reads", merged_reads,
              {.min = 0, .max = 64, .def = 0, .unit = "sectors",
               .doc = "each slice remembers the last this many sectors it read: a read of one of them arriving before that "
                      "read has left the slice's queue takes its data, without a slot of its own (many SMs reading one "
                      "line at once); 0: every read takes a slot"});
    v.custom("sm_partitions", sm_partitions, sm_partitions_spec());
    v.custom("sm_path_cycles", sm_path_cycles, sm_path_cycles_spec());
    v.flag("copies_evicted_first", copies_evicted_first,
           {.def = false, .doc = "a copy a read makes of a far line enters its set as the next victim (until it is hit); "
                                 "a writer's copy, and false, as any line"});
    v.check([&](const params::Checker& c) {
      c.require(size_bytes % (int64_t{partitions} * line_bytes * associativity) == 0, "partitions",
                "size_bytes / partitions must be a whole number of sets (line_bytes x associativity)");
      for (int p : sm_partitions)
        c.require(p < partitions, "sm_partitions", "partition " + std::to_string(p) + " is out of range [0, " +
                                                       std::to_string(partitions - 1) + "]");
      for (int cycles : sm_path_cycles)
        c.require(cycles > -latency && cycles < latency, "sm_path_cycles",
                  std::to_string(cycles) + " cycles: must be within the L2's latency either way");
      c.require(fetch_bytes == 0 || ((fetch_bytes & (fetch_bytes - 1)) == 0 && fetch_bytes >= sector_bytes &&
                                     fetch_bytes <= line_bytes),
                "fetch_bytes", "must be 0 or a power of two from sector_bytes to line_bytes");
    });
  }
};

}  // namespace gpusim::memory
