// Ampere-style asynchronous copies (cp.async): a double-buffered pipeline of 4-, 8- and
// 16-byte copies with commit and wait groups, a zero-filled tail (src-size < copy size),
// and cooperative groups' block-wide memcpy_async.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

constexpr int kTile = 256;  // floats per tile: one per thread

// out[i] = in[i-1] + 2 in[i] + in[i+1] over tiles streamed through shared memory, two
// tiles in flight: tile t+1 is copied while tile t is used.
extern "C" __global__ void pipelined_stencil(const float* in, float* out, int tiles_per_block) {
  __shared__ float buf[2][kTile + 2];
  const int t = threadIdx.x;
  const int first = blockIdx.x * tiles_per_block;
  const auto fetch = [&](int tile, int slot) {
    const float* src = in + (first + tile) * kTile;
    __pipeline_memcpy_async(&buf[slot][t + 1], src + t, sizeof(float));
    if (t == 0) __pipeline_memcpy_async(&buf[slot][0], src + (first + tile == 0 ? 0 : -1), sizeof(float));
    const bool last = first + tile + 1 == gridDim.x * tiles_per_block;
    if (t == 1) __pipeline_memcpy_async(&buf[slot][kTile + 1], src + (last ? kTile - 1 : kTile), sizeof(float));
    __pipeline_commit();
  };
  fetch(0, 0);
  for (int tile = 0; tile < tiles_per_block; ++tile) {
    if (tile + 1 < tiles_per_block) {
      fetch(tile + 1, (tile + 1) & 1);
      __pipeline_wait_prior(1);  // tile's group done; the next may still be in flight
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    const float* s = buf[tile & 1];
    out[(first + tile) * kTile + t] = s[t] + 2.0f * s[t + 1] + s[t + 2];
    __syncthreads();  // the slot is refilled next iteration
  }
}

// 8- and 16-byte copies; the 16-byte ones of the last thread copy only `tail` bytes and
// zero the rest (src-size), as a bounds-checked tile load does.
extern "C" __global__ void wide_copies(const uint2* a, const float4* b, float* out, int tail) {
  __shared__ uint2 sa[128];
  __shared__ float4 sb[128];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&sa[t], &a[blockIdx.x * 128 + t], sizeof(uint2));
  __pipeline_commit();
  const size_t bytes = t == 127 ? tail : sizeof(float4);
  __pipeline_memcpy_async(&sb[t], &b[blockIdx.x * 128 + t], sizeof(float4), sizeof(float4) - bytes);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const uint2 x = sa[127 - t];
  const float4 y = sb[(t + 5) % 128];
  out[blockIdx.x * 128 + t] = static_cast<float>(x.x % 1000u) - static_cast<float>(x.y % 777u) + y.x + y.y * 2 +
                              y.z * 3 + y.w * 4;
}

// Cooperative groups' block copy: the whole block copies one tile together, then waits.
extern "C" __global__ void block_memcpy_async(const float4* in, float4* out) {
  __shared__ float4 tile[128];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 128, sizeof(float4) * 128);
  cg::wait(block);
  const float4 v = tile[127 - threadIdx.x];
  out[blockIdx.x * 128 + threadIdx.x] = make_float4(v.w, v.z * 2, v.y * 3, v.x * 4);
}
