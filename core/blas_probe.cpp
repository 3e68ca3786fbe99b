// Finds which BLAS the dynamic linker actually loaded. Debian's LibTorch links the generic
// libblas.so.3, an alternatives symlink whose target decides a 10x difference in speed.
#include <link.h>

#include <filesystem>
#include <string>

#include "core/runtime.hpp"

namespace surrox {
namespace {

int find_blas(dl_phdr_info* info, size_t, void* data) {
  const std::string name = info->dlpi_name ? info->dlpi_name : "";
  const std::string file = std::filesystem::path(name).filename().string();
  if (file.rfind("libblas.so", 0) == 0 || file.rfind("libopenblas", 0) == 0 ||
      file.rfind("libmkl_rt", 0) == 0 || file.rfind("libblis", 0) == 0) {
    std::error_code error;
    const auto resolved = std::filesystem::canonical(name, error);
    *static_cast<std::string*>(data) = error ? name : resolved.string();
    return 1;
  }
  return 0;
}

}  // namespace

std::string loaded_blas_library() {
  std::string found;
  dl_iterate_phdr(find_blas, &found);
  return found;
}

std::string blas_vendor(const std::string& path) {
  if (path.empty()) return "none loaded";
  if (path.find("openblas-openmp") != std::string::npos) return "OpenBLAS (OpenMP)";
  if (path.find("openblas-pthread") != std::string::npos) return "OpenBLAS (pthreads)";
  if (path.find("openblas") != std::string::npos) return "OpenBLAS";
  if (path.find("blis") != std::string::npos) return "BLIS";
  if (path.find("mkl") != std::string::npos) return "MKL";
  if (path.find("atlas") != std::string::npos) return "ATLAS";
  if (path.find("blas/libblas") != std::string::npos) return "reference BLAS";
  return "unknown";
}

}  // namespace surrox
