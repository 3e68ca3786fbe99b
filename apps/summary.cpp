#include "apps/summary.hpp"

#include <spdlog/spdlog.h>

#include "core/atomic_file.hpp"
#include "core/timer.hpp"
#include "core/version.hpp"

namespace surrox::apps {

void SummaryWriter::write(const std::filesystem::path& output_dir, const Runtime& runtime,
                          const nlohmann::json& resolved_case, const nlohmann::json& results,
                          double wall_seconds) const {
  nlohmann::json summary;
  summary["surrox_version"] = kVersion;
  summary["git"] = kGitDescribe;
  summary["command"] = command_;
  summary["arguments"] = arguments_;
  // A command that succeeded with a caveat says so in results["status"] (e.g. not_converged).
  summary["status"] = results.value("status", std::string("ok"));
  summary["finished_utc"] = utc_timestamp();
  summary["wall_time_s"] = wall_seconds;
  summary["configuration"] = runtime.configuration();
  summary["case"] = resolved_case;
  summary["results"] = results;
  const auto path = output_dir / "summary.json";
  write_text_atomically(path, summary.dump(2) + "\n");
  spdlog::info("wrote {}", path.string());
}

}  // namespace surrox::apps
