# Finds every dependency from Debian 12's packages (see scripts/bootstrap.sh) and
# papers over the quirks of those packages, so that targets can link plain names.

find_package(MPI REQUIRED COMPONENTS C CXX)

# Debian's Trilinos build of Kokkos 3.4.1 puts a non-existent /usr/lib/include on the
# Kokkos::kokkos target; its headers live in /usr/include/trilinos.
find_package(Kokkos REQUIRED)
foreach(_kokkos_target Kokkos::kokkos Kokkos::kokkoscore Kokkos::kokkoscontainers)
  if(TARGET ${_kokkos_target})
    get_target_property(_kokkos_aliased ${_kokkos_target} ALIASED_TARGET)
    if(_kokkos_aliased)
      set(_kokkos_real ${_kokkos_aliased})
    else()
      set(_kokkos_real ${_kokkos_target})
    endif()
    get_target_property(_kokkos_inc ${_kokkos_real} INTERFACE_INCLUDE_DIRECTORIES)
    if(_kokkos_inc)
      set(_kokkos_fixed "")
      foreach(_dir IN LISTS _kokkos_inc)
        if(NOT _dir MATCHES "^/usr/lib/include$" AND (NOT _dir MATCHES "^/" OR EXISTS "${_dir}"))
          list(APPEND _kokkos_fixed "${_dir}")
        endif()
      endforeach()
      if(EXISTS /usr/include/trilinos)
        list(APPEND _kokkos_fixed /usr/include/trilinos)
      endif()
      set_target_properties(${_kokkos_real} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_kokkos_fixed}")
    endif()
  endif()
endforeach()

# Parallel HDF5: without this hint FindHDF5 picks Debian's serial flavour.
set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "surrox needs parallel HDF5 (Debian: libhdf5-openmpi-dev); found ${HDF5_C_LIBRARIES}")
endif()

find_package(Torch REQUIRED)
# LibTorch's c10d process groups (data-parallel training) include Gloo's headers.
find_path(GLOO_INCLUDE_DIR gloo/config.h REQUIRED)
find_library(GLOO_LIBRARY gloo REQUIRED)
if(NOT TARGET surrox_gloo)
  add_library(surrox_gloo INTERFACE)
  target_include_directories(surrox_gloo SYSTEM INTERFACE ${GLOO_INCLUDE_DIR})
  target_link_libraries(surrox_gloo INTERFACE ${GLOO_LIBRARY})
endif()
find_package(VTK 9.1 REQUIRED COMPONENTS
  CommonCore CommonDataModel CommonExecutionModel IOCore IOXML IOXMLParser IOLegacy
  IOParallelXML ParallelMPI FiltersCore FiltersVerdict
  # vtkOpenFOAMReader: OpenFOAM case folders read directly (io/vtk_openfoam_case.cpp)
  IOGeometry)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 QUIET)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)

find_package(PkgConfig REQUIRED)
pkg_check_modules(PETSC REQUIRED IMPORTED_TARGET petsc)
# LAPACK's least squares (the airfoil solver's Anderson acceleration), through PETSc's
# petscblaslapack.h names; Debian's petsc.pc does not list it for shared linking.
find_package(LAPACK REQUIRED)
# FFTW's sine transforms: the Poisson solves of the closed-basin (quasi-geostrophic) solver.
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
# FFTW's MPI transforms (libfftw3-mpi-dev, no pkg-config file): the distributed sine transform.
find_library(FFTW3_MPI_LIBRARY fftw3_mpi REQUIRED)
find_path(FFTW3_MPI_INCLUDE_DIR fftw3-mpi.h REQUIRED)
add_library(surrox_fftw3_mpi INTERFACE)
target_link_libraries(surrox_fftw3_mpi INTERFACE ${FFTW3_MPI_LIBRARY} PkgConfig::FFTW3 MPI::MPI_CXX)
target_include_directories(surrox_fftw3_mpi INTERFACE ${FFTW3_MPI_INCLUDE_DIR})
# Debian's petsc.pc carries its own build's hardening flags (-D_FORTIFY_SOURCE=2 -Wdate-time).
# Passed on to every target that links the solvers, they make those units differ from the
# LibTorch precompiled header, which GCC then ignores (-Winvalid-pch) and parses torch anew in
# each of them. The build type decides hardening, not a dependency.
get_target_property(petsc_options PkgConfig::PETSC INTERFACE_COMPILE_OPTIONS)
if(petsc_options)
  list(FILTER petsc_options EXCLUDE REGEX "^-D_FORTIFY_SOURCE|^-U_FORTIFY_SOURCE|^-Wdate-time$")
  set_target_properties(PkgConfig::PETSC PROPERTIES INTERFACE_COMPILE_OPTIONS "${petsc_options}")
endif()

if(SURROX_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(SURROX_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

# CLI11 ships as a header-only package; Debian 12's copy may lack a config file.
if(NOT TARGET CLI11::CLI11)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  set_target_properties(CLI11::CLI11 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${CLI11_INCLUDE_DIR})
endif()

# One interface target for the HDF5 found above.
if(NOT TARGET surrox_hdf5)
  add_library(surrox_hdf5 INTERFACE)
  target_include_directories(surrox_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS})
  target_link_libraries(surrox_hdf5 INTERFACE ${HDF5_C_LIBRARIES})
  target_compile_definitions(surrox_hdf5 INTERFACE ${HDF5_C_DEFINITIONS})
endif()
