# VQTWIN_FUZZ: the libFuzzer targets of tests/fuzz, with everything built under ASan and UBSan
# (so a fuzz finding is a memory error or undefined behaviour, not only a crash). Needs a compiler
# with -fsanitize=fuzzer (clang; Debian: clang and libclang-rt-14-dev). tools/fuzz.sh drives it.
include(CheckCXXSourceCompiles)

set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
check_cxx_source_compiles([=[
#include <cstddef>
#include <cstdint>
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }
]=] VQTWIN_HAVE_LIBFUZZER)
unset(CMAKE_REQUIRED_FLAGS)
if(NOT VQTWIN_HAVE_LIBFUZZER)
  message(FATAL_ERROR "VQTWIN_FUZZ=ON needs a compiler with -fsanitize=fuzzer (clang); this one is ${CMAKE_CXX_COMPILER_ID}")
endif()

# Can this compiler build integer ADM's AVX2/AVX-512 rows (functions marked with a target attribute,
# common/isa.hpp)? If not, they are left out (src/CMakeLists.txt).
check_cxx_source_compiles([=[
#include <immintrin.h>
__attribute__((target("avx2"))) __m256i add1(__m256i a) { return _mm256_add_epi32(a, _mm256_set1_epi32(1)); }
int main() { return 0; }
]=] VQTWIN_TARGET_ATTRIBUTE_WORKS)

# Every object (library and targets) is instrumented for coverage and checked by the sanitizers.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
