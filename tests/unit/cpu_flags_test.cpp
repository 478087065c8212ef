// The CPU-flag source (common/cpu.hpp): libvmaf's mask syntax and bit meanings, run masks, and the
// kernel-table inits honouring them (a masked set is never put in a table).
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/cpu.hpp"
#include "features/integer_adm/rows.hpp"
#include "features/integer_vif/kernels.hpp"
#include "vqtwin/error.hpp"

namespace vqtwin::cpu {
namespace {

TEST(CpuFlags, BitsMeanWhatLibvmafsMean) {
  // libvmaf/src/x86/cpu.h: SSE2 1, SSSE3 2, SSE4.1 4, AVX2 8, AVX512 16, AVX512ICL 32.
  EXPECT_EQ(kSse2, 1u);
  EXPECT_EQ(kSsse3, 2u);
  EXPECT_EQ(kSse41, 4u);
  EXPECT_EQ(kAvx2, 8u);
  EXPECT_EQ(kAvx512, 16u);
  EXPECT_EQ(kAvx512Icl, 32u);
  // A wider level is only ever detected with the ones below it.
  const unsigned d = detected();
  EXPECT_TRUE(!(d & kAvx512) || (d & kAvx2));
  EXPECT_TRUE(!(d & (kAvx512Icl | kAvx512Vnni)) || (d & kAvx512));
  EXPECT_TRUE(!(d & kAvx512Icl) || (d & kAvx512Vnni));
}

TEST(CpuFlags, MasksParseAsLibvmafsCli) {
  EXPECT_EQ(parse_mask("8", "m"), 8u);
  EXPECT_EQ(parse_mask("0x18", "m"), 24u);
  EXPECT_EQ(parse_mask("010", "m"), 8u);  // strtoul base 0: octal
  EXPECT_EQ(parse_mask("-1", "m"), ~0u);
  for (const char* bad : {"", "avx2", "8x", " 8 ", "0x"}) EXPECT_THROW(parse_mask(bad, "m"), Error) << bad;
  EXPECT_EQ(names(kAvx2 | kAvx512), "avx2 avx512");
  EXPECT_EQ(names(0), "none");
}

TEST(CpuFlags, RunMasksClearTheirBitsWhileTheyLive) {
  if (std::getenv("VQTWIN_CPU_MASK")) GTEST_SKIP() << "VQTWIN_CPU_MASK is set";
  const unsigned all = flags();
  EXPECT_EQ(all, detected());
  {
    const RunMask a(kAvx512);
    EXPECT_EQ(flags(), all & ~kAvx512);
    {
      const RunMask b(kAvx2 | kAvx512);  // overlapping masks: each bit stays cleared until both end
      EXPECT_EQ(flags(), all & ~(kAvx2 | kAvx512));
    }
    EXPECT_EQ(flags(), all & ~kAvx512);
  }
  EXPECT_EQ(flags(), all);
  const RunMask everything(~0u);
  EXPECT_EQ(flags(), 0u);
}

TEST(CpuFlags, TablesUseOnlyAllowedSets) {
  // A set is used only when it and every set it calls are allowed: AVX-512 without AVX2 gives the
  // reference, as does no flag at all.
  EXPECT_STREQ(integer_vif::kernels_for(0).name, "scalar");
  EXPECT_STREQ(integer_vif::kernels_for(kAvx512 | kAvx512Vnni | kAvx512Icl).name, "scalar");
  const integer_adm::RowKernels adm = integer_adm::kernels_for(kAvx512);
  EXPECT_EQ(adm.decouple0, integer_adm::reference_kernels().decouple0);
  EXPECT_EQ(adm.dwt_vertical, integer_adm::reference_kernels().dwt_vertical);
  if (!(detected() & kAvx2)) GTEST_SKIP() << "no AVX2 here";
  EXPECT_STREQ(integer_vif::kernels_for(kAvx2).name, "avx2");
  EXPECT_STREQ(integer_vif::kernels_for(kAvx2 | kAvx512).name, "avx2");  // the 512-bit set needs VNNI
  EXPECT_NE(integer_adm::kernels_for(kAvx2).decouple0, integer_adm::reference_kernels().decouple0);
}

}  // namespace
}  // namespace vqtwin::cpu
