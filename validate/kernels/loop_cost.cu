// The final clock read follows a volatile shared store of the result, so it waits for the work.
__device__ long long after(unsigned v, long long t0) {
  __shared__ unsigned sink[1];
  volatile unsigned* at = sink;
  at[0] = v;
  return clock64() - t0;
}

// What a loop's back branch costs one warp (validate/probes/loop_cost.py, issue 13: a warp walking
// lines with a load and an add per trip takes about 20 cycles a line more than a chase unrolled
// 16 times does a hop). One thread times `trips` trips with clock64; out[0] = cycles.

// K dependent FADDs per trip, the loop not unrolled: cycles per trip = 4K + what the trip adds.
template <int K>
__device__ void fadd_loop(float* out, long long* cycles, int trips, float a) {
  float x = out[1];
  const long long t0 = clock64();
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int k = 0; k < K; ++k) x = x * a + 1.0f;
  }
  cycles[0] = after(__float_as_uint(x), t0);
  out[0] = x;
}
extern "C" __global__ void fadd_loop_1(float* o, long long* c, int t, float a) { fadd_loop<1>(o, c, t, a); }
extern "C" __global__ void fadd_loop_2(float* o, long long* c, int t, float a) { fadd_loop<2>(o, c, t, a); }
extern "C" __global__ void fadd_loop_4(float* o, long long* c, int t, float a) { fadd_loop<4>(o, c, t, a); }
extern "C" __global__ void fadd_loop_8(float* o, long long* c, int t, float a) { fadd_loop<8>(o, c, t, a); }

// A chase through `ring` (each word the next word's index) past the L1, `hops` hops, unrolled
// by U: one back branch per U hops.
template <int U>
__device__ void chase_loop(const unsigned* ring, long long* cycles, unsigned* last, int hops) {
  unsigned p = 0;
  const long long t0 = clock64();
#pragma unroll U
  for (int h = 0; h < hops; ++h) p = __ldcg(&ring[p]);
  cycles[0] = after(p, t0);
  *last = p;
}
extern "C" __global__ void chase_unroll_1(const unsigned* r, long long* c, unsigned* l, int h) { chase_loop<1>(r, c, l, h); }
extern "C" __global__ void chase_unroll_16(const unsigned* r, long long* c, unsigned* l, int h) { chase_loop<16>(r, c, l, h); }

// One lane walking `lines` lines of `ring` 128 B apart, a load and an add per trip (the loads do
// not depend on each other, but each add waits for its load and issue is in order).
extern "C" __global__ void walk_lines(const unsigned* ring, long long* cycles, unsigned* last, int lines) {
  unsigned acc = 0;
  const long long t0 = clock64();
#pragma unroll 1
  for (int i = 0; i < lines; ++i) acc += __ldcg(&ring[i * 32]);
  cycles[0] = after(acc, t0);
  *last = acc;
}

// The chase with its back branch after a use of each loaded value (an add the next address does
// not need), as in walk_lines, but the next address from the value, as in a chase.
extern "C" __global__ void chase_then_add(const unsigned* ring, long long* cycles, unsigned* last, int hops) {
  unsigned p = 0, acc = 0;
  const long long t0 = clock64();
#pragma unroll 1
  for (int h = 0; h < hops; ++h) {
    p = __ldcg(&ring[p]);
    acc += p;
  }
  cycles[0] = after(p + acc, t0);
  *last = p + acc;
}

// The chase whose loop test reads each loaded value: the branch waits for the load.
extern "C" __global__ void chase_test_value(const unsigned* ring, long long* cycles, unsigned* last, int hops) {
  unsigned p = 0;
  const long long t0 = clock64();
#pragma unroll 1
  for (int h = 0; h < hops; ++h) {
    p = __ldcg(&ring[p]);
    if (p == 0xFFFFFFFFu) break;
  }
  cycles[0] = after(p, t0);
  *last = p;
}

// walk_lines unrolled by 4 with the loads kept in a chain by the data: each address adds the
// previous value masked to nothing the compiler can see (the ring's words are below 2^31).
extern "C" __global__ void walk_lines_unroll_4(const unsigned* ring, long long* cycles, unsigned* last, int lines) {
  unsigned acc = 0, v = 0;
  const long long t0 = clock64();
#pragma unroll 4
  for (int i = 0; i < lines; ++i) {
    v = __ldcg(&ring[i * 32 + (v >> 31)]);
    acc += v;
  }
  cycles[0] = after(acc, t0);
  *last = acc;
}
