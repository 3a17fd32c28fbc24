// See exchange.hpp. Both formats are described by the same field table, so JSON and CSV carry
// exactly the same fields and validation.
#include "exchange.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data_types.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

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

// Where `s` stops being well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF), or nullopt. JSON cannot carry such text, so a row holding it could not be exported.
std::optional<std::string> utf8_error(const std::string& s) {
  const auto* b = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = 0; i < s.size();) {
    const unsigned c = b[i];
    size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c < 0x80) len = 1;
    else if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    bool ok = len > 0 && i + len <= s.size();
    for (size_t j = 1; ok && j < len; ++j) ok = b[i + j] >= (j == 1 ? lo : 0x80u) && b[i + j] <= (j == 1 ? hi : 0xBFu);
    if (!ok) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      return "is not valid UTF-8 (byte " + std::string(hex) + " at offset " + std::to_string(i) + ")";
    }
    i += len;
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

// A JSON value as text for a message, cut short.
std::string short_dump(const json& v) {
  const std::string s = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() <= 40 ? s : s.substr(0, 37) + "...";
}

// Follows the parse as SAX events to say where it failed: "entry 3: problem.m: number overflow
// parsing '1e400'", or the path outside the entries ("format_version: ...").
class JsonErrorLocator : public nlohmann::json_sax<json> {
 public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { return push(false); }
  bool key(string_t& k) override {
    stack_.back().key = k;
    return true;
  }
  bool end_object() override { return pop(); }
  bool start_array(std::size_t) override { return push(true); }
  bool end_array() override { return pop(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    if (what.rfind("[json.exception.", 0) == 0 && what.find("] ") != std::string::npos)
      what = what.substr(what.find("] ") + 2);  // nlohmann's "[json.exception.parse_error.101] " prefix
    message_ = "not valid JSON: " + where() + what + " (byte " + std::to_string(position) + ")";
    return false;
  }
  const std::string& message() const { return message_; }

 private:
  struct Level {
    bool array;
    size_t index = 0;
    std::string key;
  };
  bool value() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().index;
    return true;
  }
  bool push(bool array) {
    stack_.push_back({array, 0, {}});
    return true;
  }
  bool pop() {
    stack_.pop_back();
    return value();
  }
  std::string where() const {
    std::string out;
    size_t i = 0;
    if (stack_.size() >= 2 && !stack_[0].array && stack_[0].key == "entries" && stack_[1].array) {
      out = "entry " + std::to_string(stack_[1].index) + ": ";
      i = 2;
    }
    std::string path;
    for (; i < stack_.size(); ++i) {
      if (stack_[i].array) {
        path.append("[").append(std::to_string(stack_[i].index)).append("]");
      } else if (!stack_[i].key.empty()) {
        if (!path.empty()) path.append(".");
        path.append(stack_[i].key);
      }
    }
    if (!path.empty()) out.append(path).append(": ");
    return out;
  }
  std::vector<Level> stack_;
  std::string message_;
};

std::string json_error_where(const std::string& text) {
  JsonErrorLocator locator;
  try {
    json::sax_parse(text, &locator);
  } catch (const json::exception& e) {
    return std::string("not valid JSON: ") + e.what();
  }
  return locator.message().empty() ? std::string("not valid JSON") : locator.message();
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
    if (f.kind == Kind::kText)
      if (auto err = utf8_error(v->get_ref<const std::string&>())) throw DbError(where + ": " + f.name + ": " + *err);
    f.set(e, *v);
  }
  if (auto why = invalid_entry_reason(e)) throw DbError(where + ": " + *why);
  return e;
}

}  // namespace

bool is_iso8601_utc(const std::string& t) {
  // YYYY-MM-DDTHH:MM:SSZ exactly: the merge policy compares these strings, so a malformed one
  // ("zzzz-zz-zzTzz:zz:zzZ" sorts after every date) would win every merge.
  constexpr const char* kPattern = "dddd-dd-ddTdd:dd:ddZ";
  if (t.size() != 20) return false;
  for (size_t i = 0; i < t.size(); ++i) {
    const bool digit = t[i] >= '0' && t[i] <= '9';
    if (kPattern[i] == 'd' ? !digit : t[i] != kPattern[i]) return false;
  }
  const auto num = [&](size_t at, size_t len) { return std::stoi(t.substr(at, len)); };
  const int year = num(0, 4), month = num(5, 2), day = num(8, 2);
  if (month < 1 || month > 12 || day < 1) return false;
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return false;
  return num(11, 2) <= 23 && num(14, 2) <= 59 && num(17, 2) <= 59;
}

