// See exchange.hpp. Both formats are described by the same field table, so JSON and CSV carry
// exactly the same fields and validation.
#include "exchange.hpp"

#include "data_types.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

namespace autogemm::db {
namespace {

using nlohmann::json;

enum class Kind { kText, kInt, kInt64, kReal, kBool };

// One field of an entry: its dotted name ("problem.m"; the CSV column is the same with '_'), its
// kind, and accessors. The order is the CSV column order.
struct Field {
  const char* name;
  Kind kind;
  std::function<json(const Entry&)> get;
  std::function<void(Entry&, const json&)> set;
};

template <class T>
Field text(const char* name, T Entry::*group, std::string T::*member) {
  return {name, Kind::kText, [=](const Entry& e) { return json((e.*group).*member); },
          [=](Entry& e, const json& v) { (e.*group).*member = v.get<std::string>(); }};
}
template <class T>
Field integer(const char* name, T Entry::*group, int T::*member) {
  return {name, Kind::kInt, [=](const Entry& e) { return json((e.*group).*member); },
          [=](Entry& e, const json& v) { (e.*group).*member = static_cast<int>(v.get<int64_t>()); }};
}
template <class T>
Field integer64(const char* name, T Entry::*group, int64_t T::*member) {
  return {name, Kind::kInt64, [=](const Entry& e) { return json((e.*group).*member); },
          [=](Entry& e, const json& v) { (e.*group).*member = v.get<int64_t>(); }};
}
template <class T>
Field real(const char* name, T Entry::*group, double T::*member) {
  return {name, Kind::kReal, [=](const Entry& e) { return json((e.*group).*member); },
          [=](Entry& e, const json& v) { (e.*group).*member = v.get<double>(); }};
}
Field op(const char* name, char ProblemKey::*member) {
  return {name, Kind::kText, [=](const Entry& e) { return json(std::string(1, e.problem.*member)); },
          [=](Entry& e, const json& v) {
            const std::string s = v.get<std::string>();
            e.problem.*member = s.size() == 1 ? s[0] : '?';
          }};
}

const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      text("device.name", &Entry::device, &DeviceSignature::name),
      integer("device.cc_major", &Entry::device, &DeviceSignature::cc_major),
      integer("device.cc_minor", &Entry::device, &DeviceSignature::cc_minor),
      integer("device.sm_count", &Entry::device, &DeviceSignature::sm_count),
      integer64("device.memory_bytes", &Entry::device, &DeviceSignature::memory_bytes),
      integer64("device.l2_bytes", &Entry::device, &DeviceSignature::l2_bytes),
      text("problem.dtype", &Entry::problem, &ProblemKey::dtype),
      op("problem.transa", &ProblemKey::transa),
      op("problem.transb", &ProblemKey::transb),
      integer("problem.m", &Entry::problem, &ProblemKey::m),
      integer("problem.n", &Entry::problem, &ProblemKey::n),
      integer("problem.k", &Entry::problem, &ProblemKey::k),
      integer("problem.align", &Entry::problem, &ProblemKey::align),
      text("candidate.kernel", &Entry::candidate, &Candidate::kernel),
      integer("candidate.splits", &Entry::candidate, &Candidate::splits),
      text("candidate.split_mode", &Entry::candidate, &Candidate::split_mode),
      real("measurement.median_us", &Entry::measurement, &Measurement::median_us),
      real("measurement.min_us", &Entry::measurement, &Measurement::min_us),
      real("measurement.spread_us", &Entry::measurement, &Measurement::spread_us),
      integer("measurement.iterations", &Entry::measurement, &Measurement::iterations),
      real("measurement.tflops", &Entry::measurement, &Measurement::tflops),
      {"measurement.check_passed", Kind::kBool, [](const Entry& e) { return json(e.measurement.check_passed); },
       [](Entry& e, const json& v) { e.measurement.check_passed = v.get<bool>(); }},
      real("measurement.rel_error", &Entry::measurement, &Measurement::rel_error),
      text("provenance.gpu_uuid", &Entry::provenance, &Provenance::gpu_uuid),
      integer("provenance.driver_version", &Entry::provenance, &Provenance::driver_version),
      integer("provenance.runtime_version", &Entry::provenance, &Provenance::runtime_version),
      integer("provenance.sm_clock_mhz", &Entry::provenance, &Provenance::sm_clock_mhz),
      integer("provenance.mem_clock_mhz", &Entry::provenance, &Provenance::mem_clock_mhz),
      text("provenance.library_version", &Entry::provenance, &Provenance::library_version),
      text("provenance.kernel_grid", &Entry::provenance, &Provenance::kernel_grid),
      text("provenance.host", &Entry::provenance, &Provenance::host),
      text("provenance.measured_at", &Entry::provenance, &Provenance::measured_at),
  };
  return table;
}

