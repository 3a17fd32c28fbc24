// See record_untuned.hpp.
#include "record_untuned.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>

#include "logging.hpp"

namespace autogemm {

void record_untuned(const std::string& path, char transa, char transb, int m, int n, int k) {
  static std::mutex mutex;
  static std::set<std::tuple<std::string, char, char, int, int, int>> written;
  static std::set<std::string> warned;
  std::lock_guard lock(mutex);
  if (!written.insert({path, transa, transb, m, n, k}).second) return;  // once per process
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (warned.insert(path).second)
      logger().warn("AUTOGEMM_RECORD_UNTUNED: cannot open {}: {}; untuned shapes are not recorded", path,
                    std::strerror(errno));
    return;
  }
  std::string text;
  struct stat st {};
  if (fstat(fd, &st) == 0 && st.st_size == 0) text = std::string(kProblemsCsvHeader) + "\n";
  text += std::string{transa, ',', transb, ','} + std::to_string(m) + "," + std::to_string(n) + "," +
          std::to_string(k) + "\n";
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) && warned.insert(path).second)
    logger().warn("AUTOGEMM_RECORD_UNTUNED: cannot write {}: {}", path, std::strerror(errno));
  close(fd);
}

}  // namespace autogemm