std::optional<std::string> invalid_entry_reason(const Entry& e) {
  auto positive = [](int v) { return v > 0; };
  if (e.device.name.empty()) return "device.name: must not be empty";
  // One digit of minor version, as every compute capability has: "sm_111" must not be both 1.11 and 11.1.
  if (e.device.cc_major < 1 || e.device.cc_minor < 0 || e.device.cc_minor > 9)
    return "device.cc_major/cc_minor: not a compute capability, got " + std::to_string(e.device.cc_major) + "." +
           std::to_string(e.device.cc_minor);
  if (!positive(e.device.sm_count)) return "device.sm_count: must be positive";
  if (e.device.memory_bytes <= 0 || e.device.l2_bytes <= 0) return "device.memory_bytes/l2_bytes: must be positive";
  if (!parse_types_key(e.problem.dtype))
    return "problem.dtype: must be \"f32\" or a.b.c.compute of f32, f16, bf16 with compute f32, tf32 or 3xtf32 (such "
           "as \"bf16.bf16.f32.f32\" or \"f32.f32.f32.tf32\"), got \"" +
           e.problem.dtype + "\"";
  if (e.problem.transa != 'n' && e.problem.transa != 't') return "problem.transa: must be \"n\" or \"t\"";
  if (e.problem.transb != 'n' && e.problem.transb != 't') return "problem.transb: must be \"n\" or \"t\"";
  if (!positive(e.problem.m)) return "problem.m: must be positive, got " + std::to_string(e.problem.m);
  if (!positive(e.problem.n)) return "problem.n: must be positive, got " + std::to_string(e.problem.n);
  if (!positive(e.problem.k)) return "problem.k: must be positive, got " + std::to_string(e.problem.k);
  if (e.problem.align != 1 && e.problem.align != 4 && e.problem.align != 8)
    return "problem.align: must be 1, 4 or 8, got " + std::to_string(e.problem.align);
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
  const Provenance& p = e.provenance;
  // 0 means "not read" (no NVML, no driver); a negative version or clock is not a measurement.
  for (const auto& [name, value] : {std::pair{"provenance.driver_version", p.driver_version},
                                    std::pair{"provenance.runtime_version", p.runtime_version},
                                    std::pair{"provenance.sm_clock_mhz", p.sm_clock_mhz},
                                    std::pair{"provenance.mem_clock_mhz", p.mem_clock_mhz}})
    if (value < 0) return std::string(name) + ": must not be negative, got " + std::to_string(value);
  if (!is_iso8601_utc(p.measured_at))
    return "provenance.measured_at: must be ISO 8601 UTC like 2026-11-21T15:04:05Z, got \"" + p.measured_at + "\"";
  return std::nullopt;
}

std::string to_json(const std::vector<Entry>& entries) {
  json doc = {{"format", kExchangeFormat}, {"format_version", kExchangeFormatVersion}, {"entries", json::array()}};
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = entries[i];
    json j = json::object();
    for (const Field& f : fields()) {
      const std::string name = f.name;
      // Rows stored before import checked the encoding may hold bytes JSON cannot carry.
      if (f.kind == Kind::kText)
        if (auto err = utf8_error(f.get(e).get<std::string>()))
          throw DbError("cannot write JSON: entry " + std::to_string(i) + " (" + e.device.key() + ", kernel " +
                        e.candidate.kernel + "): " + name + ": " + *err + "; export it as CSV, or fix the row");
      const size_t dot = name.find('.');
      j[name.substr(0, dot)][name.substr(dot + 1)] = f.get(e);
    }
    doc["entries"].push_back(std::move(j));
  }
  return doc.dump(2) + "\n";
}

// The first line of a CSV table: how many entries follow the header, so a file cut at a row
// boundary is refused. It comes first because a cut removes the end of a file, never its start:
// a file without it was written by a build before this line existed, and is read as before.
constexpr std::string_view kCsvCountPrefix = "# autogemm-tuning: ";
constexpr std::string_view kCsvCountSuffix = " entries";

std::string to_csv(const std::vector<Entry>& entries) {
  std::ostringstream out;
  out << kCsvCountPrefix << entries.size() << kCsvCountSuffix << "\n";
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
  } catch (const json::exception&) {
    // Syntax errors and numbers beyond a double (1e400) alike: name where, from a second pass.
    throw DbError(json_error_where(text));
  }
  if (!doc.is_object())
    throw DbError(std::string("not an autogemm tuning table (a JSON ") + doc.type_name() + ", not an object)");
  const auto format = doc.find("format");
  if (format == doc.end() || !format->is_string() || format->get<std::string>() != kExchangeFormat)
    throw DbError(std::string("not an autogemm tuning table (\"format\" must be \"") + kExchangeFormat + "\", got " +
                  (format == doc.end() ? std::string("none") : short_dump(*format)) + ")");
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

