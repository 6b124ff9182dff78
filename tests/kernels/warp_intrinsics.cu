// Warp-level intrinsics of sm_70 and sm_80: __syncwarp, __activemask, __reduce_*_sync,
// __match_any_sync, __ballot_sync, __shfl_xor_sync and __byte_perm, in divergent code.
extern "C" __global__ void warp_intrinsics(const unsigned* in, unsigned* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned v = in[i];
  unsigned r = __reduce_add_sync(0xffffffffu, v) ^ __reduce_max_sync(0xffffffffu, v);
  r += __reduce_or_sync(0xffffffffu, v & 0xff);
  if (v % 3 == 0) {  // a divergent group
    const unsigned active = __activemask();
    __syncwarp(active);
    r += __popc(active) * 1000u + __reduce_min_sync(active, v);
    r ^= __match_any_sync(active, v % 5);
  }
  r += __ballot_sync(0xffffffffu, v & 1) >> 16;
  r += __shfl_xor_sync(0xffffffffu, v, 5);
  out[i] = __byte_perm(r, v, 0x7351) + (r >> 8);
}
