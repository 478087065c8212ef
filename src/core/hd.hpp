#pragma once
// Marks scalar math shared by a CPU reference and its CUDA twin: one definition, both compilers.
#if defined(__CUDACC__)
#define VQTWIN_HD __host__ __device__
#else
#define VQTWIN_HD
#endif
