#include "core/error.hpp"

#include <mpi.h>

namespace surrox {
namespace {

// The rank suffix only helps when there is more than one rank.
std::string rank_suffix() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) return {};
  int size = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return size > 1 ? " [rank " + std::to_string(rank) + "]" : std::string{};
}

}  // namespace

std::string format_error(const std::string& detail, const ErrorContext& context) {
  std::string out;
  if (!context.file.empty()) {
    out += context.file;
    if (context.line > 0) {
      out += ":" + std::to_string(context.line);
      if (context.column > 0) out += ":" + std::to_string(context.column);
    }
    out += ": ";
  }
  if (!context.key_path.empty()) out += context.key_path + ": ";
  out += detail;
  out += rank_suffix();
  return out;
}

Error::Error(const std::string& what, ErrorContext context)
    : std::runtime_error(format_error(what, context)),
      context_(std::move(context)),
      detail_(what) {}

}  // namespace surrox
