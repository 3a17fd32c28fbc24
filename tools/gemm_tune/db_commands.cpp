// gemm-tune export / import / db: move tuning tables between machines and inspect a database.
// No GPU needed. Every failure prints one line naming the file and the problem, and exits non-zero.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "exchange.hpp"
#include "registry.hpp"
#include "tuning_db.hpp"

namespace autogemm::cli {
namespace {

bool kernel_in_build(const std::string& name) { return find_kernel(name) != nullptr; }

// Shapes are entered and printed row-major, C[M,N] = A[M,K]·B[K,N], as --shape takes them, with the
// layout letters of --layout; the database keys the column-major call, whose m is N and n is M
// (to_column_major in tuner/problem_data.hpp).

// "n,t,4096,11008,4096,4" (layout, row-major M,N,K, align) -> the problem key; throws UsageError
// naming the text otherwise.
db::ProblemKey parse_problem_key(const std::string& text) {
  db::ProblemKey key;
  int used = 0;
  if (std::sscanf(text.c_str(), "%c,%c,%d,%d,%d,%d%n", &key.transa, &key.transb, &key.n, &key.m, &key.k, &key.align,
                  &used) != 6 ||
      used != static_cast<int>(text.size()) || (key.transa != 'n' && key.transa != 't') ||
      (key.transb != 'n' && key.transb != 't') || key.m <= 0 || key.n <= 0 || key.k <= 0 ||
      (key.align != 1 && key.align != 4 && key.align != 8))
    throw UsageError("--problem '" + text +
                     "' is not TRANSA,TRANSB,M,N,K,ALIGN (n|t, n|t, positive row-major sizes, 1|4|8)");
  return key;
}

// The rows of `filter` on the devices `device` names: a signature, or a device name (every
// signature of that name); empty = every device. Nothing matching is an error that lists the
// devices there are, not an empty table.
std::vector<db::Entry> device_entries(const db::TuningDb& database, db::Filter filter, const std::string& device) {
  if (device.empty()) return database.entries(filter);
  std::vector<std::string> keys;
  std::string known;
  for (const auto& d : database.devices()) {
    if (d.key() == device || d.name == device) keys.push_back(d.key());
    known += (known.empty() ? "" : "; ") + d.key();
  }
  if (keys.empty())
    throw db::DbError(database.path() + ": no device matches --device '" + device + "' (" +
                      (known.empty() ? std::string("the database has no devices") : "devices: " + known) + ")");
  std::vector<db::Entry> rows;
  for (const auto& key : keys) {
    filter.device_key = key;
    const auto part = database.entries(filter);
    rows.insert(rows.end(), part.begin(), part.end());
  }
  return rows;
}

// Runs `body`, turning a DbError into the one-line failure every db command promises.
template <class F>
int guarded(const char* command, F&& body) {
  try {
    return body();
  } catch (const UsageError& e) {
    std::fprintf(stderr, "gemm-tune %s: %s\n", command, e.what());
    return kUsageExit;
  } catch (const db::DbError& e) {
    std::fprintf(stderr, "gemm-tune %s: %s\n", command, e.what());
    return 1;
  }
}

}  // namespace

Command add_export_command(CLI::App& app) {
  auto* sub = app.add_subcommand("export", "Write the tuning table (all rows or filtered) as JSON or CSV");
  struct Opts {
    std::string db, format = "json", output, device, dtype, problem;
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--db", o->db, "Database file (default: $AUTOGEMM_DB or the XDG user database)");
  sub->add_option("--problem", o->problem,
                  "Only this problem: TRANSA,TRANSB (the layout, as --layout), M,N,K (row-major, as --shape), "
                  "ALIGN, e.g. n,n,4096,11008,4096,4");
  sub->add_option("--format", o->format, "json or csv")->check(CLI::IsMember({"json", "csv"}))->capture_default_str();
  sub->add_option("-o,--output", o->output, "Output file (default: standard output)");
  sub->add_option("--device", o->device, "Only this device: a signature or a name (see 'gemm-tune db devices')");
  sub->add_option("--dtype", o->dtype,
                  "Only these types: f32, bf16 or f16 (C of the operands' type), or a key such as bf16.bf16.f32.f32");
  return {sub, [o]() {
    return guarded("export", [&] {
      const std::string path = o->db.empty() ? db::default_user_db_path() : o->db;
      db::Filter filter;
      // The short names of `tune --dtype` (C of the operands' type), or a key as the rows spell it.
      filter.dtype = o->dtype == "bf16" || o->dtype == "f16" ? o->dtype + "." + o->dtype + "." + o->dtype + ".f32"
                                                             : o->dtype;
      if (!filter.dtype.empty() && !parse_types_key(filter.dtype))
        throw UsageError("--dtype '" + o->dtype +
                         "' is not f32, bf16, f16 or a key such as bf16.bf16.f32.f32 or f32.f32.f32.tf32");
      if (!o->problem.empty()) filter.problem = parse_problem_key(o->problem);
      db::TuningDb database(path, db::OpenMode::kReadOnly);
      if (!o->output.empty()) {
        // Also by name: SQLite would take a file written as PATH-wal for the database's log.
        namespace fs = std::filesystem;
        std::error_code ec;
        const fs::path output = fs::weakly_canonical(o->output, ec);
        for (const std::string side : {"", "-wal", "-shm", "-journal"}) {
          const bool same = fs::equivalent(o->output, path + side, ec) ||
                            (!output.empty() && output == fs::weakly_canonical(path + side, ec));
          if (same)
            throw UsageError("-o " + o->output + " is the database " + path +
                             (side.empty() ? " itself" : "'s " + side + " file") + "; name another file");
        }
      }
      const auto rows = device_entries(database, filter, o->device);
      const std::string text = o->format == "csv" ? db::to_csv(rows) : db::to_json(rows);
      if (o->output.empty()) {
        std::cout << text;
      } else {
        db::write_exchange_file(o->output, text);  // a temporary file and a rename: never half a file
      }
      std::fprintf(stderr, "exported %zu entries from %s\n", rows.size(), path.c_str());
      return 0;
    });
  }};
}

Command add_import_command(CLI::App& app) {
  auto* sub = app.add_subcommand("import", "Merge JSON or CSV tuning tables into a database (all or nothing per file)");
  struct Opts {
    std::string db;
    std::vector<std::string> files;
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--db", o->db, "Database file (default: $AUTOGEMM_DB or the XDG user database)");
  sub->add_option("files", o->files, "Files written by 'gemm-tune export'")->required();
  return {sub, [o]() {
    return guarded("import", [&] {
      const std::string path = o->db.empty() ? db::default_user_db_path() : o->db;
      // Parse every file before writing anything: a bad entry anywhere rejects its file whole.
      std::vector<std::pair<std::string, std::vector<db::Entry>>> parsed;
      for (const auto& f : o->files) {
        try {
          parsed.emplace_back(f, db::read_exchange_file(f));
        } catch (const db::DbError& e) {
          throw db::DbError(std::string(e.what()).rfind(f, 0) == 0 ? e.what() : f + ": " + e.what());
        }
      }
      db::TuningDb database(path, db::OpenMode::kReadWrite, /*create_parent=*/o->db.empty());
      for (const auto& [file, rows] : parsed) {
        const int changed = database.record(rows);
        std::printf("%s: %zu entries read, %d inserted or updated (newer measurements win)\n", file.c_str(),
                    rows.size(), changed);
      }
      return 0;
    });
  }};
}

Command add_db_command(CLI::App& app) {
  auto* sub = app.add_subcommand("db", "Inspect a tuning database: devices, problems, best entries, check");
  sub->require_subcommand(1);
  struct Opts {
    std::string db, device, output;
  };
  auto o = std::make_shared<Opts>();
  sub->add_option("--db", o->db, "Database file (default: $AUTOGEMM_DB or the XDG user database)");
  auto* pack = sub->add_subcommand("pack", "Write a copy to ship to other machines: vacuumed, not in WAL mode, "
                                           "readable from a folder its readers cannot write");
  pack->add_option("-o,--output", o->output, "The packed file")->required();
  auto* devices = sub->add_subcommand("devices", "Device signatures in the database");
  auto* problems = sub->add_subcommand("problems", "Problems and how many candidates each has");
  auto* best = sub->add_subcommand("best", "The best valid entry per (device, problem)");
  best->add_option("--device", o->device, "Only this device: a signature or a name");
  auto* check = sub->add_subcommand("check", "Schema version, row counts, integrity, kernels this build lacks");
  for (CLI::App* leaf : {devices, problems, best, check, pack}) leaf->fallthrough();  // --db also after the verb
  return {sub, [=]() {
    const std::string path = o->db.empty() ? db::default_user_db_path() : o->db;
    return guarded("db", [&] {
      if (pack->parsed()) {
        const db::TuningDb database(path, db::OpenMode::kReadOnly);
        database.pack_to(o->output);
        std::printf("packed %s into %s\n", path.c_str(), o->output.c_str());
        return 0;
      }
      if (check->parsed()) {
        // Read-write so an older schema is migrated; a read-only file is still checked read-only.
        // Checking never creates a database.
        struct stat st {};
        if (::stat(path.c_str(), &st) != 0) {
          if (errno == ENOENT) throw db::DbError(path + ": no such file");
          throw db::DbError(path + ": cannot access: " + std::strerror(errno));
        }
        if (S_ISDIR(st.st_mode)) throw db::DbError(path + ": is a directory, not a database");
        // SQLite would take an empty file for an empty database and migrate it into one. (A WAL
        // database whose pages are all still in PATH-wal is not empty.)
        struct stat wal {};
        if (st.st_size == 0 && (::stat((path + "-wal").c_str(), &wal) != 0 || wal.st_size == 0))
          throw db::DbError(path + ": empty file, not an autogemm tuning database");
        std::unique_ptr<db::TuningDb> database;
        try {
          database = std::make_unique<db::TuningDb>(path, db::OpenMode::kReadWrite);
        } catch (const db::DbError& e) {
          if (std::string(e.what()).find("read-only") == std::string::npos) throw;
          database = std::make_unique<db::TuningDb>(path, db::OpenMode::kReadOnly);
        }
        const db::CheckReport r = database->check(kernel_in_build);
        std::printf("%s\n  schema version %d\n  integrity %s\n  %lld devices, %lld problems, %lld measurements "
                    "(%lld failed their check)\n  %zu kernels named by rows are not in this build\n",
                    path.c_str(), r.schema_version, r.integrity.c_str(), static_cast<long long>(r.devices),
                    static_cast<long long>(r.problems), static_cast<long long>(r.measurements),
                    static_cast<long long>(r.failed_checks), r.missing_kernels.size());
        for (const auto& k : r.missing_kernels) std::printf("    %s\n", k.c_str());
        return r.integrity == "ok" ? 0 : 1;
      }
      db::TuningDb database(path, db::OpenMode::kReadOnly);
      if (devices->parsed()) {
        for (const auto& d : database.devices()) std::printf("%s\n", d.key().c_str());
        return 0;
      }
      const auto rows = device_entries(database, {}, o->device);
      if (problems->parsed()) {
        std::printf("%-10s %-6s %8s %8s %8s %5s %10s\n", "dtype", "layout", "M", "N", "K", "align", "candidates");
        for (size_t i = 0; i < rows.size();) {
          size_t j = i;
          while (j < rows.size() && rows[j].problem == rows[i].problem) ++j;
          const auto& p = rows[i].problem;
          std::printf("%-10s %c%c     %8d %8d %8d %5d %10zu\n", p.dtype.c_str(), p.transa, p.transb, p.n, p.m, p.k,
                      p.align, j - i);
          i = j;
        }
        return 0;
      }
      if (best->parsed()) {
        std::printf("%-40s %-6s %8s %8s %8s %5s %-58s %6s %10s %8s\n", "device", "layout", "M", "N", "K", "align",
                    "kernel", "split", "median_us", "TFLOP/s");
        for (size_t i = 0; i < rows.size();) {
          size_t j = i;
          const db::Entry* winner = nullptr;
          for (; j < rows.size() && rows[j].problem == rows[i].problem && rows[j].device == rows[i].device; ++j)
            if (rows[j].measurement.check_passed &&
                (!winner || db::ranks_before(rows[j].measurement, winner->measurement)))
              winner = &rows[j];
          if (winner) {
            const auto& p = winner->problem;
            std::printf("%-40s %c%c     %8d %8d %8d %5d %-58s %4d%-2s %10.2f %8.2f\n",
                        winner->device.key().substr(0, 40).c_str(), p.transa, p.transb, p.n, p.m, p.k, p.align,
                        winner->candidate.kernel.c_str(), winner->candidate.splits,
                        winner->candidate.split_mode == "none" ? "" : winner->candidate.split_mode.substr(0, 1).c_str(),
                        winner->measurement.median_us, winner->measurement.tflops);
          }
          i = j;
        }
        return 0;
      }
      return 0;
    });
  }};
}

}  // namespace autogemm::cli
