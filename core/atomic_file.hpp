#pragma once
// Writes that never leave a partial file under the final name: write to a temporary name in
// the same folder, then rename(2) it over the final name once complete.
#include <filesystem>
#include <string>

namespace surrox {

class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Where to write: "<final>.tmp-<pid>", in the final folder so the rename cannot cross
  // filesystems.
  const std::filesystem::path& temporary() const { return temporary_; }
  const std::filesystem::path& final_path() const { return final_; }
  void commit();

 private:
  std::filesystem::path final_, temporary_;
  bool committed_ = false;
};

void write_text_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace surrox
