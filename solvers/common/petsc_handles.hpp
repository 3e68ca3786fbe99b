#pragma once
// Owning handles for the PETSc objects of the structured-grid solvers (DM, Vec, Mat, KSP,
// MatNullSpace) and SURROX_PETSC_CHECK, which turns a PETSc error code into surrox::Error.
#include <petscdmda.h>
#include <petscksp.h>

#include <string>
#include <utility>

#include "core/error.hpp"

namespace surrox::solvers {

// Throws surrox::Error("PETSc error <code> in <what>") when a PETSc call fails.
inline void petsc_check(PetscErrorCode code, const char* what) {
  if (code != 0)
    throw Error("PETSc error " + std::to_string(static_cast<int>(code)) + " in " + what);
}
#define SURROX_PETSC_CHECK(call) ::surrox::solvers::petsc_check((call), #call)

// A PETSc object handle destroyed with its XxxDestroy function; move-only.
template <class T, PetscErrorCode (*Destroy)(T*)>
class PetscHandle {
 public:
  PetscHandle() = default;
  ~PetscHandle() { reset(); }
  PetscHandle(const PetscHandle&) = delete;
  PetscHandle& operator=(const PetscHandle&) = delete;
  PetscHandle(PetscHandle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  PetscHandle& operator=(PetscHandle&& other) noexcept {
    if (this != &other) {
      reset();
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  void reset() {
    if (object_) Destroy(&object_);
    object_ = nullptr;
  }
  T get() const { return object_; }
  T* out() {
    reset();
    return &object_;
  }  // for XxxCreate(..., handle.out())
  explicit operator bool() const { return object_ != nullptr; }

 private:
  T object_ = nullptr;
};

using DmHandle = PetscHandle<DM, DMDestroy>;
using VecHandle = PetscHandle<Vec, VecDestroy>;
using MatHandle = PetscHandle<Mat, MatDestroy>;
using KspHandle = PetscHandle<KSP, KSPDestroy>;
using NullSpaceHandle = PetscHandle<MatNullSpace, MatNullSpaceDestroy>;

}  // namespace surrox::solvers
