// Microbenchmarks that each isolate one parameter of the timing model. Results are
// written out so the compiler keeps the work; workloads/micro_*.yaml run them.

// Nothing at all: what one launch costs (with many tiny blocks: what a block costs).
extern "C" __global__ void empty_kernel(int* out) {
  if (out == nullptr) out[0] = 1;  // never true; keeps the parameter
}

// One dependent chain of `n` FP32 FMAs per thread: n x the dependent-issue latency.
extern "C" __global__ void fp32_chain(float* out, int n, float a, float b) {
  float x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    x = fmaf(x, a, b);
    x = fmaf(x, a, b);
    x = fmaf(x, a, b);
    x = fmaf(x, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// The same with integer multiply-adds.
extern "C" __global__ void int_chain(int* out, int n, int a, int b) {
  int x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    x = x * a + b;
    x = x * a + b;
    x = x * a + b;
    x = x * a + b;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// The same with FP64 multiply-adds.
extern "C" __global__ void fp64_chain(double* out, int n, double a, double b) {
  double x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    x = fma(x, a, b);
    x = fma(x, a, b);
    x = fma(x, a, b);
    x = fma(x, a, b);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// A dependent chain through the special-function unit: x = 2^x / 2 stays in [0.5, 1), so
// each step is one MUFU.EX2 and one FMUL on the GPU and in gpusim alike.
extern "C" __global__ void sfu_chain(float* out, int n) {
  float x = 0.5f + threadIdx.x * (0.25f / 32);
  for (int i = 0; i < n; ++i) {
    float y;
    asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    x = y * 0.5f;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Dependent integer remainders by a run-time divisor, x = (x * 7 + 13) % d: 32-bit
// unsigned (wide == 0) or 64-bit signed (wide != 0). GPUs have no integer divider; SASS
// expands each into a sequence. One warp gives the sequence's latency, a full GPU its
// issue cost.
extern "C" __global__ void int_rem_chain(unsigned* out, int n, int d, int wide) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (!wide) {
    unsigned x = threadIdx.x;
    for (int i = 0; i < n; ++i) x = (x * 7u + 13u) % static_cast<unsigned>(d);
    out[t] = x;
  } else {
    long long x = threadIdx.x;
    for (int i = 0; i < n; ++i) x = (x * 7 + 13) % static_cast<long long>(d);
    out[t] = static_cast<unsigned>(x);
  }
}

// One thread chases `hops` indices through shared memory (`stride` words apart): the
// shared-memory load latency plus the loop's arithmetic.
extern "C" __global__ void shared_chase(unsigned* out, int hops, int stride) {
  __shared__ unsigned ring[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) ring[i] = (i + stride) % 1024;
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned p = 0;
  for (int h = 0; h < hops; ++h) p = ring[p];
  out[blockIdx.x] = p;
}

// All 32 lanes of a warp chase through shared memory at once. Lane l starts at word
// l * spread and every hop moves each lane one row of 32 words on, so a lane keeps its
// bank: spread 1 puts the lanes in 32 banks (no conflict), spread 2 two lanes per bank,
// spread 32 all lanes in bank 0 (a 32-way conflict on every hop).
extern "C" __global__ void shared_conflict_chase(unsigned* out, int hops, int spread) {
  constexpr int kWords = 4096;
  __shared__ unsigned ring[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) ring[i] = (i + 32) % kWords;
  __syncthreads();
  unsigned p = (threadIdx.x * spread) % kWords;
  for (int h = 0; h < hops; ++h) p = ring[p];
  out[threadIdx.x] = p;
}

// Each lane stores `reps` times to shared memory at word (lane * spread + 32 * k) % 4096:
// spread 1 puts the lanes in 32 banks, 32 all in bank 0. The banks' cost of conflicting
// stores (micro_shared_conflicts and micro_shared_bandwidth measure loads).
extern "C" __global__ void shared_conflict_store(unsigned* out, int reps, int spread) {
  constexpr int kWords = 4096;
  __shared__ unsigned ring[kWords];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  volatile unsigned* v = ring;
  for (int k = 0; k < reps; ++k) v[(lane * spread + 32 * (k + warp)) % kWords] = k;
  __syncthreads();
  out[threadIdx.x] = ring[threadIdx.x % kWords];
}

// `n` back-to-back barriers in a block of blockDim.x threads.
extern "C" __global__ void sync_loop(int* out, int n) {
  int x = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    x ^= i;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Where each block ran: out[block] = %smid, the order blocks land on SMs.
extern "C" __global__ void block_placement(unsigned* out) {
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    out[blockIdx.x] = sm;
  }
}

// Each thread walks its own row of `cols` floats `reps` times (rows `cols` floats apart): after
// the first pass every load hits in L1 when the block's rows fit, so the time tells the L1's
// capacity. Dynamic shared memory the launch reserves (and never touches) makes the driver
// pick a larger shared carve-out, and so a smaller L1.
extern "C" __global__ void row_walk(const float* a, float* out, int cols, int reps) {
  extern __shared__ float unused[];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const float* row = a + static_cast<long long>(t) * cols;
  float sum = 0.0f;
  for (int r = 0; r < reps; ++r)
    for (int k = 0; k < cols; ++k) sum += row[k];
  out[t] = sum + (cols < 0 ? unused[0] : 0.0f);
}

// One thread chases a ring through L1 (plain loads, cached in L1): `next` holds the ring,
// written by pointer_chase mode 0 with a stride in elements. `hops` loads, each dependent.
extern "C" __global__ void l1_chase(const unsigned* next, unsigned* out, int hops) {
  unsigned p = 0;
  for (int h = 0; h < hops; ++h) p = next[p];
  out[0] = p;
}

// Each thread sums `reps` elements `stride` floats apart from its own start, the threads'
// starts `stride` apart too: stride 32 gives every lane its own line (32 lines per warp
// request), stride 8 its own sector (8 lines), stride 1 one line. The loads are independent,
// so the rate at which an SM gets lines from L2 shows.
extern "C" __global__ void scattered_sum(const float* in, float* out, int stride, int n, int reps) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (int r = 0; r < reps; ++r) sum += in[(static_cast<long long>(t + r * threads) * stride) % n];
  out[t] = sum;
}

// Like scattered_sum over a power-of-two array (`mask` = n - 1) without the 64-bit remainder,
// so the loads, not the address arithmetic, set the pace.
extern "C" __global__ void masked_sum(const float* in, float* out, int stride, int mask, int reps) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x, threads = gridDim.x * blockDim.x;
  float sum = 0.0f;
  for (int r = 0; r < reps; ++r) sum += in[((t + r * threads) * stride) & mask];
  out[t] = sum;
}

// Memory-level parallelism with few warps: each thread reads `per_thread` floats, a row of
// the grid's threads apart (each warp load is one whole line), 8 independent loads at a
// time. With w warps per SM, 8w lines are in flight per SM: the time per line shows the
// latency a streaming load sees (no dependent address, unlike a pointer chase).
extern "C" __global__ void stream_lines(const float* a, float* out, int per_thread) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[8] = {};
  for (int i = 0; i < per_thread; i += 8) {
#pragma unroll
    for (int d = 0; d < 8; ++d) acc[d] += a[static_cast<long long>(i + d) * threads + t];
  }
  float sum = 0.0f;
#pragma unroll
  for (int d = 0; d < 8; ++d) sum += acc[d];
  out[t] = sum;
}

// Stores into data the L2 holds: 2^shift lanes write each 32-byte sector's first words (shift
// 3: whole sectors, 4 per warp store; shift 0: 4 bytes of each of 32 sectors), `reps` times
// over an array of mask + 1 floats. How fast the L2 takes whole and partial sectors.
extern "C" __global__ void sector_stores(float* y, int shift, int mask, int reps) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < reps; ++r) {
    const int i = t + r * threads;
    y[((i >> shift) * 8 + (i & ((1 << shift) - 1))) & mask] = static_cast<float>(r);
  }
}