std::vector<Entry> from_csv(const std::string& input) {
  std::string_view text = input;
  std::optional<size_t> declared;
  if (text.starts_with('#')) {
    const std::string_view line = text.substr(0, text.find('\n'));
    std::string_view count = line.ends_with('\r') ? line.substr(0, line.size() - 1) : line;
    size_t n = 0;
    bool ok = count.starts_with(kCsvCountPrefix) && count.ends_with(kCsvCountSuffix);
    if (ok) {
      count = count.substr(kCsvCountPrefix.size(), count.size() - kCsvCountPrefix.size() - kCsvCountSuffix.size());
      const auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
      ok = ec == std::errc() && end == count.data() + count.size();
    }
    if (!ok)
      throw DbError("CSV: the first line '" + std::string(line.substr(0, 60)) + "' is not '" +
                    std::string(kCsvCountPrefix) + "N" + std::string(kCsvCountSuffix) + "'");
    declared = n;
    text.remove_prefix(std::min(text.size(), line.size() + 1));
  }
  const auto rows = parse_csv_records(std::string(text));
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
  if (declared && *declared != out.size())
    throw DbError("CSV: the first line declares " + std::to_string(*declared) + " entries but " +
                  std::to_string(out.size()) + " follow: the file is " +
                  (out.size() < *declared ? "truncated" : "not as written"));
  return out;
}

std::vector<Entry> parse_exchange(const std::string& input) {
  // Editors on some systems start UTF-8 files with a byte order mark; it is not part of either format.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  const std::string text = input.starts_with(kBom) ? input.substr(kBom.size()) : input;
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) return from_json(text);
  return from_csv(text);
}

std::vector<Entry> read_exchange_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw DbError(path + ": is a directory, not a JSON or CSV file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DbError(path + ": cannot read file: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) throw DbError(path + ": cannot read file: " + std::strerror(errno));
  const std::string content = text.str();
  // Tables are shipped compressed (docs/results/*.csv.xz); say so rather than a CSV header error.
  for (const auto& [magic, tool] : {std::pair<std::string_view, const char*>{"\xFD" "7zXZ", "xz"},
                                    {"\x1F\x8B", "gzip"}, {"\x28\xB5\x2F\xFD", "zstd"}, {"BZh", "bzip2"}})
    if (content.starts_with(magic))
      throw DbError(path + ": is " + tool + "-compressed; decompress it first (" + tool + " -dc " + path +
                    " > table.csv)");
  return parse_exchange(content);
}

namespace {

// Writes all of `text` to `fd`; false with errno set on failure.
bool write_all(int fd, const std::string& text) {
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void write_exchange_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  struct stat existing {};
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode)) {
    // A terminal, pipe or /dev/stdout: a stream has no partial file to avoid, and renaming over it
    // would replace the device node.
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
    const bool ok = fd >= 0 && write_all(fd, text);
    const int err = errno;
    if (fd >= 0) ::close(fd);
    if (!ok) throw DbError(path + ": cannot write file: " + std::strerror(err));
    return;
  }
  // Through a symbolic link to the file it names, so the link stays a link.
  std::error_code ec;
  const fs::path target = fs::is_symlink(path, ec) ? fs::weakly_canonical(path, ec) : fs::path(path);
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  // Same folder, so the rename is atomic; the leading dot keeps it out of globs meanwhile.
  std::string temp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = mkstemp(temp.data());
  if (fd < 0) throw DbError(path + ": cannot write file: " + std::strerror(errno));
  const auto fail = [&](const char* what, int err) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw DbError(path + ": " + what + ": " + std::strerror(err));
  };
  // mkstemp makes 0600; give the file the mode a plain create (or the file it replaces) would have.
  mode_t mode = 0;
  if (exists) {
    mode = existing.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) fail("cannot write file", errno);
  if (!write_all(fd, text)) fail("cannot write file", errno);
  if (::fsync(fd) != 0) fail("cannot write file", errno);
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    throw DbError(path + ": cannot write file: " + std::strerror(err));
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    throw DbError(path + ": cannot write file: " + std::strerror(err));
  }
}

}  // namespace autogemm::db
