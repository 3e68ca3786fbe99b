#include "solvers/airfoil/anderson_acceleration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "io/hdf5_checkpoint.hpp"

// LAPACK by PETSc's names; petscsys.h first, for the types petscblaslapack.h uses.
#include <petscsys.h>
// (kept apart so that include sorting cannot reorder the two)
#include <petscblaslapack.h>

namespace surrox::solvers::airfoil {

namespace {

using Flat = Kokkos::View<double*, Kokkos::LayoutRight, Kokkos::MemoryUnmanaged>;
Flat flat(const Array3& u) { return Flat(u.data(), u.size()); }

// Entries per work item of the combination: long enough for a vector loop over one column,
// short enough for the chunk of G(U) to stay in cache while the columns pass.
constexpr long kChunk = 512;

// Partial sums per inner product (see Anderson::products).
constexpr int kLanes = 8;

int checked_depth(int depth) {
  if (depth < 1 || depth > AndersonAcceleration::kMaxDepth)
    throw InputError(fmt::format("acceleration depth {} out of range; allowed: [1, {}]", depth,
                                 AndersonAcceleration::kMaxDepth));
  return depth;
}

}  // namespace

AndersonAcceleration::AndersonAcceleration(const Array3& u_shape, int depth,
                                           const std::vector<double>& scale, MPI_Comm comm)
    : depth_(checked_depth(depth)),
      size_(static_cast<long>(u_shape.size())),
      block_(static_cast<long>(u_shape.extent(1) * u_shape.extent(2))),
      rows_(static_cast<long>(u_shape.extent(1))),
      ni_(static_cast<long>(u_shape.extent(2))),
      comm_(comm),
      x_("anderson_x", size_),
      f_("anderson_f", size_),
      g_previous_("anderson_g_previous", size_),
      df_("anderson_df", depth_, size_),
      dg_("anderson_dg", depth_, size_),
      gram_(static_cast<std::size_t>(depth_ * depth_), 0.0) {
  variables_ = static_cast<int>(u_shape.extent(0));
  if (variables_ > kMaxVariables || scale.size() != static_cast<std::size_t>(variables_))
    throw Error(fmt::format("Anderson acceleration: {} variables and {} scales (at most {})",
                            variables_, scale.size(), kMaxVariables));
  for (int k = 0; k < variables_; ++k) root_weight_.v[k] = 1.0 / scale[static_cast<std::size_t>(k)];
  row_sums_ = RowSums("anderson_row_sums", rows_, 2 * kMaxDepth);
  row_sums_host_ = Kokkos::create_mirror_view(row_sums_);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  rows_of_rank_.assign(static_cast<std::size_t>(ranks), rows_);
  if (ranks > 1) MPI_Allgather(&rows_, 1, MPI_LONG, rows_of_rank_.data(), 1, MPI_LONG, comm);
  total_rows_ = 0;
  for (int r = 0; r < ranks; ++r) {
    counts_.push_back(static_cast<int>(rows_of_rank_[static_cast<std::size_t>(r)] * 2 * kMaxDepth));
    offsets_.push_back(static_cast<int>(total_rows_ * 2 * kMaxDepth));
    total_rows_ += rows_of_rank_[static_cast<std::size_t>(r)];
  }
  if (ranks > 1) all_row_sums_.resize(static_cast<std::size_t>(total_rows_ * 2 * kMaxDepth));
}

void AndersonAcceleration::remember(const Array3& u) { Kokkos::deep_copy(x_, Vector(flat(u))); }

void AndersonAcceleration::clear() {
  count_ = 0;
  next_ = 0;
  have_previous_ = false;
}

void AndersonAcceleration::reject(const Array3& u) {
  Kokkos::deep_copy(Vector(flat(u)), g_previous_);
  clear();
}

int AndersonAcceleration::accelerate(const Array3& u) {
  const Vector g = flat(u);
  const Vector x = x_, f = f_, g_prev = g_previous_;
  const bool first = !have_previous_;
  have_previous_ = true;
  // One pass: f = G(U_k) − U_k (weighted), the newest differences into the oldest column, and
  // f and G(U_k) kept for the next call (G(U_k), not the mixed iterate: reject() restores it).
  const int c = next_;
  const Columns df = df_, dg = dg_;
  const long block = block_;
  const SumN<kMaxVariables> weight = root_weight_;
  // Two-dimensional, so that no entry pays an integer division for its variable.
  Kokkos::parallel_for(
      "Anderson::differences", Range2({0, 0}, {variables_, block}), KOKKOS_LAMBDA(long k, long n) {
        const long e = k * block + n;
        const double fe = (g(e) - x(e)) * weight.v[k];
        if (!first) {
          df(c, e) = static_cast<float>(fe - f(e));
          dg(c, e) = static_cast<float>(g(e) - g_prev(e));
        }
        f(e) = fe;
        g_prev(e) = g(e);
      });
  if (first) return 0;
  next_ = (next_ + 1) % depth_;
  count_ = std::min(count_ + 1, depth_);
  const int m = count_;

  // One pass for the Gram matrix's new row ΔF_cᵀΔF_j and the right side ΔF_jᵀ f: per grid row
  // (its variables × ni entries in a fixed order, contiguous per column), then the rows of all
  // ranks added in global row order, so N ranks get the one-rank sums and iterates bit for bit.
  const long size = size_, ni = ni_, rows = rows_;
  const int variables = variables_;
  const float* const columns = df.data();  // row-major: column j starts at j · size
  const double* const fs = f.data();
  const RowSums row_sums = row_sums_;
  // Each sum in kLanes partial sums (a row's n-th entry into lane n mod kLanes), added in order at
  // the end: independent chains the compiler can vectorise instead of one chain of dependent
  // additions, and still the same operands in the same order on any number of ranks.
  Kokkos::parallel_for(
      "Anderson::products", Range1(0, rows), KOKKOS_LAMBDA(long row) {
        const float* const newest = columns + c * size;
        for (int j = 0; j < m; ++j) {
          const float* const column = columns + j * size;
          double a[kLanes] = {}, b[kLanes] = {};
          for (int k = 0; k < variables; ++k) {
            const long begin = (k * rows + row) * ni, end = begin + ni;
            long e = begin;
            for (; e + kLanes <= end; e += kLanes)
              for (int l = 0; l < kLanes; ++l) {
                const double cl = column[e + l];
                a[l] += static_cast<double>(newest[e + l]) * cl;
                b[l] += fs[e + l] * cl;
              }
            for (int l = 0; e < end; ++e, ++l) {
              const double cl = column[e];
              a[l] += static_cast<double>(newest[e]) * cl;
              b[l] += fs[e] * cl;
            }
          }
          double sa = 0, sb = 0;
          for (int l = 0; l < kLanes; ++l) sa += a[l], sb += b[l];
          row_sums(row, j) = sa;
          row_sums(row, kMaxDepth + j) = sb;
        }
      });
  Kokkos::deep_copy(row_sums_host_, row_sums_);
  const double* all = row_sums_host_.data();
  if (rows_of_rank_.size() > 1) {
    MPI_Allgatherv(row_sums_host_.data(), static_cast<int>(row_sums_host_.size()), MPI_DOUBLE,
                   all_row_sums_.data(), counts_.data(), offsets_.data(), MPI_DOUBLE, comm_);
    all = all_row_sums_.data();
  }
  double sums[2 * kMaxDepth] = {};
  for (long row = 0; row < total_rows_; ++row)
    for (int j = 0; j < m; ++j) {
      sums[j] += all[row * 2 * kMaxDepth + j];
      sums[kMaxDepth + j] += all[row * 2 * kMaxDepth + kMaxDepth + j];
    }
  for (int j = 0; j < m; ++j) {
    gram_[static_cast<std::size_t>(c * depth_ + j)] = sums[j];
    gram_[static_cast<std::size_t>(j * depth_ + c)] = sums[j];
  }
  // Normal equations (ΔFᵀΔF) γ = ΔFᵀ f by LAPACK's least squares with an SVD cut-off, as
  // SNESNGMRES: nearly parallel columns are dropped instead of amplified.
  std::vector<double> a(static_cast<std::size_t>(m * m)), b(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) {
    b[static_cast<std::size_t>(i)] = sums[kMaxDepth + i];
    for (int j = 0; j < m; ++j)
      a[static_cast<std::size_t>(j * m + i)] = gram_[static_cast<std::size_t>(i * depth_ + j)];
  }
  PetscBLASInt n = m, nrhs = 1, lda = m, ldb = m, rank = 0, info = 0;
  PetscBLASInt lwork = 16 * m + 64;
  std::vector<double> singular(static_cast<std::size_t>(m)), work(static_cast<std::size_t>(lwork));
  const double rcond = 1e-12;
  LAPACKgelss_(&n, &n, &nrhs, a.data(), &lda, b.data(), &ldb, singular.data(), &rcond, &rank,
               work.data(), &lwork, &info);
  if (info != 0) return 0;
  SumN<kMaxDepth> gamma;
  for (int i = 0; i < m; ++i) gamma.v[i] = b[static_cast<std::size_t>(i)];
  const long chunks = (size_ + kChunk - 1) / kChunk;
  const float* const updates = dg.data();
  double* const out = g.data();
  Kokkos::parallel_for(
      "Anderson::mix", Range1(0, chunks), KOKKOS_LAMBDA(long chunk) {
        const long begin = chunk * kChunk, end = begin + kChunk < size ? begin + kChunk : size;
        for (int i = 0; i < m; ++i) {
          const float* const column = updates + i * size;
          const double weight = gamma.v[i];
          for (long e = begin; e < end; ++e) out[e] -= weight * column[e];
        }
      });
  return m;
}

void AndersonAcceleration::save(io::Hdf5Checkpoint& checkpoint, const std::string& prefix) const {
  if (!have_previous_) return;
  checkpoint.scalars[prefix + "depth"] = depth_;
  checkpoint.scalars[prefix + "count"] = count_;
  checkpoint.scalars[prefix + "next"] = next_;
  // Per entry: f and G(U_k), then the count_ stored columns of ΔF and of ΔG (single precision,
  // exact in double). Not U_k: the next cycle remembers its own before it accelerates.
  const auto f = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f_);
  const auto g = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), g_previous_);
  const auto df = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), df_);
  const auto dg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dg_);
  io::HostArray history("Anderson::history", static_cast<std::size_t>(size_),
                        static_cast<std::size_t>(2 + 2 * count_));
  for (long e = 0; e < size_; ++e) {
    history(e, 0) = f(e), history(e, 1) = g(e);
    for (int j = 0; j < count_; ++j)
      history(e, 2 + j) = df(j, e), history(e, 2 + count_ + j) = dg(j, e);
  }
  checkpoint.arrays.push_back({prefix + "history", history});
  io::HostArray gram("Anderson::gram", 1, gram_.size());  // the same on every rank
  for (std::size_t n = 0; n < gram_.size(); ++n) gram(0, n) = gram_[n];
  checkpoint.arrays.push_back({prefix + "gram", gram});
}

