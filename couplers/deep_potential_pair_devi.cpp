#include "couplers/deep_potential_pair_devi.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::couplers {

double force_deviation(const std::vector<double>& forces, long models) {
  double mean[3] = {0, 0, 0};
  for (long k = 0; k < models; ++k)
    for (int d = 0; d < 3; ++d) mean[d] += forces[3 * k + d];
  for (double& m : mean) m /= static_cast<double>(models);
  double sum = 0;
  for (long k = 0; k < models; ++k)
    for (int d = 0; d < 3; ++d)
      sum += (forces[3 * k + d] - mean[d]) * (forces[3 * k + d] - mean[d]);
  return std::sqrt(sum / static_cast<double>(models));
}

ModelDeviRow virial_deviation(long step, const std::vector<double>& virial, long models,
                              long atoms) {
  ModelDeviRow row;
  row.step = step;
  row.min_devi_v = INFINITY;
  double squares = 0;
  for (int c = 0; c < 9; ++c) {
    double mean = 0;
    for (long k = 0; k < models; ++k) mean += virial[9 * k + c] / static_cast<double>(atoms);
    mean /= static_cast<double>(models);
    double sum = 0;
    for (long k = 0; k < models; ++k) {
      const double d = virial[9 * k + c] / static_cast<double>(atoms) - mean;
      sum += d * d;
    }
    const double devi = std::sqrt(sum / static_cast<double>(models));
    row.max_devi_v = std::max(row.max_devi_v, devi);
    row.min_devi_v = std::min(row.min_devi_v, devi);
    squares += devi * devi;
  }
  row.avg_devi_v = std::sqrt(squares / 9);
  return row;
}

void write_model_devi(const std::filesystem::path& dir, const std::vector<ModelDeviRow>& rows) {
  const char* names[] = {"max_devi_v", "min_devi_v", "avg_devi_v",
                         "max_devi_f", "min_devi_f", "avg_devi_f"};
  std::ostringstream out;
  out << std::scientific << "#" << std::setw(11) << "step";
  for (const char* n : names) out << std::setw(19) << n;
  out << "\n";
  std::string csv = "step";
  for (const char* n : names) csv += std::string(",") + n;
  csv += "\n";
  for (const auto& r : rows) {
    const double v[] = {r.max_devi_v, r.min_devi_v, r.avg_devi_v,
                        r.max_devi_f, r.min_devi_f, r.avg_devi_f};
    out << std::setw(12) << r.step;
    csv += std::to_string(r.step);
    for (double x : v) {
      out << " " << std::setw(18) << x;
      csv += fmt::format(",{:.17g}", x);
    }
    out << "\n";
    csv += "\n";
  }
  write_text_atomically(dir / "model_devi.out", out.str());
  write_text_atomically(dir / "model_devi.csv", csv);
}

std::vector<ModelDeviRow> read_model_devi(const std::filesystem::path& csv) {
  std::ifstream in(csv);
  if (!in) throw InputError(csv.string() + ": cannot open the model-deviation table");
  const std::string header =
      "step,max_devi_v,min_devi_v,avg_devi_v,max_devi_f,min_devi_f,avg_devi_f";
  std::string line;
  if (!std::getline(in, line) || line != header)
    throw InputError(csv.string() + ":1: expected the header " + header);
  std::vector<ModelDeviRow> rows;
  for (long number = 2; std::getline(in, line); ++number) {
    ModelDeviRow r;
    char tail = 0;
    if (std::sscanf(line.c_str(), "%ld,%lf,%lf,%lf,%lf,%lf,%lf%c", &r.step, &r.max_devi_v,
                    &r.min_devi_v, &r.avg_devi_v, &r.max_devi_f, &r.min_devi_f, &r.avg_devi_f,
                    &tail) != 7)
      throw InputError(fmt::format("{}:{}: expected a step and six numbers, got '{}'", csv.string(),
                                   number, line));
    rows.push_back(r);
  }
  return rows;
}

}  // namespace surrox::couplers
