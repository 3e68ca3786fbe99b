#pragma once
// A tiny synthetic snapshot series for the pod_lstm tests: three travelling patterns on a small
// image, written as a surrox dataset.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "io/hdf5_dataset.hpp"

namespace surrox::testing {

// A surrox dataset of `steps` snapshots of a scalar cell field `psi` on an ni × nj image.
inline std::filesystem::path pod_tiny_dataset(const std::filesystem::path& path, long steps,
                                              long ni = 10, long nj = 6) {
  namespace io = surrox::io;
  io::MeshData mesh;
  mesh.kind = io::MeshKind::kImage;
  mesh.extent = {0, ni, 0, nj, 0, 0};
  mesh.spacing = {0.1, 0.1, 1};
  io::Hdf5DatasetWriter writer(path, MPI_COMM_SELF, mesh,
                               {{"psi", io::FieldSpec::On::kCells, 1, "", ""}}, "", "pod test");
  const double periods[3] = {12.0, 7.0, 19.0}, amplitudes[3] = {3.0, 1.5, 0.7};
  for (long t = 0; t < steps; ++t) {
    io::HostArray psi("psi", ni * nj, 1);
    for (long j = 0; j < nj; ++j)
      for (long i = 0; i < ni; ++i) {
        const double x = (i + 0.5) / double(ni), y = (j + 0.5) / double(nj);
        double v = 0.3 * x;
        for (int k = 0; k < 3; ++k)
          v += amplitudes[k] * std::sin(2 * M_PI * (t / periods[k] - (k + 1) * x)) *
               std::sin((k + 1) * M_PI * y);
        psi(j * ni + i, 0) = v;
      }
    writer.append(0.5 * double(t), {{"psi", psi}});
  }
  writer.close();
  return path;
}

// A pod_lstm config with a small search over the tiny dataset `dir`/series.h5 (written here).
inline std::filesystem::path pod_tiny_search_config(const std::filesystem::path& dir) {
  pod_tiny_dataset(dir / "series.h5", 120);
  const std::filesystem::path config = dir / "search.yaml";
  std::ofstream(config) << "family: pod_lstm\n"
                           "data: {path: series.h5, modes: 3}\n"
                           "network: {layers: [8], highway: true}\n"
                           "search: {budget: 4, population: 2, sample: 2, batch: 2, epochs: 2,\n"
                           "         max_layers: 3, units: [4, 8]}\n"
                           "training: {epochs: 1, batch_size: 16}\n";
  return config;
}

}  // namespace surrox::testing
