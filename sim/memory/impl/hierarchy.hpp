// The modelled memory system: per-architecture coalescing, a sectored L1 per SM with its
// miss port and miss-status registers, a shared L2 of slices with queues, and DRAM
// channels that serve bytes at the configured bandwidth with queueing, so a
// bandwidth-bound kernel is limited by bytes per cycle and a latency-bound one by the
// latencies. Each request's timing is worked out when it arrives (every queue reserves
// its slot then); its response is delivered as an event when the data is there.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "memory/cache/sectored_cache.hpp"
#include "memory/coalescing/rule.hpp"
#include "memory/dram/dram.hpp"
#include "memory/l2.hpp"
#include "memory/memory_config.hpp"
#include "memory/memory_system.hpp"
#include "memory/mshr.hpp"
#include "memory/sector_lanes.hpp"
#include "memory/write_combiner.hpp"
#include "util/seen_set.hpp"

namespace gpusim::memory {

class MemoryHierarchy final : public MemorySystem {
 public:
  MemoryHierarchy(const MemoryConfig& config, const MemorySystemContext& context);
  engine::Cycle accepts_at(uint32_t sm, engine::Cycle now) const override;
  Accepted send(const MemoryRequest& request) override;
  void start_kernel(int64_t shared_carveout, int threads) override;
  int64_t l1_bytes() const override { return l1_bytes_; }
  L2Occupancy l2_occupancy() const override { return l2_ ? l2_->occupancy() : L2Occupancy{}; }
  bool l2_keeps_all(std::span<const AddressRange> ranges) const override { return l2_ && l2_->keeps_all(ranges); }
  engine::Cycle drained_at() const override;
  MemoryStats stats() const override;
  void settle(uint32_t sm) override;
  void settle_through(uint32_t sm, engine::Cycle cycle) override;
  engine::Cycle lookahead() const override;
  void settle_until(std::span<const uint32_t> sms, engine::Cycle end) override;
  void begin_quantum(uint32_t sm, uint32_t slices) override;
  void hand_off(uint32_t sm, uint32_t slice) override;
  void settle_handed(std::span<const uint32_t> sms, uint32_t slice, engine::Cycle from, engine::Cycle to) override;
  void end_quantum(std::span<const uint32_t> sms) override;
  void rerouting(uint32_t sm) override;
  // Limited miss-status registers need the L2's answers at once (send settles).
  bool sends_locally() const override { return !may_refuse(); }

