#include "surrogates/deep_potential/model_deviation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace surrox::surrogates::deep_potential {

namespace {

// ⟨F_i⟩ over the models.
std::array<double, 3> mean_force(const std::vector<double>& forces, long models) {
  std::array<double, 3> mean = {0, 0, 0};
  for (long k = 0; k < models; ++k)
    for (int d = 0; d < 3; ++d) mean[d] += forces[3 * k + d];
  for (double& m : mean) m /= static_cast<double>(models);
  return mean;
}

// One row of a model-deviation file (`format`: sscanf's, seven values and a tail catcher).
ModelDeviRow parse_row(const std::string& line, const char* format,
                       const std::filesystem::path& file, long number) {
  ModelDeviRow r;
  char tail = 0;
  if (std::sscanf(line.c_str(), format, &r.step, &r.max_devi_v, &r.min_devi_v, &r.avg_devi_v,
                  &r.max_devi_f, &r.min_devi_f, &r.avg_devi_f, &tail) != 7)
    throw InputError(fmt::format("{}:{}: expected a step and six numbers, got '{}'", file.string(),
                                 number, line));
  return r;
}

}  // namespace

double force_deviation(const std::vector<double>& forces, long models) {
  const std::array<double, 3> mean = mean_force(forces, models);
  double sum = 0;
  for (long k = 0; k < models; ++k)
    for (int d = 0; d < 3; ++d)
      sum += (forces[3 * k + d] - mean[d]) * (forces[3 * k + d] - mean[d]);
  return std::sqrt(sum / static_cast<double>(models));
}

double relative_force_deviation(const std::vector<double>& forces, long models, double level) {
  const std::array<double, 3> mean = mean_force(forces, models);
  const double norm = std::sqrt(mean[0] * mean[0] + mean[1] * mean[1] + mean[2] * mean[2]);
  return force_deviation(forces, models) / (norm + level);
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

ModelDeviRow reduce_model_devi(long step, const double* forces, long atoms, long models,
                               std::vector<double> virial, MPI_Comm comm, double relative_level) {
  double local_max = 0, local_min = std::numeric_limits<double>::max(), local_sum = 0;
  std::vector<double> row(3 * models);
  for (long i = 0; i < atoms; ++i) {
    std::copy_n(forces + i * 3 * models, 3 * models, row.begin());
    const double v = relative_level > 0 ? relative_force_deviation(row, models, relative_level)
                                        : force_deviation(row, models);
    local_max = std::max(local_max, v);
    local_min = std::min(local_min, v);
    local_sum += v;
  }
  long natoms = atoms;
  double max_f = 0, min_f = 0, sum_f = 0;
  MPI_Allreduce(&local_max, &max_f, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&local_min, &min_f, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Allreduce(&local_sum, &sum_f, 1, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, &natoms, 1, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, virial.data(), static_cast<int>(virial.size()), MPI_DOUBLE, MPI_SUM,
                comm);
  ModelDeviRow r = virial_deviation(step, virial, models, natoms);
  r.max_devi_f = max_f;
  r.min_devi_f = min_f;
  r.avg_devi_f = sum_f / static_cast<double>(natoms);
  return r;
}

namespace {
const char* const kColumns[] = {"max_devi_v", "min_devi_v", "avg_devi_v",
                                "max_devi_f", "min_devi_f", "avg_devi_f"};

std::array<double, 6> values(const ModelDeviRow& r) {
  return {r.max_devi_v, r.min_devi_v, r.avg_devi_v, r.max_devi_f, r.min_devi_f, r.avg_devi_f};
}
}  // namespace

std::string model_devi_header() {
  std::string header = fmt::format("#{:>11}", "step");
  for (const char* n : kColumns) header += fmt::format("{:>19}", n);
  return header + "\n";
}

std::string model_devi_line(const ModelDeviRow& row) {
  std::string line = fmt::format("{:>12}", row.step);
  for (double x : values(row)) line += fmt::format(" {:>18.10e}", x);
  return line + "\n";
}

void write_model_devi(const std::filesystem::path& dir, const std::vector<ModelDeviRow>& rows) {
  std::string out = model_devi_header(), csv = "step";
  for (const char* n : kColumns) csv += std::string(",") + n;
  csv += "\n";
  for (const auto& r : rows) {
    out += model_devi_line(r);
    csv += std::to_string(r.step);
    for (double x : values(r)) csv += fmt::format(",{:.17g}", x);
    csv += "\n";
  }
  write_text_atomically(dir / "model_devi.out", out);
  write_text_atomically(dir / "model_devi.csv", csv);
}

std::vector<ModelDeviRow> read_model_devi_out(const std::filesystem::path& out) {
  std::ifstream in(out);
  if (!in) throw InputError(out.string() + ": cannot open the model-deviation file");
  std::vector<ModelDeviRow> rows;
  std::string line;
  for (long number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(parse_row(line, "%ld %lf %lf %lf %lf %lf %lf %c", out, number));
  }
  return rows;
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
  for (long number = 2; std::getline(in, line); ++number)
    rows.push_back(parse_row(line, "%ld,%lf,%lf,%lf,%lf,%lf,%lf%c", csv, number));
  return rows;
}

}  // namespace surrox::surrogates::deep_potential