// One thread chases a ring with ld.global.ca (cached in L1 on every generation with an L1,
// also where plain global loads are not): the L1 hit latency of validate/published_latencies.py.
extern "C" __global__ void ca_chase(const unsigned* next, unsigned* out, int hops) {
  unsigned p = 0;
  for (int h = 0; h < hops; ++h) p = __ldca(&next[p]);
  out[0] = p;
}

// A plain loop over whole lines, one load a trip in the source (micro_unroll). The compilers
// decide how many loads are in flight: NVVM unrolls the loop 4 times in the PTX and ptxas 4
// times more in SASS, hoisting the 16 loads ahead of the adds. The variants pin it: no
// unrolling at all (the SASS loop has one load), or 32 copies in the PTX.
extern "C" __global__ void stream_loop(const float* a, float* out, int n) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += a[static_cast<long long>(i) * threads + t];
  out[t] = s;
}

extern "C" __global__ void stream_loop_nounroll(const float* a, float* out, int n) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
#pragma unroll 1
  for (int i = 0; i < n; ++i) s += a[static_cast<long long>(i) * threads + t];
  out[t] = s;
}

extern "C" __global__ void stream_loop_unroll32(const float* a, float* out, int n) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
#pragma unroll 32
  for (int i = 0; i < n; ++i) s += a[static_cast<long long>(i) * threads + t];
  out[t] = s;
}

