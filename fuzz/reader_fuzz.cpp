// libFuzzer target for the readers surrox exposes to user files: the bytes are written to a
// file with the extension SURROX_FUZZ_EXTENSION (".vtu", ".vti", ".vtp", ".vts", ".vtk",
// ".vtm", ".pvd", ".h5") and read as `surrox info`/`convert` read it. A surrox::Error
// (InputError: exit code 2) is the expected outcome for a broken file; anything else — a
// crash, a sanitizer report, another exception escaping, a hang — is a finding.
// Built and run by scripts/fuzz.sh (clang's libFuzzer + AddressSanitizer).
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "io/hdf5_dataset.hpp"
#include "io/vtk_reader.hpp"

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

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  Kokkos::initialize();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = fuzz_input_path();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const std::string extension = SURROX_FUZZ_EXTENSION;
    if (extension == ".h5")
      surrox::io::read_hdf5_dataset(path);
    else
      surrox::io::read_vtk(path);
  } catch (const surrox::Error&) {
    // a clear error for a broken file: what surrox promises
  }
  return 0;
}
