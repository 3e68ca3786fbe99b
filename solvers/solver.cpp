#include "solvers/solver.hpp"

#include "core/error.hpp"

namespace surrox::solvers {

void Solver::save_state(io::Hdf5Checkpoint&) const {
  throw Error("this solver does not support checkpoints");
}

void Solver::load_state(const io::Hdf5Checkpoint&) {
  throw InputError("this solver cannot restart from a checkpoint");
}

}  // namespace surrox::solvers
