#include "apps/output_series.hpp"

#include <fmt/format.h>
#include <mpi.h>

#include "io/vtk_writer.hpp"

namespace surrox::apps {

OutputSeries::OutputSeries(const std::filesystem::path& output_dir, const Runtime& runtime,
                           OutputSettings settings)
    : dir_(output_dir), runtime_(runtime), settings_(std::move(settings)) {
  if (settings_.vtk && runtime_.root()) pvd_.emplace(dir_ / "fields.pvd");
}

void OutputSeries::continue_before(double time) {
  long kept = 0;
  if (pvd_) {
    pvd_->keep_entries_before(time);
    kept = static_cast<long>(pvd_->size());
  }
  MPI_Bcast(&kept, 1, MPI_LONG, 0, runtime_.comm());
  writes_ = static_cast<std::size_t>(kept);
  int earlier = settings_.hdf5 && runtime_.root() && std::filesystem::exists(dir_ / "fields.h5");
  MPI_Bcast(&earlier, 1, MPI_INT, 0, runtime_.comm());
  if (earlier) hdf5_earlier_ = dir_ / "fields.h5";
  continue_before_ = time;
}

void OutputSeries::write(double time, const io::MeshData& mesh) {
  if (settings_.vtk) {
    const std::string stem = fmt::format("fields/fields_{:06d}", writes_);
    std::filesystem::path file;
    if (runtime_.size() == 1) {
      file = dir_ / (stem + io::vtk_extension(mesh.kind));
      io::write_vtk(mesh, file);
    } else {
      file = dir_ / (stem + ".p" + io::vtk_extension(mesh.kind).substr(1));
      io::write_vtk_partitioned(mesh, file, runtime_.comm());
    }
    if (pvd_) pvd_->add(time, file);
  }
  if (settings_.hdf5) {
    if (!hdf5_) {
      std::vector<io::FieldSpec> specs;
      for (const auto& a : mesh.point_data)
        specs.push_back({a.name, io::FieldSpec::On::kPoints, a.components(), "", ""});
      for (const auto& a : mesh.cell_data)
        specs.push_back({a.name, io::FieldSpec::On::kCells, a.components(), "", ""});
      hdf5_.emplace(dir_ / "fields.h5", runtime_.comm(), mesh, specs, settings_.case_yaml,
                    settings_.producer);
      if (hdf5_earlier_) hdf5_->append_earlier(*hdf5_earlier_, continue_before_);
      hdf5_earlier_.reset();
    }
    std::vector<io::NamedArray> fields = mesh.point_data;
    fields.insert(fields.end(), mesh.cell_data.begin(), mesh.cell_data.end());
    hdf5_->append(time, fields);
  }
  ++writes_;
}

nlohmann::json OutputSeries::close() {
  nlohmann::json written = nlohmann::json::object();
  if (settings_.vtk) written["pvd"] = (dir_ / "fields.pvd").string();
  if (hdf5_) {
    hdf5_->close();
    written["hdf5"] = (dir_ / "fields.h5").string();
    written["xdmf"] = (dir_ / "fields.xdmf").string();
  }
  written["writes"] = writes_;
  return written;
}

}  // namespace surrox::apps