 private:
  // What a request leaves to the L2 and DRAM, kept in the order met until settle(). The
  // answer's time is built up as the steps are done: the latest of the reads, the atomics and
  // the fills waited for, and of what the SM's side knew (Respond's `at`), which ends the
  // request (as Acked does) and starts the next one's from 0. As few entries as the settle
  // needs: an SM's run of a quantum writes them, the settle reads them after the other SMs'
  // runs, and each host cache line of them is then a miss twice.
  struct Below {
    // ReadFill: a Read that is its fill's last, after which the answer waits for the fill.
    enum class Op : uint8_t { Read, ReadFill, Dram, WriteRequest, Write, Atomic, WaitFill, Respond, Acked };
    Op op = Op::Read;
    bool flag = false;  // Read(Fill): the line's first sector; Dram: a write; Write: a whole sector; Atomic: floating point
    uint32_t n = 0;     // Read(Fill), WaitFill: the fill (kNoFill: none); Dram: bytes; Atomic: the hot word's updates;
                        // Respond: cycles more (one per update to one word, without an L2)
    uint64_t address = 0;   // Respond: the request's place in its SM's order (Sm::sent)
    uint64_t value = 0;     // Atomic: the hot word; Respond: the tag
    engine::Cycle at = 0;   // when it leaves the SM; Respond, Acked: the earliest answer the SM's side allows
  };
  static constexpr uint32_t kNoFill = ~0u;
  // An L1 sector on its way, installed with a placeholder. Its time is the latest of its
  // departure and its reads; the reads' part is the settle's (fill_at_), as the SM's thread
  // may add fills while another settles earlier ones (a quantum's handed slices).
  struct Fill {
    uint64_t address;
    engine::Cycle sent;  // its departure (alone where no read of it was settled: a fault)
    SectoredCache::Placed placed = {};
  };
  struct Departed {
    uint64_t line;
    engine::Cycle at;
    size_t mshr;            // the entry it holds (when limited)
    engine::Cycle arrives;  // when the last of its sectors is back
  };
  // What the memory system keeps per SM. Between settles, a request touches its own SM's
  // part alone, so that SMs may send on several threads. An SM that pulls its responses (in
  // a batch) keeps it so across settles too: settle() only reads it (a write there would
  // move the SM's cache lines to the settling thread and back every cycle), and the SM's
  // first send of a later cycle (or its quantum's start), once every earlier cycle is
  // settled, clears what was settled and gives its L1 the fills' times; its counts stay in
  // `front`, which stats() adds. Kept over several cycles (an SM running ahead), its
  // requests are settled cycle by cycle (settle_through), each cycle's entries from where
  // `starts` says.
  struct alignas(64) Sm {  // on lines of its own: each is written by its SM's thread
    std::optional<SectoredCache> l1;
    MshrFile mshrs;
    engine::Cycle miss_port_free = 0;  // when the L1 can send the next line request to L2
    WriteCombiner combining;
    std::vector<Below> below;  // since the last settle() (pulled: since the last cycle all of it was settled)
    std::vector<Fill> fills;
    MemoryStats front;         // what the SM's side counted since the last settle() (pulled: ever)
    bool counted = false;
    engine::Cycle below_cycle = 0;  // pulled: the cycle of `below`'s last requests
    struct CycleStart {
      engine::Cycle cycle;
      size_t index;  // in `below`
    };
    std::vector<CycleStart> starts;  // pulled: where each cycle's requests start in `below`
    // In a quantum (begin_quantum to end_quantum): `below` is not cleared at a cycle's first
    // send, and, on several threads, each slice's is handed over (hand_off) to be settled by
    // another thread while the SM sends on.
    bool ahead = false;
    struct Handed {
      std::vector<Below> below;
      std::vector<CycleStart> starts;
    };
    std::vector<Handed> handed;  // by slice (sized at begin_quantum: another thread reads it)
    uint64_t cleared = 0;            // pulled: entries of `below` cleared so far (settled_ counts on)
    uint64_t sent = 0;               // requests sent so far: their responses' order within a cycle
    // Scratch, reused by every request.
    std::vector<Departed> departed;
    std::vector<Transaction> tx;
    std::vector<uint64_t> lines;
    bool one_run = false;              // the request's lanes are one run (memory::one_run)
    std::vector<uint32_t> bank_load;   // banked_lookup's scratch
    std::vector<uint32_t> bank_lines;  // per data bank: which of the lines it serves
    std::vector<bool> merged;          // per line of `lines`: a store merging with a held write
    std::vector<SectorBytes> written;  // a store's bytes per sector (memory/sector_lanes.hpp)
    std::vector<SectorHot> hot;        // an atomic's hot word per sector
    util::FirstSeen departed_lines;    // the lines of `departed` (last: its table is seldom touched)
  };
  // Does one SM's steps below. An SM that does not pull its responses then clears them and
  // gives its L1's sectors on their way their times (settle_below); one that does gets them
  // at its next send instead, on its own thread: the L1 is the SM's alone (not coherent)
  // and only its sends read it.
  // `keep`: its responses are kept for end_quantum (respond_later).
  void do_below(uint32_t sm_index, std::span<const Below> steps, bool keep);
  // A pulled SM's entries of `below` in [settled, to): done, in order.
  // `keep`: its responses are kept for end_quantum (respond_later).
  void settle_pulled(uint32_t sm_index, size_t to, bool keep = false);
  void settle_below(uint32_t sm_index);
  // A pulled SM's entries of `below`, every one settled: cleared, and its fills' times given
  // to its L1 (its first send of a cycle, its quantum's start, rerouting).
  bool all_settled(uint32_t sm_index) const {
    return settled_[sm_index] == sms_[sm_index].cleared + sms_[sm_index].below.size();
  }
  void clear_settled(uint32_t sm_index);
  void resolve_fills(uint32_t sm_index);
  void count_request(Sm& sm, const MemoryRequest& r);
  Accepted store(const MemoryRequest& r, engine::Cycle now);
  // Bytes of the sector at `sector` that a request whose lanes are one run of bytes from lane
  // 0's address (a full warp of consecutive elements) writes.
  static uint32_t run_bytes_in(const MemoryRequest& r, uint64_t sector, uint32_t sector_bytes);
  Accepted load(const MemoryRequest& r, engine::Cycle now);
  // atom and red where there is an L2: each sector's updates go to the line's slice.
  Accepted atomic(const MemoryRequest& r, engine::Cycle now);
  // One wavefront per line, the data stage busy as long.
  static Accepted per_line(const Sm& sm);
  // A cached load's cycles in the L1 (lookup_banks): its busiest lookup bank's lines, or its
  // busiest data bank's distinct lines, whichever is more.
  Accepted banked_lookup(Sm& sm, const MemoryRequest& r);
  // One sector from the L2, left for settle(); `fill`: the L1 sector it brings (kNoFill: none);
  // `requested`: the line of this request read last (a line's first sector carries its request).
  // `last`: the fill's last sector, after which the answer waits for the fill.
  void read_below(Sm& sm, uint64_t address, engine::Cycle sent, uint64_t& requested, uint32_t fill, bool last = false);
  // `at`, an L2 answer's time at the average SM, at SM `sm` (its distance on the crossbar).
  engine::Cycle from_l2(uint32_t sm, engine::Cycle at) const;
  // When the request for `address`'s line leaves the SM: the miss port sends one line per
  // l1.miss_line_cycles, and each line takes a miss-status register until its data returns.
  engine::Cycle depart(Sm& sm, uint64_t address, engine::Cycle now);
  bool through_l1(const MemoryRequest& r) const;
  // The lines of sm.tx, in order of first touch.
  void count_lines(Sm& sm);

