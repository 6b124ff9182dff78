// Block-wide votes (__syncthreads_count, __syncthreads_and, __syncthreads_or: bar.red) and
// cooperative groups' multi-warp tiles, whose scratch lives in the block's reserved shared
// memory on sm_80+ (%reserved_smem_offset_1).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

// Per block: how many elements exceed each threshold, whether all are positive, whether any
// is a multiple of 97; repeated over thresholds so that each barrier is reused.
extern "C" __global__ void block_votes(const int* in, int* out) {
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int sum = 0;
  for (int k = 0; k < 4; ++k) {
    const int above = __syncthreads_count(v > k * 500 - 1000);
    const int all = __syncthreads_and(v > k * 10 - 1000);
    const int any = __syncthreads_or(v % 97 == k);
    sum = sum * 7 + above * 4 + all * 2 + any;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum + threadIdx.x;
}

// Sums over 64-thread tiles (two warps each) and over the whole block through cg::reduce.
extern "C" __global__ void multi_warp_tiles(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int tile_sum = cg::reduce(tile, v, cg::plus<int>());
  const int tile_max = cg::reduce(tile, v, cg::greater<int>());
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile_sum * 3 + tile_max + static_cast<int>(tile.thread_rank());
}