// Checks a JSON value against the field's kind, including the integer ranges that nlohmann would
// otherwise wrap silently.
std::optional<std::string> type_error(const Field& f, const json& v) {
  switch (f.kind) {
    case Kind::kText:
      if (!v.is_string()) return std::string("must be a string, got ") + v.type_name();
      return std::nullopt;
    case Kind::kBool:
      if (!v.is_boolean()) return std::string("must be true or false, got ") + v.type_name();
      return std::nullopt;
    case Kind::kReal:
      if (!v.is_number()) return std::string("must be a number, got ") + v.type_name();
      if (!std::isfinite(v.get<double>())) return "must be finite";
      return std::nullopt;
    case Kind::kInt:
    case Kind::kInt64: {
      if (!v.is_number_integer()) return std::string("must be an integer, got ") + (v.is_number() ? "a fraction or a huge number" : v.type_name());
      if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return "is out of range";
      const int64_t x = v.get<int64_t>();
      if (f.kind == Kind::kInt && (x < std::numeric_limits<int>::min() || x > std::numeric_limits<int>::max()))
        return "must fit a 32-bit integer, got " + std::to_string(x);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string csv_column(const Field& f) {
  std::string s = f.name;
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

std::string csv_quote(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string json_scalar_to_csv(const json& v) {
  if (v.is_string()) return csv_quote(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
  return v.dump();  // numbers: shortest round-trip form
}

// RFC 4180 records: fields separated by commas, quoted fields may hold commas, quotes, newlines.
std::vector<std::vector<std::string>> parse_csv_records(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else if (c == '"') quoted = false;
      else field += c;
    } else if (c == '"' && field.empty()) {
      quoted = any = true;
    } else if (c == ',') {
      row.push_back(field), field.clear(), any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !field.empty()) row.push_back(field), rows.push_back(row);
      row.clear(), field.clear(), any = false;
    } else {
      field += c, any = true;
    }
  }
  if (quoted) throw DbError("CSV: unterminated quoted field");
  if (any || !field.empty()) row.push_back(field), rows.push_back(row);
  return rows;
}

// A CSV cell as the JSON value its field expects, so both formats share one validation path.
json csv_cell_to_json(const Field& f, const std::string& cell, const std::string& where) {
  switch (f.kind) {
    case Kind::kText: return cell;
    case Kind::kBool:
      if (cell == "1" || cell == "true") return true;
      if (cell == "0" || cell == "false") return false;
      throw DbError(where + ": must be 0 or 1, got '" + cell + "'");
    case Kind::kInt:
    case Kind::kInt64: {
      int64_t x = 0;
      const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
      if (ec != std::errc() || end != cell.data() + cell.size())
        throw DbError(where + ": must be an integer, got '" + cell + "'");
      return x;
    }
    case Kind::kReal: {
      double x = 0;
      const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
      if (ec != std::errc() || end != cell.data() + cell.size())
        throw DbError(where + ": must be a number, got '" + cell + "'");
      return x;
    }
  }
  return nullptr;
}

const json* find_path(const json& entry, const std::string& dotted) {
  const size_t dot = dotted.find('.');
  const auto group = entry.find(dotted.substr(0, dot));
  if (group == entry.end() || !group->is_object()) return nullptr;
  const auto leaf = group->find(dotted.substr(dot + 1));
  return leaf == group->end() ? nullptr : &*leaf;
}

Entry entry_from_values(const std::function<const json*(const Field&)>& value_of, size_t index) {
  Entry e;
  const std::string where = "entry " + std::to_string(index);
  for (const Field& f : fields()) {
    const json* v = value_of(f);
    if (v == nullptr) throw DbError(where + ": " + f.name + ": missing");
    if (auto err = type_error(f, *v)) throw DbError(where + ": " + f.name + ": " + *err);
    f.set(e, *v);
  }
  if (auto why = invalid_entry_reason(e)) throw DbError(where + ": " + *why);
  return e;
}

}  // namespace

std::optional<std::string> invalid_entry_reason(const Entry& e) {
  auto positive = [](int v) { return v > 0; };
  if (e.device.name.empty()) return "device.name: must not be empty";
  if (e.device.cc_major < 1 || e.device.cc_minor < 0) return "device.cc_major/cc_minor: not a compute capability";
  if (!positive(e.device.sm_count)) return "device.sm_count: must be positive";
  if (e.device.memory_bytes <= 0 || e.device.l2_bytes <= 0) return "device.memory_bytes/l2_bytes: must be positive";
  if (!parse_types_key(e.problem.dtype))
    return "problem.dtype: must be \"f32\" or a.b.c.compute of f32, f16, bf16 (such as \"bf16.bf16.f32.f32\"), got \"" +
           e.problem.dtype + "\"";
  if (e.problem.transa != 'n' && e.problem.transa != 't') return "problem.transa: must be \"n\" or \"t\"";
  if (e.problem.transb != 'n' && e.problem.transb != 't') return "problem.transb: must be \"n\" or \"t\"";
  if (!positive(e.problem.m)) return "problem.m: must be positive, got " + std::to_string(e.problem.m);
  if (!positive(e.problem.n)) return "problem.n: must be positive, got " + std::to_string(e.problem.n);
  if (!positive(e.problem.k)) return "problem.k: must be positive, got " + std::to_string(e.problem.k);
  if (e.problem.align != 1 && e.problem.align != 4) return "problem.align: must be 1 or 4, got " + std::to_string(e.problem.align);
  if (e.candidate.kernel.empty()) return "candidate.kernel: must not be empty";
  if (e.candidate.splits < 1 || e.candidate.splits > 65535) return "candidate.splits: must lie in [1, 65535], got " + std::to_string(e.candidate.splits);
  if (e.candidate.split_mode != "none" && e.candidate.split_mode != "serial" && e.candidate.split_mode != "parallel")
    return "candidate.split_mode: must be none, serial or parallel, got \"" + e.candidate.split_mode + "\"";
  const Measurement& m = e.measurement;
  if (!(m.median_us > 0) || !(m.min_us > 0) || m.min_us > m.median_us || !(m.spread_us >= 0))
    return "measurement: times must satisfy 0 < min_us <= median_us and spread_us >= 0";
  if (m.iterations < 1) return "measurement.iterations: must be at least 1";
  if (!(m.tflops >= 0)) return "measurement.tflops: must not be negative";
  if (!(m.rel_error >= 0)) return "measurement.rel_error: must not be negative";
  const std::string& t = e.provenance.measured_at;
  if (t.size() != 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[19] != 'Z')
    return "provenance.measured_at: must be ISO 8601 UTC like 2026-11-21T15:04:05Z, got \"" + t + "\"";
  return std::nullopt;
}

std::string to_json(const std::vector<Entry>& entries) {
  json doc = {{"format", kExchangeFormat}, {"format_version", kExchangeFormatVersion}, {"entries", json::array()}};
  for (const Entry& e : entries) {
    json j = json::object();
    for (const Field& f : fields()) {
      const std::string name = f.name;
      const size_t dot = name.find('.');
      j[name.substr(0, dot)][name.substr(dot + 1)] = f.get(e);
    }
    doc["entries"].push_back(std::move(j));
  }
  return doc.dump(2) + "\n";
}

std::string to_csv(const std::vector<Entry>& entries) {
  std::ostringstream out;
  for (size_t i = 0; i < fields().size(); ++i) out << (i ? "," : "") << csv_column(fields()[i]);
  out << "\n";
  for (const Entry& e : entries) {
    for (size_t i = 0; i < fields().size(); ++i) out << (i ? "," : "") << json_scalar_to_csv(fields()[i].get(e));
    out << "\n";
  }
  return out.str();
}

std::vector<Entry> from_json(const std::string& text) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    throw DbError(std::string("not valid JSON: ") + e.what());
  }
  if (!doc.is_object() || doc.value("format", "") != kExchangeFormat)
    throw DbError(std::string("not an autogemm tuning table (\"format\" must be \"") + kExchangeFormat + "\")");
  const auto version = doc.find("format_version");
  if (version == doc.end() || !version->is_number_integer())
    throw DbError("\"format_version\" is missing or not an integer");
  if (version->get<int64_t>() != kExchangeFormatVersion)
    throw DbError("format_version " + version->dump() + " is not supported (this build reads " +
                  std::to_string(kExchangeFormatVersion) + ")");
  const auto list = doc.find("entries");
  if (list == doc.end() || !list->is_array()) throw DbError("\"entries\" is missing or not an array");
  std::vector<Entry> out;
  for (size_t i = 0; i < list->size(); ++i) {
    const json& item = (*list)[i];
    if (!item.is_object()) throw DbError("entry " + std::to_string(i) + ": must be an object");
    out.push_back(entry_from_values([&](const Field& f) { return find_path(item, f.name); }, i));
  }
  return out;
}