// One thread sums 4-byte words in order and stores each running sum (scan_serial's loop):
// ptxas hoists the loads of 16 trips above their stores, so one line serves 16 loads at once.
extern "C" __global__ void serial_running_sum(int* data, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += data[i];
    data[i] = sum;
  }
}

// Lines in flight from one warp: each warp walks its own `groups * K` lines, `stride` floats
// apart, K independent whole-line loads at a time (then their K adds, so a group ends when its
// last line is back). How the time per group grows with K separates the latency (one per
// group) from what each further line in flight costs the warp.
template <int K>
__device__ void lines_in_flight(const float* a, float* out, int groups, long long stride) {
  const int lane = threadIdx.x & 31;
  const long long warp = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) >> 5;
  const float* base = a + warp * groups * K * stride + lane;
  float acc = 0.0f;
#pragma unroll 1
  for (int g = 0; g < groups; ++g) {
    float v[K];
#pragma unroll
    for (int d = 0; d < K; ++d) v[d] = base[(static_cast<long long>(g) * K + d) * stride];
#pragma unroll
    for (int d = 0; d < K; ++d) acc += v[d];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
extern "C" __global__ void lines_in_flight_1(const float* a, float* out, int g, long long s) { lines_in_flight<1>(a, out, g, s); }
extern "C" __global__ void lines_in_flight_2(const float* a, float* out, int g, long long s) { lines_in_flight<2>(a, out, g, s); }
extern "C" __global__ void lines_in_flight_4(const float* a, float* out, int g, long long s) { lines_in_flight<4>(a, out, g, s); }
extern "C" __global__ void lines_in_flight_8(const float* a, float* out, int g, long long s) { lines_in_flight<8>(a, out, g, s); }
extern "C" __global__ void lines_in_flight_16(const float* a, float* out, int g, long long s) { lines_in_flight<16>(a, out, g, s); }
extern "C" __global__ void lines_in_flight_32(const float* a, float* out, int g, long long s) { lines_in_flight<32>(a, out, g, s); }

// L2 read bandwidth: every thread reads 4 floats `threads` apart per step, coalesced, over
// an array of n floats (n a multiple of 4 x threads), `passes` times, past the L1 (ld.global.cg:
// each SM's share would fit there). With the array in the L2, what it delivers per cycle.
extern "C" __global__ void l2_read_passes(const float* a, float* out, int n, int passes) {
  const int threads = gridDim.x * blockDim.x, t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int p = 0; p < passes; ++p)
    for (int i = t; i < n; i += 4 * threads) acc += __ldcg(&a[i]) + __ldcg(&a[i + threads]) + __ldcg(&a[i + 2 * threads]) + __ldcg(&a[i + 3 * threads]);
  out[t] = acc;
}

// How a DRAM access's latency depends on how much of the line a warp reads: each warp walks
// `groups` lines `stride` floats apart, one at a time, and only its first `lanes` lanes load
// (8: one sector, 16: two, 32: the whole line).
extern "C" __global__ void sectors_in_flight(const float* a, float* out, int groups, long long stride, int lanes) {
  const int lane = threadIdx.x & 31;
  const long long warp = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) >> 5;
  const float* base = a + warp * groups * stride + lane;
  float acc = 0.0f;
  if (lane < lanes) {
#pragma unroll 1
    for (int g = 0; g < groups; ++g) acc += base[g * stride];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// One thread walks a ring of shared-memory addresses (each word holds the next word's address
// in the shared window), so nothing but the loads is on the chain: the load-to-load latency
// that papers timing bare LDS chains report (validate/published_latencies.py's shared_load).
extern "C" __global__ void shared_load_chain(unsigned* out, int hops, int stride) {
  __shared__ unsigned ring[1024];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) ring[i] = base + 4u * ((i + stride) % 1024);
  __syncthreads();
  if (threadIdx.x != 0) return;
  unsigned p = base;
  for (int h = 0; h < hops; ++h) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p));
  out[blockIdx.x] = p;
}

