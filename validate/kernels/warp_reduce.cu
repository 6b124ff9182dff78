// Warp-level sum with shuffles, and a count of positive values with a ballot:
// out[2w] = sum of warp w's inputs, out[2w+1] = how many of them are positive.
extern "C" __global__ void warp_reduce(const int* __restrict__ in, int* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  const unsigned positive = __ballot_sync(0xffffffffu, v > 0);
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  if ((threadIdx.x & 31) == 0) {
    const int w = i / 32;
    out[2 * w] = v;
    out[2 * w + 1] = __popc(positive);
  }
}
