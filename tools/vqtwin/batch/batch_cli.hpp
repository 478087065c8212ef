#pragma once
// vqtwin batch and vqtwin batch-merge (arguments after the verb); each returns the exit status.
#include <string>
#include <vector>

namespace vqtwin_cli {

int batch_main(const std::vector<std::string>& args);
int batch_merge_main(const std::vector<std::string>& args);

}  // namespace vqtwin_cli
