// libFuzzer target for the readers surrox exposes to user files: the bytes are written to a
// file with the extension SURROX_FUZZ_EXTENSION (".vtu", ".vti", ".vtp", ".vts", ".vtk",
// ".vtm", ".pvd", ".h5") and read as surrox reads a user's file (fuzz/read_user_file.hpp: an
// HDF5 file through every HDF5 reader). A surrox::Error
// (InputError: exit code 2) is the expected outcome for a broken file; anything else — a
// crash, a sanitizer report, another exception escaping, a hang — is a finding.
// Built and run by scripts/fuzz.sh (clang's libFuzzer + AddressSanitizer).
#include <mpi.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "fuzz/read_user_file.hpp"
#include "io/contained_read.hpp"

#ifndef SURROX_FUZZ_EXTENSION
#error "define SURROX_FUZZ_EXTENSION"
#endif

namespace {

std::string fuzz_input_path() {
  // $SURROX_FUZZ_DIR lets a .vtm or .pvd find the files it names beside it.
  const char* folder = std::getenv("SURROX_FUZZ_DIR");
  return std::string(folder ? folder : "/tmp") + "/fuzz-input-" + std::to_string(::getpid()) +
         SURROX_FUZZ_EXTENSION;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  Kokkos::initialize();
  surrox::io::contain_library_crashes(false);  // see crashes where they happen, not as errors
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = fuzz_input_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  surrox::fuzz::read_user_file(path);  // a clear error for a broken file: what surrox promises
  return 0;
}
