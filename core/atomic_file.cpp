#include "core/atomic_file.hpp"

#include <unistd.h>

#include <fstream>
#include <system_error>

#include "core/error.hpp"

namespace surrox {

AtomicFile::AtomicFile(std::filesystem::path final_path) : final_(std::move(final_path)) {
  if (final_.has_parent_path()) std::filesystem::create_directories(final_.parent_path());
  temporary_ = final_;
  temporary_ += ".tmp-" + std::to_string(::getpid());
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove_all(temporary_, ignored);
  }
}

void AtomicFile::commit() {
  std::error_code error;
  std::filesystem::rename(temporary_, final_, error);
  if (error)
    throw Error("cannot move " + temporary_.string() + " to " + final_.string() + ": " +
                error.message());
  committed_ = true;
}

void write_text_atomically(const std::filesystem::path& path, const std::string& text) {
  AtomicFile file(path);
  {
    std::ofstream out(file.temporary(), std::ios::binary);
    out << text;
    out.flush();
    if (!out) throw Error("cannot write " + file.temporary().string());
  }
  file.commit();
}

}  // namespace surrox
