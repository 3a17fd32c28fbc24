// See record_untuned.hpp.
#include "record_untuned.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "logging.hpp"

namespace autogemm {

namespace {

/// Whether the file behind `fd` starts with `header` (its lines keep that header's columns).
bool has_header(int fd, const char* header) {
  char head[96] = {};
  const ssize_t got = pread(fd, head, sizeof head - 1, 0);
  const std::string first = got > 0 ? std::string(head, static_cast<size_t>(got)) : std::string();
  return first.rfind(std::string(header) + "\n", 0) == 0 || first.rfind(std::string(header) + "\r\n", 0) == 0;
}

}  // namespace

void record_untuned(const std::string& path, const RecordedProblem& p) {
  static std::mutex mutex;
  static std::set<std::pair<std::string, RecordedProblem>> written;
  static std::set<std::string> warned;
  std::lock_guard lock(mutex);
  if (!written.insert({path, p}).second) return;  // once per process
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (warned.insert(path).second)
      logger().warn("AUTOGEMM_RECORD_UNTUNED: cannot open {}: {}; untuned shapes are not recorded", path,
                    std::strerror(errno));
    return;
  }
  std::string text;
  struct stat st {};
  const bool empty = fstat(fd, &st) == 0 && st.st_size == 0;
  const bool v1 = !empty && has_header(fd, kProblemsCsvHeaderV1);
  const bool v2 = !empty && has_header(fd, kProblemsCsvHeaderV2);
  if (empty) text = std::string(kProblemsCsvHeader) + "\n";
  text += std::string{p.transa, ',', p.transb, ','} + std::to_string(p.m) + "," + std::to_string(p.n) + "," +
          std::to_string(p.k);
  if (!v1)
    text += "," + std::to_string(p.lda) + "," + std::to_string(p.ldb) + "," + std::to_string(p.ldc) + "," +
            std::to_string(p.align);
  if (!v1 && !v2) text += "," + p.dtype;
  text += "\n";
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) && warned.insert(path).second)
    logger().warn("AUTOGEMM_RECORD_UNTUNED: cannot write {}: {}", path, std::strerror(errno));
  close(fd);
}

}  // namespace autogemm