std::vector<Entry> from_csv(const std::string& text) {
  const auto rows = parse_csv_records(text);
  if (rows.empty()) throw DbError("CSV: empty input (expected a header row)");
  const auto& header = rows.front();
  bool header_ok = header.size() == fields().size();
  for (size_t i = 0; header_ok && i < header.size(); ++i) header_ok = header[i] == csv_column(fields()[i]);
  if (!header_ok)
    throw DbError("CSV: the header does not match autogemm-tuning format version " +
                  std::to_string(kExchangeFormatVersion) + " (first column must be " + csv_column(fields()[0]) + ")");
  std::vector<Entry> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    const size_t index = r - 1;
    if (rows[r].size() != fields().size())
      throw DbError("entry " + std::to_string(index) + ": has " + std::to_string(rows[r].size()) + " columns, expected " +
                    std::to_string(fields().size()));
    std::vector<json> values;
    for (size_t c = 0; c < fields().size(); ++c)
      values.push_back(csv_cell_to_json(fields()[c], rows[r][c], "entry " + std::to_string(index) + ": " + fields()[c].name));
    out.push_back(entry_from_values(
        [&](const Field& f) { return &values[static_cast<size_t>(&f - fields().data())]; }, index));
  }
  return out;
}

std::vector<Entry> parse_exchange(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && text[first] == '{') return from_json(text);
  return from_csv(text);
}

std::vector<Entry> read_exchange_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DbError(path + ": cannot read file");
  std::stringstream text;
  text << in.rdbuf();
  return parse_exchange(text.str());
}

}  // namespace autogemm::db
