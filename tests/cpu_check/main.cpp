// cpu_check's entry point: the levels of this machine, the seed, and the closing summary of which
// variants were held to the reference.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include "common/cpu.hpp"
#include "variants.hpp"

namespace vqtwin::cpu_check {
namespace {

std::mutex g_mutex;
std::map<std::string, std::set<std::string>> g_checked;  // "family.entry" -> levels

class Summary final : public ::testing::Environment {
 public:
  void SetUp() override {
    std::printf("cpu_check: this CPU has %s; levels checked against the reference:",
                cpu::names(cpu::detected()).c_str());
    for (const Level& l : levels()) std::printf(" %s", l.name.c_str());
    std::printf(levels().empty() ? " none\n" : "\n");
  }
  void TearDown() override {
    std::lock_guard lock(g_mutex);
    for (const auto& [entry, lv] : g_checked) {
      std::printf("cpu_check: %-40s", entry.c_str());
      for (const std::string& l : lv) std::printf(" %s", l.c_str());
      std::printf("\n");
    }
  }
};

}  // namespace

const std::vector<Level>& levels() {
  // Cumulative, in the order the kernel inits test them: each level adds one set to the previous.
  static const std::vector<Level> v = [] {
    const unsigned have = cpu::detected();
    std::vector<Level> out;
    unsigned flags = cpu::kSse2 | cpu::kSsse3 | cpu::kSse41;  // the baseline: no variants there
    const std::pair<unsigned, const char*> steps[] = {
        {cpu::kAvx2, "avx2"}, {cpu::kAvx512, "avx512"}, {cpu::kAvx512Vnni, "avx512vnni"}, {cpu::kAvx512Icl, "avx512icl"}};
    for (const auto& [bit, name] : steps) {
      if (!(have & bit)) break;
      flags |= bit;
      out.push_back({name, flags});
    }
    return out;
  }();
  return v;
}

std::uint32_t seed() {
  static const std::uint32_t s = [] {
    const char* e = std::getenv("CPU_CHECK_SEED");
    return e ? std::uint32_t(std::strtoul(e, nullptr, 0)) : 1u;
  }();
  return s;
}

void record(const std::string& family, const std::string& entry, const std::string& level) {
  std::lock_guard lock(g_mutex);
  g_checked[family + "." + entry].insert(level);
}

}  // namespace vqtwin::cpu_check

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new vqtwin::cpu_check::Summary);
  return RUN_ALL_TESTS();
}
