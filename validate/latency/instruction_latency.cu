// Dependent-issue latency of the instructions gpusim times by class (one warp, a chain of
// 1024 dependent instructions between two clock64 reads): cycles per instruction is what
// an architecture file's `instruction_classes` latency says. Run on a GPU and in gpusim by
// validate/latency/instruction_latency.py.

constexpr int kChain = 1024;

// `lanes`: the lanes' starting values differ (threadIdx.x) or are all the same (0).
#define CHAIN_KERNEL_OF(name, op, lanes)                                                    \
  extern "C" __global__ void name(unsigned long long* cycles, unsigned* sink, unsigned seed) { \
    unsigned x = seed ^ (lanes), y = seed * 7u + 1u;                                          \
    __syncwarp();                                                                            \
    const long long t0 = clock64();                                                          \
    _Pragma("unroll 32") for (int i = 0; i < kChain; ++i) asm volatile(op : "+r"(x) : "r"(y)); \
    const long long t1 = clock64();                                                          \
    if (threadIdx.x == 0) cycles[0] = static_cast<unsigned long long>(t1 - t0);              \
    sink[threadIdx.x] = x;                                                                   \
  }

#define CHAIN_KERNEL(name, op) CHAIN_KERNEL_OF(name, op, threadIdx.x)

CHAIN_KERNEL(chain_add, "add.u32 %0, %0, %1;")
CHAIN_KERNEL(chain_prmt, "prmt.b32 %0, %0, %1, 0x1032;")
CHAIN_KERNEL(chain_shf, "shf.l.wrap.b32 %0, %0, %1, 3;")
CHAIN_KERNEL(chain_bfind, "bfind.u32 %0, %0; xor.b32 %0, %0, %1;")
CHAIN_KERNEL(chain_popc, "popc.b32 %0, %0; xor.b32 %0, %0, %1;")
CHAIN_KERNEL(chain_redux, "redux.sync.add.u32 %0, %0, 0xffffffff;")
CHAIN_KERNEL(chain_match, "match.any.sync.b32 %0, %0, 0xffffffff;")  // 32 distinct values
CHAIN_KERNEL_OF(chain_match_uniform, "match.any.sync.b32 %0, %0, 0xffffffff;", 0u)  // one value
CHAIN_KERNEL(chain_hfma2, "fma.rn.f16x2 %0, %0, %1, %1;")
CHAIN_KERNEL(chain_bf16fma2, "fma.rn.bf16x2 %0, %0, %1, %1;")

// A pointer chase through a 4 KB table: by ld.global.ca, and by cp.async of 4 bytes into
// shared memory, committed, waited for (wait_group 0) and read back.
extern "C" __global__ void chase_ld(unsigned long long* cycles, unsigned* sink, const unsigned* table) {
  unsigned i = threadIdx.x;
  for (int k = 0; k < 64; ++k) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(i) : "l"(table + i));  // warm L1
  const long long t0 = clock64();
  for (int k = 0; k < 256; ++k) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(i) : "l"(table + i));
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[0] = static_cast<unsigned long long>(t1 - t0);
  sink[threadIdx.x] = i;
}

extern "C" __global__ void chase_cp_async(unsigned long long* cycles, unsigned* sink, const unsigned* table) {
  __shared__ unsigned slot[32];
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(&slot[threadIdx.x]));
  unsigned i = threadIdx.x;
  for (int k = 0; k < 64; ++k) asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(i) : "l"(table + i));  // warm L1
  const long long t0 = clock64();
  for (int k = 0; k < 256; ++k)
    asm volatile("cp.async.ca.shared.global [%1], [%2], 4;\n\tcp.async.wait_all;\n\tld.shared.u32 %0, [%1];"
                 : "=r"(i) : "r"(s), "l"(table + i) : "memory");
  const long long t1 = clock64();
  if (threadIdx.x == 0) cycles[0] = static_cast<unsigned long long>(t1 - t0);
  sink[threadIdx.x] = i;
}
