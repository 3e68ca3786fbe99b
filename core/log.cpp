#include "core/log.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>

#include "core/error.hpp"

namespace surrox::log {

void configure(int rank, int size, bool all_ranks, const std::string& level) {
  auto logger = spdlog::stderr_color_mt("surrox-" + std::to_string(rank));
  const std::string prefix = size > 1 ? "[rank " + std::to_string(rank) + "] " : "";
  logger->set_pattern("[%H:%M:%S %^%l%$] " + prefix + "%v");
  const auto parsed = spdlog::level::from_str(level);
  if (parsed == spdlog::level::off && level != "off")
    throw InputError("unknown log level '" + level +
                     "'; valid: trace, debug, info, warn, error, off");
  logger->set_level(rank == 0 || all_ranks ? parsed : spdlog::level::off);
  spdlog::set_default_logger(logger);
}

}  // namespace surrox::log
