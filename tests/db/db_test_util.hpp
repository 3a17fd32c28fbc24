// Helpers of the database tests: scratch folders, sample entries, and running a check in a child
// process as an unprivileged user (root ignores file modes, and CI runs as root).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <random>
#include <string>

#include "tuning_db.hpp"

namespace autogemm::db::testing {

/// A fresh folder under the system temp dir, removed on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() / ("autogemm_db_test_" + std::to_string(getpid()) + "_" +
                                                      std::to_string(rd()));
    std::filesystem::create_directories(path_);
    std::filesystem::permissions(path_, std::filesystem::perms::all);  // the unprivileged child may write here
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline Entry sample_entry(int i, const std::string& measured_at = "2026-11-21T10:00:00Z") {
  Entry e;
  e.device = {"NVIDIA H100 80GB HBM3", 9, 0, 132, 85'000'000'000, 52'428'800};
  e.problem = {"f32", static_cast<char>(i % 2 ? 't' : 'n'), 'n', 64 + i, 3072, 3072, 4};
  e.candidate = {"simt_sgemm_128x128x8_w64x32_t8x8_s3_b256x1_nn_align4", 1 + i % 3, i % 3 ? "serial" : "none"};
  e.measurement = {100.0 + i, 95.0 + i, 10.0, 50, 12.5, true, 1.5e-6};
  e.provenance = {"GPU-1234", 580159, 13000, 1980, 2619, "0.1.0", "0123456789abcdef", "host-a", measured_at};
  return e;
}

/// Runs `body` in a child process, as user nobody when this process is root, and returns its exit
/// status (0 = the body returned true).
inline int run_unprivileged(const std::function<bool()>& body) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(3);
    bool ok = false;
    try {
      ok = body();
    } catch (...) {
      _exit(4);
    }
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace autogemm::db::testing
