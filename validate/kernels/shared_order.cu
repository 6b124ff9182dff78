// Does a shared load wait for the same warp's earlier shared store? (validate/probes/
// shared_order.py; issue 13: the plain scan's down-sweep levels, whose load follows a store,
// take a lone block on the H100 28-60 cycles more than gpusim, the up-sweep's none). One warp
// chases s[v] = v (one lane per bank) and, each hop, stores v or loads another word, `STRIDE`
// words apart per lane (STRIDE lanes of a warp in one bank, up to 32); cycles[0] = cycles.

// The final clock read follows a volatile shared store of the result, so it waits for the work.
__device__ long long order_elapsed(unsigned v, long long t0) {
  __shared__ unsigned sink[1];
  volatile unsigned* at = sink;
  at[0] = v;
  return clock64() - t0;
}

enum Kind { kChase, kStore, kLoad };

template <Kind K, int STRIDE>
__device__ void chase_with(unsigned* out, long long* cycles, int trips) {
  __shared__ unsigned s[1024];
  __shared__ unsigned t[1024];
  volatile unsigned* vs = s;
  volatile unsigned* vt = t;
  const int tid = threadIdx.x;
  for (int i = tid; i < 1024; i += 32) {
    s[i] = i;
    t[i] = i;
  }
  __syncwarp();
  unsigned v = tid, acc = 0;
  const int at = (tid * STRIDE) & 1023;
  const long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
    v = vs[v];
    if (K == kStore) vt[at] = v;
    if (K == kLoad) acc += vt[at];
  }
  cycles[0] = order_elapsed(v + acc, t0);
  out[tid] = v + acc;
}
#define CHASE_WITH(NAME, K, S) \
  extern "C" __global__ void NAME(unsigned* o, long long* c, int t) { chase_with<K, S>(o, c, t); }
CHASE_WITH(chase_only, kChase, 1)
CHASE_WITH(chase_store_1, kStore, 1)
CHASE_WITH(chase_store_2, kStore, 2)
CHASE_WITH(chase_store_8, kStore, 8)
CHASE_WITH(chase_store_32, kStore, 32)
CHASE_WITH(chase_load_1, kLoad, 1)
CHASE_WITH(chase_load_32, kLoad, 32)
