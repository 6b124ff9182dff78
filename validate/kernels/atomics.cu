// Microbenchmarks for atomics: where updates to global and shared memory serialise.
// Every thread of a warp with lane < `active` adds to counters[address] `reps` times, with
// address = (lane / lane_group * lane_stride + warp * warp_stride) % span: lane_stride 0
// puts a warp's lanes on one counter, warp_stride 0 has every warp share the same counters.
// The results are unused, so the compiler emits reductions (RED), as atomicAdd statements do.

__device__ __forceinline__ unsigned atomic_address(int lane_group, int lane_stride, int warp_stride, int span) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  return (lane / lane_group * lane_stride + warp * warp_stride) % span;
}

extern "C" __global__ void atomic_add_u32(unsigned* counters, int active, int lane_group, int lane_stride,
                                          int warp_stride, int span, int reps) {
  const unsigned a = atomic_address(lane_group, lane_stride, warp_stride, span);
  if ((threadIdx.x & 31) >= active) return;
  for (int r = 0; r < reps; ++r) atomicAdd(&counters[a], 1u);
}

extern "C" __global__ void atomic_add_f32(float* counters, int active, int lane_group, int lane_stride,
                                          int warp_stride, int span, int reps) {
  const unsigned a = atomic_address(lane_group, lane_stride, warp_stride, span);
  if ((threadIdx.x & 31) >= active) return;
  for (int r = 0; r < reps; ++r) atomicAdd(&counters[a], 1.0f);
}

// One thread, each atomic's address depending on the previous one's result: the latency
// of a returning atomic at L2 (`mask` is 0, unknown to the compiler: the index stays 0).
extern "C" __global__ void atomic_chain(unsigned* counters, unsigned* out, unsigned mask, int hops) {
  unsigned i = 0;
  for (int h = 0; h < hops; ++h) i = atomicAdd(&counters[i & mask], 1u) & mask;
  out[0] = i + counters[1];
}

// Shared-memory atomics: each warp updates local[lane / lane_group * lane_stride % 1024]
// `reps` times; the block then writes its counters out (so the work is not dead).
extern "C" __global__ void shared_atomic_add(unsigned* out, int lane_group, int lane_stride, int reps) {
  __shared__ unsigned local[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) local[i] = 0;
  __syncthreads();
  const unsigned a = (threadIdx.x & 31u) / lane_group * lane_stride % 1024u;
  for (int r = 0; r < reps; ++r) atomicAdd(&local[a], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[blockIdx.x * 1024 + i] = local[i];
}