// Store rates by pattern (validate/probes/store_path.py). Each warp makes `reps` store requests
// of one 4-byte word per lane: 2^lps_log2 lanes fill one 32-byte sector together (3: whole
// sectors, 0: one word of each), a request touches 2^spl_log2 sectors of each of its lines, and
// its lines follow the previous request's, wrapping in line_mask + 1 lines. With combine_log2 > 0,
// 2^combine_log2 successive requests of a warp write the other words of the same sectors.
extern "C" __global__ void store_pattern(float* y, int lps_log2, int spl_log2, int reps, int line_mask, int combine_log2) {
  const int lane = threadIdx.x & 31;
  const long long warp = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) >> 5;
  const int sector = lane >> lps_log2, word = lane & ((1 << lps_log2) - 1);
  const int lines_log2 = 5 - lps_log2 - spl_log2;  // lines per request
  const int line_in = sector >> spl_log2, sector_in = sector & ((1 << spl_log2) - 1);
  const int combined = (1 << combine_log2) - 1;
  for (int r = 0; r < reps; ++r) {
    const long long q = (warp * reps + r) >> combine_log2;
    const long long line = ((q << lines_log2) + line_in) & line_mask;
    y[line * 32 + sector_in * 8 + word + ((r & combined) << lps_log2)] = static_cast<float>(r);
  }
}

// Which lines share an L2 atomic unit (validate/probes/atomic_units.py): even warps add to the
// 32 words of line `first_line` past the first 1 KB boundary in `a` (which lines share depends
// on where they lie), odd warps to those of the line `offset_lines` further on.
extern "C" __global__ void atomic_pair(unsigned* a, long long first_line, long long offset_lines, int reps) {
  a = reinterpret_cast<unsigned*>((reinterpret_cast<unsigned long long>(a) + 1023) & ~1023ull) + first_line * 32;
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned* word = a + ((warp & 1) ? offset_lines * 32 : 0) + lane;
  for (int r = 0; r < reps; ++r) atomicAdd(word, 1u);
}

// Many SMs reading the same lines at once: block b reads region b % regions of `region`
// floats (a multiple of 4 x blockDim.x), `passes` times, past the L1 (ld.global.cg), 4
// coalesced loads per thread per step. regions = 1: every block reads the same lines (as
// conv_columns' neighbouring rows do); regions = the grid: each block its own.
extern "C" __global__ void region_read(const float* a, float* out, int region, int regions, int passes) {
  const float* base = a + static_cast<long long>(blockIdx.x % regions) * region;
  const int step = blockDim.x;
  float acc = 0.0f;
  for (int p = 0; p < passes; ++p)
    for (int i = threadIdx.x; i < region; i += 4 * step)
      acc += __ldcg(&base[i]) + __ldcg(&base[i + step]) + __ldcg(&base[i + 2 * step]) + __ldcg(&base[i + 3 * step]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Random gathers, as SpMV's x[cols[k]]: each of the first `lanes` lanes of a warp reads one
// float at a hashed index below `floats` (a power of two), `reps` times, through the L1.
// The table's size decides where the lines come from (L1, L2); `lanes` how many lines a
// request needs.
extern "C" __global__ void gather_random(const float* table, float* out, int floats, int lanes, int reps) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  if ((threadIdx.x & 31) < lanes) {
    unsigned h = t * 2654435761u;
    for (int r = 0; r < reps; ++r) {
      h = h * 1664525u + 1013904223u;
      acc += table[(h >> 7) & (floats - 1)];
    }
  }
  out[t] = acc;
}

// L1 hits whose lines and banks are chosen: lane i reads line i % `lines` of a 16 KB table
// that stays in every SM's L1, at word 0 of it (`same_word`: every lane in bank 0) or at word i
// (each lane its own bank). `reps` requests per warp at line-aligned offsets that move.
extern "C" __global__ void l1_lines_banks(const float* table, float* out, int lines, int same_word, int reps) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int offset = (lane % lines) * 32 + (same_word ? 0 : lane);
  float acc = 0.0f;
  for (int r = 0; r < reps; ++r) acc += table[(((warp * 7 + r * 5) & 127) * 32 + offset) & 4095];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// region_read through the L1 (plain loads, which allocate there); read once, so nothing hits.
extern "C" __global__ void region_read_l1(const float* a, float* out, int region, int regions) {
  const float* base = a + static_cast<long long>(blockIdx.x % regions) * region;
  const int step = blockDim.x;
  float acc = 0.0f;
  for (int i = threadIdx.x; i < region; i += 4 * step) acc += base[i] + base[i + step] + base[i + 2 * step] + base[i + 3 * step];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
