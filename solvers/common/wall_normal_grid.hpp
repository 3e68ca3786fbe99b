#pragma once
// The wall-normal (z) grid of a layer between two walls, uniform or clustered toward both.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace surrox::solvers {

// The wall-normal grid on [0, 1]: nz cells whose faces are
//   z_k = ½ (1 + tanh(γ (2k/nz − 1)) / tanh γ),   k = 0 … nz   (γ = stretching; γ = 0: k/nz),
// clustered symmetrically toward both walls; cell centres lie midway between their faces
// (second order for this smooth map). For large nz the first cell is about 2γ/sinh(2γ) of a
// uniform cell thick, the middle one γ/tanh γ. Indices outside [0, nz) are the ghost cells
// mirrored in the walls (a ghost is as thick as its mirror image).
class WallNormalGrid {
 public:
  WallNormalGrid(long nz, double stretching) : nz_(nz), uniform_(stretching == 0) {
    faces_.resize(static_cast<std::size_t>(nz) + 1);
    for (long k = 0; k <= nz; ++k) {
      const double xi = static_cast<double>(k) / static_cast<double>(nz);
      faces_[k] =
          uniform_ ? xi : 0.5 * (1 + std::tanh(stretching * (2 * xi - 1)) / std::tanh(stretching));
    }
    faces_[0] = 0, faces_[nz] = 1;
  }
  bool uniform() const { return uniform_; }
  long cells() const { return nz_; }
  double face(long k) const { return faces_[k]; }  // k = 0 … nz
  // Thickness of cell k (any k: ghosts mirror).
  double dz(long k) const {
    if (uniform_) return 1.0 / static_cast<double>(nz_);
    const long m = mirror(k);
    return faces_[m + 1] - faces_[m];
  }
  // Centre of cell k (any k: ghosts mirror).
  double zc(long k) const {
    if (k < 0) return -zc(-1 - k);
    if (k >= nz_) return 2.0 - zc(2 * nz_ - 1 - k);
    return uniform_ ? (static_cast<double>(k) + 0.5) / static_cast<double>(nz_)
                    : 0.5 * (faces_[k] + faces_[k + 1]);
  }
  // Distance between the centres of cells k − 1 and k: the height of the control volume of
  // face k (= ½(dz_{k−1} + dz_k); dz_0 at the bottom wall, dz_{nz−1} at the top).
  double dzc(long k) const {
    return uniform_ ? 1.0 / static_cast<double>(nz_) : 0.5 * (dz(k - 1) + dz(k));
  }
  double min_dz() const {
    double m = dz(0);
    for (long k = 1; k < nz_; ++k) m = std::min(m, dz(k));
    return m;
  }
  // Gershgorin bound of the z part of the discrete Laplacians (cell centres and z-faces):
  // max over k of 2/dz_k (1/dzc_k + 1/dzc_{k+1}) and 2/dzc_k (1/dz_{k−1} + 1/dz_k); 4/h² when
  // uniform.
  double diffusion_bound() const {
    double m = 0;
    for (long k = 0; k < nz_; ++k) {
      m = std::max(m, 2 / dz(k) * (1 / dzc(k) + 1 / dzc(k + 1)));
      if (k > 0) m = std::max(m, 2 / dzc(k) * (1 / dz(k - 1) + 1 / dz(k)));
    }
    return m;
  }

 private:
  long mirror(long k) const { return k < 0 ? -1 - k : k >= nz_ ? 2 * nz_ - 1 - k : k; }
  long nz_;
  bool uniform_;
  std::vector<double> faces_;
};

}  // namespace surrox::solvers
