#pragma once
// Training data from a collection of VTK/ParaView files (any format io::read_vtk takes), one
// case per file, listed by a glob or a CSV/YAML manifest with each case's parameters
// (training/field/collection_channels.hpp). Rows are the points or cells of each case's mesh, so
// cases may have different meshes (per-point networks). Split by case or by groups of cases
// (never by row), normalised with statistics of the training cases only, and cached as one
// HDF5 file (io/hdf5_collection_cache.hpp) that is rebuilt when the data section, the
// manifest or any file changes. Produces the FieldDataset the field training uses.
#include "core/case_node.hpp"
#include "core/schema.hpp"
#include "surrogates/input_description.hpp"
#include "training/field/collection_channels.hpp"
#include "training/field/field_dataset.hpp"

namespace surrox::training {

// One case a trained model is applied to (`surrox predict`): the file as read, which rows its
// block gives, and the rows' inputs in physical units, [rows, inputs] float64.
struct CollectionPredictionCase {
  CollectionCase source;
  io::MeshCollection file;
  CollectionChannelSpec spec;
  std::vector<std::string> output_names;  // the model's, expanded (U[0], U[1], U[2])
  torch::Tensor inputs;
};

struct CollectionDataset {
  // The `data` section of type collection.
  static Schema schema();
  // `samples` is the network's: a row per point, or for a whole-grid network every case on one
  // shared structured grid.
  // FieldDataset::source is the channel description the model's metadata keeps.
  static FieldDataset load(const CaseNode& section, surrogates::GridSamples samples);
  // Every case of `files` (a manifest, or one held-out VTK file when the model takes no
  // parameters) in `test`, normalised with a trained model's statistics; no cache.
  static FieldDataset load_all(const CaseNode& section, surrogates::GridSamples samples,
                               const Normalization& inputs, const Normalization& outputs);
  // The one case of `files` (a VTK file, an OpenFOAM case folder, a manifest of one case) with
  // the model's input channels `inputs` (names as the model's metadata keeps them); its
  // outputs need not be there. InputError for several cases, parameters without a manifest, or
  // channels that differ from the model's.
  static CollectionPredictionCase prediction_case(const CaseNode& section,
                                                  const std::vector<std::string>& inputs,
                                                  const std::vector<std::string>& outputs);
};

}  // namespace surrox::training
