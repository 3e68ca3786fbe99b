#pragma once
// The sliver of LibTorch the runtime needs, behind a torch-free header so that core/ and
// everything that includes it stays free of LibTorch headers.
#include <string>

namespace surrox {

void set_torch_thread_count(int threads);
int torch_thread_count();
std::string torch_version();

}  // namespace surrox
