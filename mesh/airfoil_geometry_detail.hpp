#pragma once
// Internal to the airfoil geometry files (naca_airfoil.cpp, joukowski_airfoil.cpp,
// airfoil_resampling.cpp): what more than one of them uses. One definition here, because the
// library is compiled in unity batches, where file-local definitions of the same name in two
// files would collide.

namespace surrox::mesh::detail {

inline constexpr double kPi = 3.14159265358979323846;

}  // namespace surrox::mesh::detail
