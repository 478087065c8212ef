#pragma once
// cpu_check: every instruction-set variant of every kernel table this machine can run, held to the
// portable reference bit for bit on generated sizes, depths and contents (in the spirit of dav1d's
// checkasm). A kernel table is filled by `init(flags)` (dav1d's dsp-init pattern, common/cpu.hpp);
// the harness builds it once per level of flags this CPU has (none, AVX2, + AVX-512, ...), and each
// entry whose function differs from every one checked before is a new variant: it is run beside the
// reference entry on the same inputs. A machine without a wider set skips (and says so); the summary
// at the end lists what was checked (main.cpp).
//
// Re-run one family: ./cpu_check --gtest_filter='*IntegerVif*'. Seed: CPU_CHECK_SEED (default 1).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vqtwin::cpu_check {

// A cumulative set of cpu:: flags the machine runs, and its name ("avx2", "avx512", ...).
struct Level {
  std::string name;
  unsigned flags;
};
// The levels above the reference present here, lowest first.
const std::vector<Level>& levels();
// The seed for random inputs (CPU_CHECK_SEED, default 1); printed with every failure.
std::uint32_t seed();
// Records that `entry` of `family` was checked at `level` (for the summary).
void record(const std::string& family, const std::string& entry, const std::string& level);

// Calls check(reference_table, variant_table, level_name) once per new variant of table entry
// `member` (a function pointer); `init` builds a table for a set of flags. Skips the test when the
// machine has no variant of that entry.
template <class Table, class Member, class Check>
void for_each_variant(Table (*init)(unsigned), Member Table::*member, const std::string& family,
                      const std::string& entry, Check&& check) {
  const Table reference = init(0);
  std::vector<Member> seen{reference.*member};
  for (const Level& level : levels()) {
    const Table t = init(level.flags);
    bool fresh = true;
    for (Member m : seen) fresh = fresh && m != t.*member;
    if (!fresh) continue;
    seen.push_back(t.*member);
    SCOPED_TRACE(family + "." + entry + " " + level.name + " (CPU_CHECK_SEED=" + std::to_string(seed()) + ")");
    check(reference, t, level.name);
    record(family, entry, level.name);
  }
  if (seen.size() == 1) GTEST_SKIP() << family << "." << entry << ": no variant on this machine or build";
}

// Calls check(reference_table, table, level_name) once per level whose table differs from the one
// below it (whole-frame checks that run every entry together).
template <class Table, class Check>
void for_each_table(Table (*init)(unsigned), const std::string& family, Check&& check) {
  const Table reference = init(0);
  Table below = reference;
  bool any = false;
  for (const Level& level : levels()) {
    const Table t = init(level.flags);
    if (std::memcmp(&t, &below, sizeof(Table)) == 0) continue;
    below = t;
    any = true;
    SCOPED_TRACE(family + " " + level.name + " (CPU_CHECK_SEED=" + std::to_string(seed()) + ")");
    check(reference, t, level.name);
    record(family, "(whole table)", level.name);
  }
  if (!any) GTEST_SKIP() << family << ": no variant on this machine or build";
}

}  // namespace vqtwin::cpu_check
