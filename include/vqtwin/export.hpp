#pragma once
// VQTWIN_API marks what the shared library exports: the library is compiled with -fvisibility=hidden
// (and a linker version script), so everything not marked here stays internal.
#if defined(_WIN32)
#define VQTWIN_API
#else
#define VQTWIN_API __attribute__((visibility("default")))
#endif
