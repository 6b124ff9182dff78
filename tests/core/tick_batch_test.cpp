// SMs ticking in batches (--threads): the global stores an SM's cycle holds back, which
// kernels run their SMs in order and why, and one launch on 1 and 3 threads and without a
// batch alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "core/tick_batch.hpp"
#include "core/timed_kernel.hpp"
#include "exec/store_log.hpp"
#include "util/bytes.hpp"

namespace gpusim::core {
namespace {

TEST(StoreLog, ReadsSeeTheCyclesStoresAndMemoryGetsThemInOrder) {
  std::array<uint8_t, 16> memory{};
  for (uint8_t i = 0; i < 16; ++i) memory[i] = i;
  exec::StoreLog log;
  EXPECT_FALSE(log.overlaps(memory.data(), 16));
  const uint32_t a = 0xAAAAAAAAu, b = 0xBBBBu;
  log.add(&memory[4], &a, 4);  // bytes 4-7
  log.add(&memory[6], &b, 2);  // bytes 6-7 again: the later store wins
  EXPECT_EQ(memory[4], 4);     // memory untouched until applied
  EXPECT_TRUE(log.overlaps(&memory[7], 4));
  EXPECT_FALSE(log.overlaps(&memory[8], 8));
  std::array<uint8_t, 8> seen{};
  log.read(&memory[2], seen.data(), 8);  // bytes 2-9
  EXPECT_EQ(seen, (std::array<uint8_t, 8>{2, 3, 0xAA, 0xAA, 0xBB, 0xBB, 8, 9}));
  log.apply();
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(memory[3], 3);
  EXPECT_EQ(memory[5], 0xAA);
  EXPECT_EQ(memory[6], 0xBB);
  EXPECT_EQ(memory[8], 8);
}

// A lane's store (a word, add_word) and a run of a warp's (more than 8 bytes, add) are kept
// apart in the log; reads and the apply still take every store in the order made.
TEST(StoreLog, LaneWordsAndRunsAreAppliedInTheOrderMade) {
  std::array<uint8_t, 24> memory{};
  exec::StoreLog log;
  std::array<uint8_t, 16> run{};
  for (uint8_t i = 0; i < 16; ++i) run[i] = static_cast<uint8_t>(0x10 + i);
  log.add_word(&memory[2], 0x1122334455667788ull, 8);  // bytes 2-9: 88 77 66 55 44 33 22 11
  log.add(&memory[4], run.data(), 16);                 // bytes 4-19 over it
  log.add_word(&memory[18], 0xEEDDCCBBAAull, 1);       // byte 18: only the lowest, AA
  log.add_word(&memory[20], 0xFFFF0102u, 2);           // bytes 20-21: 02 01
  std::array<uint8_t, 24> seen{};
  log.read(memory.data(), seen.data(), 24);
  const std::array<uint8_t, 24> want{0,    0,    0x88, 0x77, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
                                     0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0xAA, 0x1F, 0x02, 0x01, 0,    0};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(memory[2], 0);  // untouched until applied
  log.apply();
  EXPECT_EQ(memory, want);
  EXPECT_TRUE(log.empty());
  log.add_word(&memory[0], 0x5A, 1);  // after the apply, a new word starts the log again
  log.apply();
  EXPECT_EQ(memory[0], 0x5A);
  EXPECT_EQ(memory[2], 0x88);
}

// Reductions (red on global memory, with stores held back) in the log: each in its place
// among the stores, on its word as the entries before it leave it, in reads (whole words and
// a byte of one) and in the apply, and each cycle's after the one before in every log.
TEST(StoreLog, ReductionsApplyInTheirPlaceAmongTheStores) {
  using kernel::AtomOp;
  using kernel::DataType;
  std::array<uint8_t, 16> memory{};
  memory[0] = 10;  // word 0: 10
  exec::StoreLog log;
  log.set_cycle(3);
  log.add_reduction(&memory[0], 5, 4, exec::reduction_how(AtomOp::Add, DataType::U32));  // 15
  log.add_word(&memory[0], 100, 4);                                                       // 100
  log.add_reduction(&memory[0], 7, 4, exec::reduction_how(AtomOp::Add, DataType::U32));  // 107
  log.add_reduction(&memory[0], 50, 4, exec::reduction_how(AtomOp::Min, DataType::U32));  // 50
  // Word 1: 0xFFFFFFFF + 2 wraps to 1 in 32 bits; the s32 max of 1 and -3 keeps 1.
  log.add_reduction(&memory[4], 0xFFFFFFFFu, 4, exec::reduction_how(AtomOp::Add, DataType::U32));
  log.add_reduction(&memory[4], 2, 4, exec::reduction_how(AtomOp::Add, DataType::U32));
  log.add_reduction(&memory[4], 0xFFFFFFFDu, 4, exec::reduction_how(AtomOp::Max, DataType::S32));
  // Word 2 (8 bytes): 1.5 + 2.25 in f64.
  log.add_word(&memory[8], std::bit_cast<uint64_t>(1.5), 8);
  log.add_reduction(&memory[8], std::bit_cast<uint64_t>(2.25), 8, exec::reduction_how(AtomOp::Add, DataType::F64));
  EXPECT_TRUE(log.overlaps(&memory[4], 1));
  EXPECT_EQ(memory[0], 10);  // untouched until applied
  std::array<uint32_t, 2> words{};
  log.read(memory.data(), words.data(), 8);
  EXPECT_EQ(words[0], 50u);
  EXPECT_EQ(words[1], 1u);
  uint8_t byte = 0xCC;
  log.read(&memory[4], &byte, 1);  // a byte of a reduced word: its low byte, 1
  EXPECT_EQ(byte, 1);
  double sum = 0;
  log.read(&memory[8], &sum, 8);
  EXPECT_EQ(sum, 3.75);
  // A warp's lanes on one word (a counter): each read takes each update once, in order.
  exec::StoreLog counter;
  std::array<uint8_t, 8> count{};
  for (int lane = 0; lane < 64; ++lane)
    counter.add_reduction(&count[4], 1, 4, exec::reduction_how(AtomOp::Add, DataType::U32));
  uint32_t total = 0;
  counter.read(&count[4], &total, 4);
  EXPECT_EQ(total, 64u);
  uint16_t straddle = 0;
  counter.read(&count[3], &straddle, 2);  // bytes 3-4: 0, then the count's low byte
  EXPECT_EQ(straddle, 64 << 8);
  uint8_t low = 0;
  counter.read(&count[4], &low, 1);
  EXPECT_EQ(low, 64);
  // A second SM's log of cycle 2 (applied first) and of cycle 3 (after the first log's).
  exec::StoreLog other;
  other.set_cycle(2);
  other.add_reduction(&memory[0], 90, 4, exec::reduction_how(AtomOp::Max, DataType::U32));  // max(10, 90)
  other.set_cycle(3);
  other.add_reduction(&memory[0], 3, 4, exec::reduction_how(AtomOp::Xor, DataType::B32));  // after the first log's
  std::vector<exec::StoreLog*> logs{&log, &other};
  std::vector<exec::StoreLog::PartOf> scratch;
  exec::StoreLog::apply_in_cycle_order(logs, scratch);
  uint32_t word0 = 0, word1 = 0;
  std::memcpy(&word0, &memory[0], 4);
  std::memcpy(&word1, &memory[4], 4);
  EXPECT_EQ(word0, 49u);  // 90, + 5, then 100, + 7, min 50, then xor 3
  EXPECT_EQ(word1, 1u);
  std::memcpy(&sum, &memory[8], 8);
  EXPECT_EQ(sum, 3.75);
}

// A warp's lane stores logged together (add_words) are the same as add_word lane by lane:
// in the order given (a later lane over an earlier one, and over what came before), the
// logged range from the lowest lane to the highest's last byte, each cycle's part apart.
TEST(StoreLog, AWarpsLaneWordsLoggedTogetherActAsLaneByLane) {
  std::array<uint8_t, 32> memory{};
  exec::StoreLog log;
  log.set_cycle(7);
  log.add_word(&memory[12], 0x0000FFFFu, 4);  // bytes 12-15: FF FF 00 00
  // Lanes out of address order (the first is not the lowest), two of them on byte 13 (the later wins).
  std::array<uint8_t*, 4> to{&memory[20], &memory[8], &memory[13], &memory[13]};
  const std::array<uint64_t, 4> words{0xA1A2, 0xB1B2, 0xC1C2, 0xD1D2};
  log.add_words(to.data(), words.data(), 4, 2);
  EXPECT_FALSE(log.overlaps(&memory[0], 8));  // bytes 0-7: nothing logged
  EXPECT_TRUE(log.overlaps(&memory[7], 2));   // byte 8: lane 1's
  EXPECT_TRUE(log.overlaps(&memory[21], 1));  // byte 21: lane 0's high byte
  EXPECT_FALSE(log.overlaps(&memory[22], 10));
  std::array<uint8_t, 16> seen{};
  log.read(&memory[8], seen.data(), 16);
  // 8-9: B2 B1; 12: FF; 13-14: D2 D1 (lane 3 over lane 2 over the word); 15: 00; 20-21: A2 A1.
  const std::array<uint8_t, 16> want{0xB2, 0xB1, 0, 0, 0xFF, 0xD2, 0xD1, 0, 0, 0, 0, 0, 0xA2, 0xA1, 0, 0};
  EXPECT_EQ(seen, want);
  // Cycle 8's lanes after cycle 7's: an apply in cycle order leaves the later on top.
  log.set_cycle(8);
  std::array<uint8_t*, 1> again{&memory[9]};
  const std::array<uint64_t, 1> late{0xEE};
  log.add_words(again.data(), late.data(), 1, 1);
  exec::StoreLog none;
  none.add_words(again.data(), late.data(), 0, 1);  // no lanes (every one off the device): nothing logged
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.overlaps(&memory[9], 1));
  std::vector<exec::StoreLog*> logs{&log};
  std::vector<exec::StoreLog::PartOf> scratch;
  exec::StoreLog::apply_in_cycle_order(logs, scratch);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(memory[8], 0xB2);
  EXPECT_EQ(memory[9], 0xEE);
  EXPECT_EQ(memory[13], 0xD2);
  EXPECT_EQ(memory[14], 0xD1);
  EXPECT_EQ(memory[15], 0);
  EXPECT_EQ(memory[21], 0xA1);
}

TEST(TickBatch, KernelsWhoseSmsMeetWithinACycleRunThemInOrder) {
  const arch::ArchConfig hopper = arch::load_arch_config(test::config_path("hopper"), {});
  engine::EventQueue events;
  const auto memory = [&](const std::vector<std::string>& sets) {
    const arch::ArchConfig a = arch::load_arch_config(test::config_path("hopper"), sets);
    return memory::MemorySystemRegistry::instance().make(a.memory.model, a.memory, {events, 132, 1980});
  };
  const auto hierarchy = memory({});
  kernel::Program plain;
  plain.code.resize(3);
  exec::LaunchConfig launch;
  EXPECT_EQ(TickBatch::in_order_because(plain, launch, false, *hierarchy), "");
  kernel::Program atomics = plain;
  const std::string ordered =
      "its atomics on memory other blocks see return values it reads, compare and swap, or use generic addresses";
  kernel::Instruction& atomic = atomics.code[1];
  atomic.dst.kind = kernel::Operand::Kind::Reg;
  atomic.dst.reg = 5;
  kernel::Instruction& user = atomics.code[2];  // reads register 5, or not
  user.num_src = 1;
  user.src[0].kind = kernel::Operand::Kind::Reg;
  using kernel::StateSpace;
  for (StateSpace space : {StateSpace::Global, StateSpace::Generic, StateSpace::Shared}) {
    SCOPED_TRACE(static_cast<int>(space));
    atomic.space = space;
    // Shared memory is its block's alone; a generic address may name it, which the log does
    // not hold; on global memory only a value read, or a compare-and-swap, needs the order.
    const auto expect = [&](bool order_on_global) {
      const bool order = space == StateSpace::Generic || (space == StateSpace::Global && order_on_global);
      EXPECT_EQ(TickBatch::in_order_because(atomics, launch, false, *hierarchy), order ? ordered : "");
    };
    atomic.op = kernel::Opcode::Atom;
    atomic.mode = static_cast<uint8_t>(kernel::AtomOp::Add);
    user.src[0].reg = 5;
    expect(true);
    user.src[0].reg = 6;  // its value unread: held back with the stores, in their order
    expect(false);
    atomic.mode = static_cast<uint8_t>(kernel::AtomOp::Cas);  // two operands: not held back
    expect(true);
    atomic.op = kernel::Opcode::Red;
    atomic.mode = static_cast<uint8_t>(kernel::AtomOp::Add);
    expect(false);
  }
  kernel::Program printing = plain;
  printing.call_sites.push_back({static_cast<int32_t>(kernel::Builtin::Vprintf), 0, {}, 0, 0});
  EXPECT_EQ(TickBatch::in_order_because(printing, launch, false, *hierarchy), "it calls printf");
  EXPECT_EQ(TickBatch::in_order_because(plain, launch, true, *hierarchy), "--source counts each instruction's L2 accesses");
  exec::OutOfBoundsLog log;
  launch.out_of_bounds = &log;
  EXPECT_EQ(TickBatch::in_order_because(plain, launch, false, *hierarchy),
            "--out-of-bounds continue logs accesses in the order run");
  launch.out_of_bounds = nullptr;
  EXPECT_EQ(TickBatch::in_order_because(plain, launch, false, *memory({"memory.l1.mshrs=8"})),
            "the memory system's SM side waits on its shared part");
  EXPECT_EQ(TickBatch::in_order_because(plain, launch, false, *memory({"memory.model=fixed_latency"})),
            "the memory system's SM side waits on its shared part");
}

// 264 blocks of 256 threads through the modelled hierarchy on Hopper's 132 SMs, each running
// `body` (by default a load, 24 instructions in four chains and a store): the launch's report
// and its output (a word per thread, then kSpareBytes of zeros).
constexpr uint32_t kSpareBytes = 64;
const std::string kChainsBody = "ld.global.f32 %f2, [%rd3];\n" + chains(24, 4) + "add.f32 %f44, %f2, %f1;\n";
std::pair<LaunchStats, util::Bytes> launch_on_hopper(const TimingOptions& options, const std::string& body = kChainsBody) {
  const arch::ArchConfig arch = arch::load_arch_config(test::config_path("hopper"), {});
  const kernel::Module m = frontend::parse_ptx(kernel(body), "batch.ptx");
  exec::DeviceMemory memory;
  const uint64_t base = memory.allocate("out", 256u * 264 * 4 + kSpareBytes, kernel::kGlobalHeapBase);
  exec::LaunchConfig launch;
  launch.grid = {264, 1, 1};
  launch.block = {256, 1, 1};
  launch.params.resize(8);
  std::memcpy(launch.params.data(), &base, 8);
  const LaunchStats s = simulate_launch(arch, m.kernels[0], memory, launch, 32, options);
  return {s, memory.find("out")->bytes};
}

// `body` timed on one thread, on two (one worker, which runs its own list without atomics),
// on three and on eight: every counter the same, and the output. Eight threads on fewer free
// cores are preempted within batches, so their SMs' cycles end in orders fewer threads do not
// give. Returns the one-thread output's words.
std::vector<uint32_t> expect_alike_on_any_threads(const std::string& body) {
  const auto run = [&body](int threads, bool profile = false) {
    TimingOptions options;
    options.threads = threads;
    options.profile = profile;  // --source: each SM ticks on its own event, in order
    return launch_on_hopper(options, body);
  };
  const auto [one, out_one] = run(1);
  EXPECT_GT(one.memory.l2_misses, 0u);
  // The cycles, every SM's and the memory system's counters, and the output: as on one thread.
  const auto expect_as_on_one = [&run, &one = one, &out_one = out_one](int threads, bool profile = false) {
    SCOPED_TRACE(std::to_string(threads) + (profile ? " thread, --source" : " threads"));
    const auto [s, out] = run(threads, profile);
    EXPECT_EQ(s.cycles, one.cycles);
    for (const auto& c : memory::MemoryStats::counters()) EXPECT_EQ(s.memory.*c.member, one.memory.*c.member) << c.name;
    ASSERT_EQ(s.per_sm.size(), one.per_sm.size());
    for (size_t i = 0; i < one.per_sm.size(); ++i)
      for (const auto& c : SmStats::counters())
        EXPECT_EQ(s.per_sm[i].*c.member, one.per_sm[i].*c.member) << "SM " << i << " " << c.name;
    EXPECT_EQ(out, out_one);
  };
  expect_as_on_one(2);
  expect_as_on_one(3);
  expect_as_on_one(8);
  // The batch keeps the SMs' next ticks in place of their events: the same ticks as the SMs'
  // own events give (--source runs without a batch), so the same stall counts cycle for cycle.
  expect_as_on_one(1, true);
  std::vector<uint32_t> words(256 * 264 + kSpareBytes / 4);
  EXPECT_EQ(out_one.size(), words.size() * 4);
  std::memcpy(words.data(), out_one.data(), std::min(out_one.size(), words.size() * 4));
  return words;
}

TEST(TickBatch, OneLaunchOnOneTwoThreeAndEightThreadsAlike) { expect_alike_on_any_threads(kChainsBody); }

// Atomics on shared memory stay within their block, so their SMs tick in batches too: as
// without a batch (--source), on any threads. Each thread adds 1, 1, 2, the word it loaded
// from global memory (0, so that warps' later atomics wait for their loads) and 1 to word
// tid % 4 of its block's four, and stores the word's final count (64 threads x 5 = 320) over
// what its first add returned.
TEST(TickBatch, SharedAtomicsOnAnyThreadsAsInOrder) {
  const std::string body =
      ".shared .align 4 .b32 counts[4];\n"
      "and.b32 %r10, %r1, 3;\nshl.b32 %r11, %r10, 2;\nmov.u32 %r12, counts;\nadd.u32 %r13, %r12, %r11;\n"
      "setp.lt.u32 %p1, %r1, 4;\n@%p1 st.shared.u32 [%r13], 0;\nbar.sync 0;\n"
      "ld.global.f32 %f2, [%rd3];\ncvt.rzi.u32.f32 %r20, %f2;\n"
      "atom.shared.add.u32 %r14, [%r13], 1;\natom.shared.add.u32 %r15, [%r13], 1;\n"
      "red.shared.add.u32 [%r13], 2;\natom.shared.add.u32 %r16, [%r13], %r20;\n"
      "atom.shared.add.u32 %r16, [%r13], 1;\nbar.sync 0;\n"
      "ld.shared.u32 %r17, [%r13];\nshl.b32 %r18, %r17, 16;\nor.b32 %r19, %r18, %r14;\nmov.b32 %f44, %r19;\n";
  const std::vector<uint32_t> words = expect_alike_on_any_threads(body);
  // Each block's four words: their 64 threads' first adds return 64 distinct counts below 320.
  for (size_t block = 0; block < 264; ++block)
    for (size_t word = 0; word < 4; ++word) {
      SCOPED_TRACE("block " + std::to_string(block) + " word " + std::to_string(word));
      std::vector<uint32_t> firsts;
      for (size_t t = word; t < 256; t += 4) {
        const uint32_t v = words[block * 256 + t];
        EXPECT_EQ(v >> 16, 320u);
        firsts.push_back(v & 0xFFFF);
      }
      std::sort(firsts.begin(), firsts.end());
      EXPECT_EQ(std::adjacent_find(firsts.begin(), firsts.end()), firsts.end());
      EXPECT_LT(firsts.back(), 320u);
    }
}

// Reductions on global memory are held back with the stores and applied in their order, so
// their SMs tick in batches too: the counters and the words as without a batch (--source), on
// any threads. Every thread adds 1 to spare word tid % 4 (64 x 264 = 16,896 each), its index
// to word 4 in f32 (rounded in the order applied), the u32 max of its index to word 5 and the
// s32 min of its negation to word 6 (67,583 threads after the first), 2 to word 7 by an atom
// whose value no instruction reads (as nvcc writes an unused atomicAdd); and 5 to its own
// word, which its next load reads back (its own reduction, still held back: 5).
TEST(TickBatch, GlobalReductionsOnAnyThreadsAsInOrder) {
  const std::string body =
      "add.s64 %rd4, %rd1, 270336;\nand.b32 %r10, %r1, 3;\nmul.wide.u32 %rd5, %r10, 4;\nadd.s64 %rd6, %rd4, %rd5;\n"
      "red.global.add.u32 [%rd6], 1;\ncvt.rn.f32.u32 %f3, %r4;\nred.global.add.f32 [%rd4+16], %f3;\n"
      "red.global.max.u32 [%rd4+20], %r4;\nneg.s32 %r11, %r4;\nred.global.min.s32 [%rd4+24], %r11;\n"
      "atom.global.add.u32 %r13, [%rd4+28], 2;\n"
      "red.global.add.u32 [%rd3], 5;\nld.global.u32 %r12, [%rd3];\nmov.b32 %f44, %r12;\n";
  const std::vector<uint32_t> words = expect_alike_on_any_threads(body);
  for (size_t i = 0; i < 256 * 264; ++i) ASSERT_EQ(words[i], 5u) << i;
  const uint32_t* spare = &words[256 * 264];
  for (int w = 0; w < 4; ++w) EXPECT_EQ(spare[w], 16896u) << w;
  EXPECT_NEAR(std::bit_cast<float>(spare[4]), 67583.0 * 67584 / 2, 67583.0 * 67584 / 2 * 1e-3);
  EXPECT_EQ(spare[5], 67583u);
  EXPECT_EQ(static_cast<int32_t>(spare[6]), -67583);
  EXPECT_EQ(spare[7], 2u * 67584);
}

// The instruction budget, counted for a whole batch where the SMs' cycles end on their own
// threads: run out within a batch, it stops the launch at the same SM's warp, in the same
// words, on one thread, on three, on eight and without a batch; a budget of exactly the
// launch's instructions lets it finish.
TEST(TickBatch, ABudgetRunOutWithinABatchStopsAtTheSameWarpOnAnyThreads) {
  // The launch's instructions, or the error that stopped it.
  const auto run = [](int threads, uint64_t budget, bool profile = false) -> std::pair<uint64_t, std::string> {
    TimingOptions options;
    options.threads = threads;
    options.profile = profile;
    options.limits.max_warp_instructions = budget;
    try {
      const LaunchStats s = launch_on_hopper(options).first;
      uint64_t instructions = 0;
      for (const SmStats& sm : s.per_sm) instructions += sm.warp_instructions;
      return {instructions, ""};
    } catch (const exec::ExecError& e) {
      return {0, e.what()};
    }
  };
  const uint64_t total = run(1, 0).first;
  // 8 warps a block, each: kernel()'s 8 of setup and 61 moves, the load, 24 in chains, the add, the store and ret.
  ASSERT_EQ(total, 264u * 8 * (8 + 61 + 1 + 24 + 1 + 2));
  for (uint64_t budget : {total, total - 1, total / 2 + 7, uint64_t{1000}}) {
    SCOPED_TRACE("budget " + std::to_string(budget));
    const auto [finished, stopped] = run(1, budget);
    if (budget == total) {
      EXPECT_EQ(finished, total);
      EXPECT_EQ(stopped, "");
    } else {
      EXPECT_NE(stopped.find("more than " + std::to_string(budget) + " warp instructions"), std::string::npos) << stopped;
    }
    for (int threads : {3, 8}) EXPECT_EQ(run(threads, budget).second, stopped) << threads << " threads";
    EXPECT_EQ(run(1, budget, true).second, stopped) << "--source";
  }
}

}  // namespace
}  // namespace gpusim::core
