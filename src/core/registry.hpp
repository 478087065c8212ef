#pragma once
// The table of every extractor vqtwin has, CPU references and device twins alike.
#include <span>
#include <string_view>

#include "core/extractor.hpp"

namespace vqtwin {

std::span<const ExtractorInfo* const> all_extractors();
// By name or other name; nullptr when unknown.
const ExtractorInfo* find_extractor(std::string_view name);
// The CPU extractor that provides `feature` (a short output base name such as "integer_adm2").
const ExtractorInfo* find_provider(std::string_view feature);
// The twin of `cpu` on `backend`, or nullptr.
const ExtractorInfo* find_twin(const ExtractorInfo& cpu, Backend backend);

}  // namespace vqtwin
