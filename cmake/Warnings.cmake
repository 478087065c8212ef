# Warnings for our own targets; VQTWIN_WERROR (CI) turns them into errors.
# GCC and clang both build the project (CI builds and tests with each).
function(vqtwin_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-unused-parameter -Wno-missing-field-initializers>
    $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local
      -Wno-restrict>  # GCC 12 reports false positives inside std::string (PR105651)
    # clang may decline to vectorise a loop marked VQTWIN_IVDEP (common/vector.hpp): speed, not values.
    $<$<CXX_COMPILER_ID:Clang>:-Wshadow-uncaptured-local -Wno-pass-failed>
    # Vector types (common/vector.hpp) pass between inline functions of one translation unit, built
    # with one set of flags: the ABI note for arguments wider than the baseline does not apply.
    $<$<COMPILE_LANGUAGE:CXX>:-Wno-psabi>
    $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${VQTWIN_WERROR}>>:-Werror>)
endfunction()

# The CPU reference must not contract a*b+c into an FMA, and must not be built for the host's
# newest instruction set: libvmaf's numbers come from plain IEEE binary32/64 arithmetic with every
# operation rounded once (see docs/exactness.md).
function(vqtwin_reference_math target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off -fno-fast-math>)
endfunction()
