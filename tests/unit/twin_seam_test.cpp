// The backend-neutral twin seam (backends/twin_seam.hpp): what a twin's declarations record, which
// every backend then allocates and stages. Checked against hand-written expectations.
#include "backends/twin_seam.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace vqtwin::seam {
namespace {

TEST(TwinSeam, PlanRecordsResultsOrderAndBuffersBySize) {
  TwinPlan<double> plan;
  EXPECT_EQ(plan.result_count, 0u);
  EXPECT_FALSE(plan.is_temporal);
  plan.results(4, /*zeroed=*/true);
  plan.temporal();
  const Buffer<float> a = plan.scratch<float>(10);
  const Buffer<std::int32_t> ring = plan.persistent<std::int32_t>(7);
  const Buffer<std::uint16_t> b = plan.scratch<std::uint16_t>(3);
  EXPECT_EQ(plan.result_count, 4u);
  EXPECT_TRUE(plan.zero_results);
  EXPECT_TRUE(plan.is_temporal);
  // Scratch and persistent buffers are numbered in their own lists; the handle says which.
  EXPECT_EQ(a.id, 0u);
  EXPECT_EQ(b.id, 1u);
  EXPECT_EQ(ring.id, 0u);
  EXPECT_FALSE(a.persistent);
  EXPECT_TRUE(ring.persistent);
  ASSERT_EQ(plan.scratch_buffers.size(), 2u);
  ASSERT_EQ(plan.persistent_buffers.size(), 1u);
  EXPECT_EQ(plan.scratch_buffers[0].bytes, 40u);
  EXPECT_EQ(plan.scratch_buffers[1].bytes, 6u);
  EXPECT_EQ(plan.persistent_buffers[0].bytes, 28u);
  EXPECT_TRUE(plan.persistent_buffers[0].contents.empty());
  EXPECT_FALSE(Buffer<float>{}.valid());
}

TEST(TwinSeam, TableKeepsItsBytesForTheUpload) {
  TwinPlan<float> plan;
  const std::vector<std::uint32_t> host = {1, 0xdeadbeef, 7};
  const Buffer<std::uint32_t> t = plan.table(std::span<const std::uint32_t>(host));
  EXPECT_TRUE(t.persistent);
  EXPECT_EQ(t.count, 3u);
  ASSERT_EQ(plan.persistent_buffers[t.id].contents.size(), 12u);
  std::uint32_t back[3];
  std::memcpy(back, plan.persistent_buffers[t.id].contents.data(), sizeof back);
  EXPECT_EQ(back[1], 0xdeadbeefu);
}

TEST(TwinSeam, PerSlotObjectsAreBuiltFreshEachTime) {
  struct Counter {
    explicit Counter(int v) : value(v) {}
    int value;
  };
  TwinPlan<float> plan;
  const Object<Counter> c = plan.per_slot<Counter>(5);
  ASSERT_EQ(plan.factories.size(), 1u);
  auto one = plan.factories[c.id](), two = plan.factories[c.id]();
  EXPECT_NE(one.get(), two.get());
  EXPECT_EQ(static_cast<Counter*>(one.get())->value, 5);
}

TEST(TwinSeam, StagedViewIsTheDeclaredCountOrNothing) {
  const float host[6] = {1, 2, 3, 4, 5, 6};
  const Staged<float> written{host, 2, true}, skipped{host, 2, false};
  ASSERT_EQ(written.view().size(), 2u);
  EXPECT_EQ(written.view()[1], 2.0f);
  EXPECT_TRUE(skipped.view().empty());
}

}  // namespace
}  // namespace vqtwin::seam
