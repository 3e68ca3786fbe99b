#pragma once
// DeePMD-kit's model deviation (doc/test/model-deviation.md; pair_style deepmd with several
// models) for surrox's MD engine (`pair: {type: deep, models: [...]}`) and LAMMPS
// (`pair_style surrox/deep m0.pt m1.pt ...`): over an ensemble of M models,
//   ε_F,i  = sqrt(⟨‖F_i,k − ⟨F_i⟩‖²⟩)           per atom, ⟨·⟩ = (1/M) Σ_k (divides by M);
//   ε_V,αβ = sqrt(⟨(V_αβ,k − ⟨V_αβ⟩)²⟩) / N       per virial component, N atoms;
// each output row holds the step, max/min/avg over the 9 ε_V (avg: root mean square, as
// DeePMD-kit) and max/min/avg over the atoms of ε_F (avg: mean).
#include <mpi.h>

#include <filesystem>
#include <string>
#include <vector>

namespace surrox::surrogates::deep_potential {

struct ModelDeviRow {
  long step = 0;
  double max_devi_v = 0, min_devi_v = 0, avg_devi_v = 0;
  double max_devi_f = 0, min_devi_f = 0, avg_devi_f = 0;
};

// ε_F of one atom from its force under each model: forces[3k + d] for model k, direction d.
double force_deviation(const std::vector<double>& forces, long models);

// DeePMD-kit's relative deviation (pair_style deepmd ... relative V): ε_F,i / (‖⟨F_i⟩‖ + V).
double relative_force_deviation(const std::vector<double>& forces, long models, double level);

// The step and the virial columns from each model's whole-system virial tensor,
// virial[9k + 3α + β] for model k (eV), and the number of atoms.
ModelDeviRow virial_deviation(long step, const std::vector<double>& virial, long models,
                              long atoms);

// One step's row from each rank's share, reduced over `comm` (both MD hosts call it): `forces`
// holds each owned atom's forces under every model (atoms rows of 3 × models, ghost
// contributions already folded in), `virial` each model's virial over this rank's centres
// (9 × models). relative_level > 0: DeePMD-kit's relative ε_F with that level.
ModelDeviRow reduce_model_devi(long step, const double* forces, long atoms, long models,
                               std::vector<double> virial, MPI_Comm comm,
                               double relative_level = 0);

// DeePMD-kit's md.out layout: a "#" header, then per row the step in 12 columns and each value
// in scientific notation in 19 (" %18.10e": DeePMD-kit writes 6 decimals; 10 fit the same
// columns and keep what a comparison to 1e-10 needs).
std::string model_devi_header();
std::string model_devi_line(const ModelDeviRow& row);

// model_devi.out in that layout and model_devi.csv with the same columns at full precision.
void write_model_devi(const std::filesystem::path& dir, const std::vector<ModelDeviRow>& rows);

// Reads an md.out / model_devi.out (InputError naming the file and line for a malformed row).
std::vector<ModelDeviRow> read_model_devi_out(const std::filesystem::path& out);

// Reads the model_devi.csv write_model_devi writes (InputError naming the file and line for a
// missing file, another header or a malformed row).
std::vector<ModelDeviRow> read_model_devi(const std::filesystem::path& csv);

}  // namespace surrox::surrogates::deep_potential
