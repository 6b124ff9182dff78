// What a loop trip costs one warp beyond its body, and on what it depends (validate/probes/
// branch_cost.py; issue 13: a trip of one dependent FFMA takes the H100 29 cycles, eight take 39).
// One thread times `trips` trips with clock64; cycles[0] = cycles.

// The final clock read follows a volatile shared store of the result, so it waits for the work.
__device__ long long elapsed(unsigned v, long long t0) {
  __shared__ unsigned sink[1];
  volatile unsigned* at = sink;
  at[0] = v;
  return clock64() - t0;
}

// K dependent FFMAs per trip; the trip count a kernel parameter (the same for every lane).
template <int K>
__device__ void chain(float* out, long long* cycles, int trips, float a) {
  float x = out[1];
  const long long t0 = clock64();
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int k = 0; k < K; ++k) x = x * a + 1.0f;
  }
  cycles[0] = elapsed(__float_as_uint(x), t0);
  out[0] = x;
}
#define CHAIN(K) \
  extern "C" __global__ void chain_##K(float* o, long long* c, int t, float a) { chain<K>(o, c, t, a); }
CHAIN(1) CHAIN(4) CHAIN(5) CHAIN(6) CHAIN(7) CHAIN(8) CHAIN(12)

// The same, the trip count read from memory by each lane: the counter cannot be uniform.
template <int K>
__device__ void chain_lane(float* out, long long* cycles, const int* trips_of, float a) {
  float x = out[1];
  const int trips = trips_of[threadIdx.x];
  const long long t0 = clock64();
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int k = 0; k < K; ++k) x = x * a + 1.0f;
  }
  cycles[0] = elapsed(__float_as_uint(x), t0);
  out[0] = x;
}
#define CHAIN_LANE(K) \
  extern "C" __global__ void chain_lane_##K(float* o, long long* c, const int* t, float a) { chain_lane<K>(o, c, t, a); }
CHAIN_LANE(1) CHAIN_LANE(8)

// N independent accumulators, one FFMA each per trip: the body issue-bound, N instructions.
template <int N>
__device__ void wide(float* out, long long* cycles, int trips, float a) {
  float x[N];
#pragma unroll
  for (int n = 0; n < N; ++n) x[n] = out[1] + n;
  const long long t0 = clock64();
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int n = 0; n < N; ++n) x[n] = x[n] * a + 1.0f;
  }
  float s = 0.0f;
#pragma unroll
  for (int n = 0; n < N; ++n) s += x[n];
  cycles[0] = elapsed(__float_as_uint(s), t0);
  out[0] = s;
}
#define WIDE(N) \
  extern "C" __global__ void wide_##N(float* o, long long* c, int t, float a) { wide<N>(o, c, t, a); }
WIDE(8) WIDE(16) WIDE(24) WIDE(32)

// One dependent FFMA per trip, the loop unrolled U times by ptxas: one back branch per U trips.
template <int U>
__device__ void unrolled(float* out, long long* cycles, int trips, float a) {
  float x = out[1];
  const long long t0 = clock64();
#pragma unroll U
  for (int t = 0; t < trips; ++t) x = x * a + 1.0f;
  cycles[0] = elapsed(__float_as_uint(x), t0);
  out[0] = x;
}
#define UNROLLED(U) \
  extern "C" __global__ void unrolled_##U(float* o, long long* c, int t, float a) { unrolled<U>(o, c, t, a); }
UNROLLED(2) UNROLLED(4) UNROLLED(8)

// The loop's test reads the FFMA's result (FSETP after the FFMA, then the branch): trips until x
// passes `limit`; out[0] = x, out[1] = trips taken (the host divides by them).
extern "C" __global__ void until_value(float* out, long long* cycles, float limit, float a) {
  float x = out[1];
  int t = 0;
  const long long t0 = clock64();
  do {
    x = x * a + 1.0f;
    ++t;
  } while (x < limit);
  cycles[0] = elapsed(__float_as_uint(x) + t, t0);
  out[0] = x;
  out[2] = __int_as_float(t);
}

// A forward branch taken every trip around a short if (a uniform test ptxas cannot predicate
// away: the skipped side has a store): one FFMA, the if, the back branch.
extern "C" __global__ void forward_taken(float* out, long long* cycles, int trips, float a, int never) {
  float x = out[1];
  const long long t0 = clock64();
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
    x = x * a + 1.0f;
    if (t == never) {
      out[3] = x;
      out[4] = x * x;
    }
  }
  cycles[0] = elapsed(__float_as_uint(x), t0);
  out[0] = x;
}
