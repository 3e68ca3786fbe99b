#include "couplers/super_resolution/super_resolution_report.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>

#include "core/atomic_file.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/vtk_series.hpp"
#include "io/vtk_writer.hpp"

namespace surrox::couplers {
namespace {

constexpr const char* kSeriesChannels[4] = {"p", "b", "u", "w"};

io::MeshData rb_image(long nx, long nz, double lx) {
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kImage;
  mesh.extent = {0, nx, 0, nz, 0, 0};
  mesh.origin = {0, 0, 0};
  mesh.spacing = {lx / double(nx), 1.0 / double(nz), 1};
  return mesh;
}

std::string number(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

nlohmann::json write_rb_fields(const RbSeriesFiles& files, const torch::Tensor& fields,
                               const std::vector<double>& times, double lx) {
  const long frames = fields.size(1), nz = fields.size(2), nx = fields.size(3);
  std::filesystem::create_directories(files.dir / "fields");
  io::MeshData mesh = rb_image(nx, nz, lx);
  std::vector<io::FieldSpec> specs;
  for (const char* name : kSeriesChannels)
    specs.push_back({name, io::FieldSpec::On::kCells, 1, "", ""});
  io::Hdf5DatasetWriter hdf5(files.dir / "fields.h5", MPI_COMM_SELF, mesh, specs, files.case_yaml,
                             "surrox run (coupler super_resolution)");
  std::optional<io::PvdSeries> pvd;
  if (files.vtk) pvd.emplace(files.dir / "fields.pvd");
  const torch::Tensor values = fields.to(torch::kFloat64).contiguous();
  for (long t = 0; t < frames; ++t) {
    mesh.cell_data.clear();
    for (int c = 0; c < 4; ++c) {
      io::HostArray a(std::string("SR::") + kSeriesChannels[c], nz * nx, 1);
      const torch::Tensor frame = values[c][t].contiguous();
      std::copy(frame.data_ptr<double>(), frame.data_ptr<double>() + nz * nx, a.data());
      mesh.cell_data.push_back({kSeriesChannels[c], a});
    }
    hdf5.append(times[t], mesh.cell_data);
    if (pvd) {
      const std::filesystem::path file =
          files.dir / fmt::format("fields/fields_{:06d}{}", t, io::vtk_extension(mesh.kind));
      io::write_vtk(mesh, file);
      pvd->add(times[t], file);
    }
  }
  hdf5.close();
  nlohmann::json written = {{"hdf5", (files.dir / "fields.h5").string()}, {"frames", frames}};
  if (pvd) written["pvd"] = pvd->path().string();
  return written;
}

void write_statistics_csv(const std::filesystem::path& dir,
                          const std::vector<NamedStatistics>& columns) {
  std::string header = "statistic";
  for (const auto& c : columns) header += "," + c.name;
  std::string csv = header + "\n";
  for (const auto& [name, value] : columns.front().statistics.figures) {
    csv += name;
    for (const auto& c : columns)
      csv += "," + fmt::format("{:.10g}", c.statistics.figures.at(name));
    csv += "\n";
  }
  write_text_atomically(dir / "comparison.csv", csv);
  // Profiles and spectra: series on other grids have fewer rows (empty cells there).
  const auto table = [&](const char* index, auto member) {
    std::size_t rows = 0;
    for (const auto& c : columns) rows = std::max(rows, (c.statistics.*member).size());
    std::string text = std::string(index);
    for (const auto& c : columns) text += "," + c.name;
    text += "\n";
    for (std::size_t r = 0; r < rows; ++r) {
      text += std::to_string(r);
      for (const auto& c : columns) {
        const auto& v = c.statistics.*member;
        text += "," + (r < v.size() ? fmt::format("{:.10g}", v[r]) : std::string());
      }
      text += "\n";
    }
    return text;
  };
  write_text_atomically(dir / "profile.csv", table("z_cell", &RbFlowStatistics::profile));
  write_text_atomically(dir / "kinetic_spectrum.csv",
                        table("k", &RbFlowStatistics::kinetic_spectrum));
  write_text_atomically(dir / "buoyancy_spectrum.csv",
                        table("k", &RbFlowStatistics::buoyancy_spectrum));
}

std::string statistics_table(const std::vector<NamedStatistics>& columns,
                             const nlohmann::json& cost) {
  std::string md = "| statistic |";
  std::string rule = "|---|";
  for (const auto& c : columns) md += " " + c.name + " |", rule += "---|";
  for (std::size_t n = 1; n < columns.size(); ++n)
    md += " " + columns[n].name + " error |", rule += "---|";
  md += "\n" + rule + "\n";
  for (const auto& [name, reference] : columns.front().statistics.figures) {
    md += "| " + name + " |";
    for (const auto& c : columns) md += " " + number(c.statistics.figures.at(name)) + " |";
    for (std::size_t n = 1; n < columns.size(); ++n)
      md += fmt::format(" {:+.2f} % |",
                        100 * (columns[n].statistics.figures.at(name) / reference - 1));
    md += "\n";
  }
  md += "\n| cost | seconds |\n|---|---|\n";
  for (const auto& item : cost.items())
    if (item.value().is_number())
      md += "| " + item.key() + " | " + number(item.value().get<double>()) + " |\n";
  return md;
}

}  // namespace surrox::couplers
