#pragma once
// Logging through spdlog. Rank 0 prints unless every rank is asked to; messages go to
// stderr so that stdout stays free for what a command prints as its result.
#include <spdlog/spdlog.h>

#include <string>

namespace surrox::log {

// Level names: trace, debug, info, warn, error, off.
void configure(int rank, int size, bool all_ranks, const std::string& level);

}  // namespace surrox::log
