/*
 * hostdev.cuh: for code written once for the device and for a host
 * emulation of it (cuda/ntt_pass.cuh, cuda/mont.cuh; the emulations are
 * tests/mont_emu.cpp and ntt_pass_emu.cpp, built by the host C++
 * compiler): CZD_HD marks a function for both under nvcc and makes it a
 * plain inline function elsewhere; CZD_UNROLL unrolls a loop on the device
 * and is nothing on the host (whose compiler does not know the pragma).
 */
#ifndef CZ_CUDA_HOSTDEV_CUH
#define CZ_CUDA_HOSTDEV_CUH

#ifdef __CUDACC__
#define CZD_HD __host__ __device__ __forceinline__
#else
#define CZD_HD inline
#endif

#ifdef __CUDA_ARCH__
#define CZD_UNROLL _Pragma("unroll")
#else
#define CZD_UNROLL
#endif

#endif
