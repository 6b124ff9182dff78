// Prints the device properties that configs/*.yaml describe, as key: value lines,
// so a config can cite a real cudaGetDeviceProperties reading.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t err_ = (call);                                                   \
    if (err_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s failed: %s\n", #call, cudaGetErrorString(err_));  \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

static int attr(cudaDeviceAttr a, int dev) {
  int v = -1;
  cudaDeviceGetAttribute(&v, a, dev);
  return v;
}

int main() {
  int dev = 0;
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, dev));
  int driver = 0, runtime = 0;
  CHECK(cudaDriverGetVersion(&driver));
  CHECK(cudaRuntimeGetVersion(&runtime));
  std::printf("name: %s\n", p.name);
  std::printf("compute_capability: %d.%d\n", p.major, p.minor);
  std::printf("driver_version: %d\nruntime_version: %d\n", driver, runtime);
  std::printf("multiProcessorCount: %d\n", p.multiProcessorCount);
  std::printf("clockRate_khz: %d\n", attr(cudaDevAttrClockRate, dev));
  std::printf("memoryClockRate_khz: %d\n", attr(cudaDevAttrMemoryClockRate, dev));
  std::printf("memoryBusWidth_bits: %d\n", attr(cudaDevAttrGlobalMemoryBusWidth, dev));
  std::printf("l2CacheSize: %d\n", p.l2CacheSize);
  std::printf("totalGlobalMem: %zu\n", p.totalGlobalMem);
  std::printf("warpSize: %d\n", p.warpSize);
  std::printf("maxThreadsPerBlock: %d\n", p.maxThreadsPerBlock);
  std::printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
  std::printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
  std::printf("maxThreadsDim: %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  std::printf("maxGridSize: %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  std::printf("regsPerBlock: %d\n", p.regsPerBlock);
  std::printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
  std::printf("sharedMemPerBlock: %zu\n", p.sharedMemPerBlock);
  std::printf("sharedMemPerBlockOptin: %zu\n", p.sharedMemPerBlockOptin);
  std::printf("sharedMemPerMultiprocessor: %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("reservedSharedMemPerBlock: %zu\n", p.reservedSharedMemPerBlock);
  std::printf("asyncEngineCount: %d\n", p.asyncEngineCount);
  std::printf("globalL1CacheSupported: %d\n", p.globalL1CacheSupported);
  std::printf("localL1CacheSupported: %d\n", p.localL1CacheSupported);
  std::printf("persistingL2CacheMaxSize: %d\n", p.persistingL2CacheMaxSize);
  return 0;
}
