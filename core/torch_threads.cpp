#include "core/torch_threads.hpp"

#include <ATen/Parallel.h>
#include <torch/version.h>

namespace surrox {

void set_torch_thread_count(int threads) { at::set_num_threads(threads); }
int torch_thread_count() { return at::get_num_threads(); }
std::string torch_version() { return TORCH_VERSION; }

}  // namespace surrox