  MemoryConfig config_;
  const CoalescingRule& coalescing_;
  Dram dram_;
  std::optional<L2> l2_;
  std::vector<Sm> sms_;
  uint32_t line_bytes_;  // an L1 line: a wavefront of the load/store pipeline
  uint32_t line_shift_;  // its log2 (a power of two: shifts, not divisions, on every access)
  uint64_t line_of(uint64_t address) const { return address >> line_shift_; }
  int64_t l1_bytes_ = 0;  // the L1s' capacity for the running kernel
  engine::Cycle writes_acked_ = 0;  // when the last write (store, reduction) so far is acknowledged
  // Per SM, kept by settle() apart from sms_: how many of a pulled SM's entries of `below` it
  // has done, ever (less Sm::cleared: the first in `below` not yet done), so that it does
  // each once.
  std::vector<uint64_t> settled_;
  struct CycleOf {  // settle_until's: SM `sm`'s requests of `cycle` end at `to` in its `below`
    engine::Cycle cycle;
    uint32_t sm;
    size_t from, to;
  };
  // `cycles`, gathered in SM order, into (cycle, SM) order: counted by cycle (their cycles
  // lie in [from, to), a quantum), which keeps the SM order within one.
  void order_by_cycle(std::vector<CycleOf>& cycles, engine::Cycle from, engine::Cycle to);
  std::vector<CycleOf> quantum_, ordered_;
  std::vector<uint32_t> per_cycle_;
  // Per SM, the settle's: each fill's time (Fill), by index.
  std::vector<std::vector<engine::Cycle>> fill_at_;
  bool fronts_kept_ = false;  // some pulled SM keeps its counts in its `front`

};

}  // namespace gpusim::memory
