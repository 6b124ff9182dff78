// When does an SM take its next block? (issue 13: short 1024-thread blocks are 16-32% fast in
// gpusim, and blocks that stored anything turned over ~500 cycles later than their last warp's
// exit in block_turnover.py.) Blocks that store nothing, one word per block, one word per
// warp or every thread's word; warps that spin a fixed number of cycles with their stores
// before or after the spin. If a block's slot waits for its stores' acknowledgements, a store
// just before the exit costs the turnover the acknowledgement's latency and a store before the
// spin costs nothing.

__device__ __forceinline__ void spin(long long cycles) {
  const long long until = clock64() + cycles;
  while (clock64() < until) {
  }
}

extern "C" __global__ void release_empty(int* out) {
  if (out == nullptr) out[0] = 1;  // never true; keeps the parameter
}

extern "C" __global__ void release_store_block(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

extern "C" __global__ void release_store_warps(int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) == 0) out[i >> 5] = 1;
}

extern "C" __global__ void release_store_all(int* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = static_cast<int>(i);
}

extern "C" __global__ void release_spin(int* out, long long cycles) {
  spin(cycles);
  if (out == nullptr) out[0] = 1;
}

extern "C" __global__ void release_store_then_spin(int* out, long long cycles) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) == 0) out[i >> 5] = 1;
  spin(cycles);
}

extern "C" __global__ void release_spin_then_store(int* out, long long cycles) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  spin(cycles);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = 1;
}