bool AndersonAcceleration::load(const io::Hdf5Checkpoint& checkpoint, const std::string& prefix) {
  clear();
  const io::NamedArray* history = checkpoint.find_array(prefix + "history");
  const io::NamedArray* gram = checkpoint.find_array(prefix + "gram");
  const auto scalar = [&](const char* name) { return checkpoint.scalar_or(prefix + name, -1); };
  const int count = static_cast<int>(scalar("count")), next = static_cast<int>(scalar("next"));
  int fits = history && gram && scalar("depth") == depth_ && count >= 0 && count <= depth_ &&
             next >= 0 && next < depth_ && static_cast<long>(history->tuples()) == size_ &&
             static_cast<int>(history->components()) == 2 + 2 * count &&
             gram->components() == gram_.size();
  if (rows_of_rank_.size() > 1) MPI_Allreduce(MPI_IN_PLACE, &fits, 1, MPI_INT, MPI_MIN, comm_);
  if (!fits) return false;
  auto f = Kokkos::create_mirror_view(f_), g = Kokkos::create_mirror_view(g_previous_);
  auto df = Kokkos::create_mirror_view(df_), dg = Kokkos::create_mirror_view(dg_);
  const auto& h = history->values;
  for (long e = 0; e < size_; ++e) {
    f(e) = h(e, 0), g(e) = h(e, 1);
    for (int j = 0; j < count; ++j)
      df(j, e) = static_cast<float>(h(e, 2 + j)),
            dg(j, e) = static_cast<float>(h(e, 2 + count + j));
  }
  Kokkos::deep_copy(f_, f), Kokkos::deep_copy(g_previous_, g);
  Kokkos::deep_copy(df_, df), Kokkos::deep_copy(dg_, dg);
  for (std::size_t n = 0; n < gram_.size(); ++n) gram_[n] = gram->values(0, n);
  count_ = count;
  next_ = next;
  have_previous_ = true;
  return true;
}

}  // namespace surrox::solvers::airfoil
