// How the L2 takes partial-sector stores that later stores complete (micro_store_merge_*):
// each warp owns chunks of 32 * stride floats; in a chunk, lane l stores `ways` consecutive
// floats at l * stride + k (k < ways), one store instruction per k. stride 8 puts one lane in
// each 32-byte sector, so ways 1 writes a word of each of 32 sectors and ways 8 completes them;
// stride 3 and 6 are the math kernel's shapes (every sector written by several instructions).
// skewed: lane l's k-th word goes to (k + l / 4) % stride instead, the same sectors, each
// instruction still one word per sector at stride 8, but no two lanes in one of the L1's 32
// word banks.
template <int Ways, bool Skewed>
__device__ void store_chunks(float* __restrict__ out, int stride, int chunks) {
  const int lane = threadIdx.x & 31;
  const int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int warps = (gridDim.x * blockDim.x) >> 5;
  for (int c = warp; c < chunks; c += warps) {
    float* p = out + static_cast<long>(c) * 32 * stride + lane * stride;
#pragma unroll
    for (int k = 0; k < Ways; ++k) {
      if constexpr (Skewed)
        p[(k + (lane >> 2)) % stride] = static_cast<float>(c + k);
      else
        p[k] = static_cast<float>(c + k);
    }
  }
}

#define DISPATCH(body)      \
  switch (ways) {           \
    case 1: body(1); break; \
    case 2: body(2); break; \
    case 3: body(3); break; \
    case 4: body(4); break; \
    case 6: body(6); break; \
    default: body(8); break; \
  }

extern "C" __global__ void store_merge(float* __restrict__ out, int stride, int ways, int chunks) {
#define PLAIN(w) store_chunks<w, false>(out, stride, chunks)
  DISPATCH(PLAIN)
}

extern "C" __global__ void store_merge_skewed(float* __restrict__ out, int stride, int ways, int chunks) {
#define SKEWED(w) store_chunks<w, true>(out, stride, chunks)
  DISPATCH(SKEWED)
}
