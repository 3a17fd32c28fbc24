// Export/import formats: round trips (JSON and CSV), idempotent imports, SQL metacharacters in every
// text field, and malformed inputs rejected whole with the entry's index and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "db_test_util.hpp"
#include "exchange.hpp"

namespace autogemm::db::testing {
namespace {

std::vector<Entry> sample_table() {
  std::vector<Entry> v;
  for (int i = 0; i < 12; ++i) v.push_back(sample_entry(i));
  Entry odd = sample_entry(99);
  // Metacharacters of SQL, CSV and JSON in every text field.
  const std::string nasty = "x'); DROP TABLE measurements; -- \"q\", \\ \n;";
  odd.device.name = "GPU " + nasty;
  odd.candidate.kernel = "kernel " + nasty;
  odd.provenance.gpu_uuid = nasty;
  odd.provenance.library_version = nasty;
  odd.provenance.kernel_grid = nasty;
  odd.provenance.host = nasty;
  v.push_back(odd);
  return v;
}

void expect_rejected(const std::string& text, const std::string& fragment) {
  try {
    parse_exchange(text);
    FAIL() << "accepted; expected an error mentioning '" << fragment << "'";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(Exchange, RoundTripThroughAnEmptyDatabaseGivesTheSameContent) {
  ScratchDir dir;
  const auto table = sample_table();
  TuningDb first(dir.file("a.sqlite3"), OpenMode::kReadWrite);
  first.record(table);
  for (const bool csv : {false, true}) {
    SCOPED_TRACE(csv ? "csv" : "json");
    const std::string exported = csv ? to_csv(first.entries()) : to_json(first.entries());
    TuningDb second(dir.file(csv ? "c.sqlite3" : "j.sqlite3"), OpenMode::kReadWrite);
    EXPECT_EQ(second.record(parse_exchange(exported)), static_cast<int>(table.size()));
    EXPECT_EQ(csv ? to_csv(second.entries()) : to_json(second.entries()), exported);
    EXPECT_EQ(second.entries().size(), table.size());
    // Idempotent: a second import changes nothing.
    EXPECT_EQ(second.record(parse_exchange(exported)), 0);
    EXPECT_EQ(csv ? to_csv(second.entries()) : to_json(second.entries()), exported);
  }
  // The nasty strings survived unchanged, and the table is still there.
  const auto rows = first.entries();
  EXPECT_NE(std::find(rows.begin(), rows.end(), table.back()), rows.end());
}

TEST(Exchange, JsonIsVersionedAndReadableByNlohmann) {
  const std::string text = to_json({sample_entry(0)});
  EXPECT_NE(text.find("\"format\": \"autogemm-tuning\""), std::string::npos);
  EXPECT_NE(text.find("\"format_version\": 1"), std::string::npos);
  EXPECT_EQ(from_json(text), std::vector<Entry>{sample_entry(0)});
}

std::string json_with(const std::string& field, const std::string& value) {
  std::string text = to_json({sample_entry(0), sample_entry(1)});
  // Replace the field's value in the second entry (index 1).
  const size_t second = text.find("\"candidate\"", text.find("\"candidate\"") + 1);
  const size_t at = text.find("\"" + field + "\":", second < text.size() ? text.rfind("{", second) : 0);
  const size_t colon = text.find(':', at);
  const size_t end = text.find_first_of(",\n", colon);
  return text.substr(0, colon + 2) + value + text.substr(end);
}

TEST(Exchange, MalformedJsonIsRejectedWithIndexAndReason) {
  expect_rejected("{ not json", "not valid JSON");
  expect_rejected("{\"format\": \"something-else\", \"format_version\": 1, \"entries\": []}", "not an autogemm tuning table");
  expect_rejected("{\"format\": \"autogemm-tuning\", \"format_version\": 2, \"entries\": []}", "format_version 2 is not supported");
  expect_rejected("{\"format\": \"autogemm-tuning\", \"format_version\": 1}", "\"entries\" is missing");
  expect_rejected("{\"format\": \"autogemm-tuning\", \"format_version\": 1, \"entries\": [3]}", "entry 0: must be an object");
  expect_rejected(json_with("m", "\"65\""), "entry 1: problem.m: must be an integer, got string");
  expect_rejected(json_with("m", "-3"), "entry 1: problem.m: must be positive, got -3");
  expect_rejected(json_with("m", "99999999999"), "entry 1: problem.m: must fit a 32-bit integer");
  expect_rejected(json_with("m", "1e30"), "entry 1: problem.m: must be an integer");
  expect_rejected(json_with("m", "18446744073709551615"), "entry 1: problem.m: is out of range");
  expect_rejected(json_with("median_us", "\"fast\""), "entry 1: measurement.median_us: must be a number");
  expect_rejected(json_with("check_passed", "1"), "entry 1: measurement.check_passed: must be true or false");
  expect_rejected(json_with("split_mode", "\"sideways\""), "entry 1: candidate.split_mode");
  expect_rejected(json_with("transa", "\"x\""), "entry 1: problem.transa");
  expect_rejected(json_with("dtype", "\"f64\""), "entry 1: problem.dtype: must be \"f32\" or a.b.c.compute");
  expect_rejected(json_with("dtype", "\"f32.f32.f32.f32\""), "entry 1: problem.dtype");
  expect_rejected(json_with("measured_at", "\"yesterday\""), "entry 1: provenance.measured_at");
  std::string missing = to_json({sample_entry(0)});
  missing.erase(missing.find("\"kernel\""), missing.find('\n', missing.find("\"kernel\"")) - missing.find("\"kernel\"") + 1);
  expect_rejected(missing, "entry 0: candidate.kernel: missing");
}

// The types of a row travel in its dtype key: a combination no kernel computes yet is still a key,
// so a table of another data type imports (its kernels are reported missing by db check).
TEST(Exchange, RowsOfOtherTypesKeepTheirKey) {
  Entry e = sample_entry(0);
  e.problem.dtype = "bf16.bf16.f32.f32";
  EXPECT_FALSE(invalid_entry_reason(e).has_value());
  const auto back = from_json(to_json({e}));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].problem.dtype, "bf16.bf16.f32.f32");
}

TEST(Exchange, MalformedCsvIsRejectedWithIndexAndReason) {
  const std::string good = to_csv({sample_entry(0), sample_entry(1)});
  EXPECT_EQ(parse_exchange(good).size(), 2u);
  expect_rejected("", "empty input");
  expect_rejected("a,b,c\n1,2,3\n", "header does not match");
  // The count line, then the header.
  const std::string header = good.substr(0, good.find('\n', good.find('\n') + 1) + 1);
  expect_rejected(header + "1,2,3\n", "entry 0: has 3 columns");
  std::string bad = good;
  const size_t row1 = header.size();
  // Column 9 of the first row is problem.m.
  size_t pos = row1;
  for (int c = 0; c < 9; ++c) pos = bad.find(',', pos) + 1;
  const size_t end = bad.find(',', pos);
  expect_rejected(bad.substr(0, pos) + "-5" + bad.substr(end), "entry 0: problem.m: must be positive");
  expect_rejected(bad.substr(0, pos) + "12abc" + bad.substr(end), "entry 0: problem.m: must be an integer");
  expect_rejected(bad.substr(0, pos) + "5000000000" + bad.substr(end), "entry 0: problem.m: must fit a 32-bit integer");
  expect_rejected(header + "\"unterminated", "unterminated");
}

TEST(Exchange, BadEntryAnywhereRejectsTheWholeFile) {
  ScratchDir dir;
  TuningDb db(dir.file("t.sqlite3"), OpenMode::kReadWrite);
  const std::string text = json_with("k", "0");
  try {
    db.record(parse_exchange(text));
    FAIL();
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("entry 1: problem.k"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(db.entries().empty());  // entry 0 was valid but nothing was written
}

// A "format" of another JSON type, or a number beyond a double, is a one-line error naming the
// field (nlohmann threw type_error / out_of_range through the import before).
TEST(Exchange, FormatOfAnotherTypeOrHugeNumberIsAnError) {
  for (const char* format : {"3", "null", "[]", "{}", "true"})
    expect_rejected(std::string("{\"format\": ") + format + ", \"format_version\": 1, \"entries\": []}",
                    std::string("\"format\" must be \"autogemm-tuning\", got ") + format);
  expect_rejected("{\"format_version\": 1, \"entries\": []}", "\"format\" must be \"autogemm-tuning\", got none");
  expect_rejected("[1, 2]", "not an autogemm tuning table (a JSON array");
  expect_rejected("{\"format\": \"autogemm-tuning\", \"format_version\": 1e400, \"entries\": []}",
                  "not valid JSON: format_version: number overflow parsing '1e400'");
  expect_rejected(json_with("median_us", "1e400"), "entry 1: measurement.median_us: number overflow parsing '1e400'");
  expect_rejected(json_with("m", "-1e400"), "entry 1: problem.m: number overflow parsing '-1e400'");
}

TEST(Exchange, MeasuredAtIsAFullIso8601UtcTime) {
  EXPECT_TRUE(is_iso8601_utc("2026-11-21T15:04:05Z"));
  EXPECT_TRUE(is_iso8601_utc("2024-02-29T23:59:59Z"));  // a leap day
  EXPECT_TRUE(is_iso8601_utc("2000-02-29T00:00:00Z"));
  for (const char* bad :
       {"zzzz-zz-zzTzz:zz:zzZ", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-02-29T00:00:00Z",
        "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-00T00:00:00Z", "2026-11-21T24:00:00Z",
        "2026-11-21T10:60:00Z", "2026-11-21T10:00:60Z", "2026-11-21 10:00:00Z", "2026-11-21T10:00:00+",
        "+026-11-21T10:00:00Z", "2026-11-21T10:00:00", ""})
    EXPECT_FALSE(is_iso8601_utc(bad)) << bad;
  expect_rejected(json_with("measured_at", "\"zzzz-zz-zzTzz:zz:zzZ\""),
                  "entry 1: provenance.measured_at: must be ISO 8601 UTC like 2026-11-21T15:04:05Z, got \"zzzz");
  expect_rejected(json_with("measured_at", "\"2026-02-30T10:00:00Z\""), "entry 1: provenance.measured_at");
}

TEST(Exchange, NegativeDriverVersionsAndClocksAreRejected) {
  for (const char* field : {"driver_version", "runtime_version", "sm_clock_mhz", "mem_clock_mhz"})
    expect_rejected(json_with(field, "-1"),
                    std::string("entry 1: provenance.") + field + ": must not be negative, got -1");
  Entry unknown = sample_entry(0);
  unknown.provenance.sm_clock_mhz = unknown.provenance.mem_clock_mhz = 0;  // 0 = not read: still valid
  EXPECT_FALSE(invalid_entry_reason(unknown).has_value());
}

TEST(Exchange, InvalidUtf8IsRejectedAtImportAndNeverAbortsAnExport) {
  const std::string csv = to_csv({sample_entry(0), sample_entry(1)});
  std::string bad = csv;
  bad.replace(bad.rfind("host-a"), 6, "host-\xff");  // the last row (entry 1)'s host
  expect_rejected(bad, "entry 1: provenance.host: is not valid UTF-8 (byte 0xFF at offset 5)");
  for (const char* seq : {"\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\x80"}) {
    std::string b = csv;
    b.replace(b.rfind("host-a"), 6, std::string("h") + seq);
    expect_rejected(b, "entry 1: provenance.host: is not valid UTF-8");
  }
  std::string ok = csv;
  ok.replace(ok.rfind("host-a"), 6, "h\xc3\xa9te-\xe2\x82\xac-\xf0\x9f\x98\x80");  // é, €, an emoji
  EXPECT_EQ(parse_exchange(ok)[1].provenance.host, "h\xc3\xa9te-\xe2\x82\xac-\xf0\x9f\x98\x80");
  // A row stored before this check (by an older build): JSON export fails with a message, CSV works.
  Entry stored = sample_entry(0);
  stored.device.name = "GPU \xff";
  try {
    to_json({sample_entry(1), stored});
    FAIL() << "to_json accepted invalid UTF-8";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("entry 1 ("), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("device.name: is not valid UTF-8"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(to_csv({stored}));
}

TEST(Exchange, CsvCutAtARowBoundaryIsRefused) {
  const std::string csv = to_csv({sample_entry(0), sample_entry(1), sample_entry(2)});
  EXPECT_EQ(csv.rfind("# autogemm-tuning: 3 entries\n", 0), 0u) << csv.substr(0, 80);
  EXPECT_EQ(parse_exchange(csv).size(), 3u);
  const std::string cut = csv.substr(0, csv.rfind('\n', csv.size() - 2) + 1);  // the last row gone
  expect_rejected(cut, "CSV: the first line declares 3 entries but 2 follow: the file is truncated");
  const std::string header_only = csv.substr(0, csv.find('\n', csv.find('\n') + 1) + 1);
  expect_rejected(header_only, "declares 3 entries but 0 follow");
  expect_rejected("# autogemm-tuning: three entries\n" + csv.substr(csv.find('\n') + 1), "CSV: the first line");
  expect_rejected("# something else\n" + csv.substr(csv.find('\n') + 1), "is not '# autogemm-tuning: N entries'");
  // Files of builds before the count line (such as docs/results/h100_tuning_table.csv) still read.
  EXPECT_EQ(parse_exchange(csv.substr(csv.find('\n') + 1)).size(), 3u);
  EXPECT_EQ(to_csv({}).substr(0, 29), "# autogemm-tuning: 0 entries\n");
  EXPECT_TRUE(parse_exchange(to_csv({})).empty());
}

TEST(Exchange, ByteOrderMarkAndDirectories) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(parse_exchange(bom + to_json({sample_entry(0)})).size(), 1u);
  EXPECT_EQ(parse_exchange(bom + to_csv({sample_entry(0)})).size(), 1u);
  expect_rejected(bom + "{ \"format\": 1}", "not an autogemm tuning table");  // a JSON message, not a CSV one
  ScratchDir dir;
  try {
    read_exchange_file(dir.path().string());
    FAIL() << "read a directory";
  } catch (const DbError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

// A compressed table (docs/results keeps tables as NAME.xz) is named as such, not a bad CSV header.
TEST(Exchange, CompressedFilesAreNamed) {
  ScratchDir dir;
  for (const auto& [tool, magic] : {std::pair<std::string, std::string>{"xz", "\xFD" "7zXZ\0"},
                                    {"gzip", "\x1F\x8B\x08"}, {"zstd", "\x28\xB5\x2F\xFD"}, {"bzip2", "BZh9"}}) {
    const std::string path = dir.file("table.csv." + tool);
    std::ofstream(path, std::ios::binary) << magic << "rest of the stream";
    try {
      read_exchange_file(path);
      FAIL() << "read a " << tool << " file";
    } catch (const DbError& e) {
      EXPECT_NE(std::string(e.what()).find("is " + tool + "-compressed; decompress it first"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Exchange, WriteExchangeFileReplacesWholeOrNotAtAll) {
  ScratchDir dir;
  const std::string out = dir.file("t.json");
  write_exchange_file(out, "first");
  write_exchange_file(out, "second, longer");
  std::ifstream in(out);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "second, longer");
  // A link stays a link, and the file it names gets the text; a device is written in place.
  std::filesystem::create_symlink(out, dir.file("link.json"));
  write_exchange_file(dir.file("link.json"), "through the link");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.file("link.json")));
  std::ifstream linked(out);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(linked)), std::istreambuf_iterator<char>()), "through the link");
  std::filesystem::remove(dir.file("link.json"));
  EXPECT_NO_THROW(write_exchange_file("/dev/null", "discarded"));
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  std::filesystem::create_directory(dir.file("sub"));
  EXPECT_THROW(write_exchange_file(dir.file("sub"), "x"), DbError);  // rename onto a directory fails
  EXPECT_THROW(write_exchange_file(dir.file("absent/t.json"), "x"), DbError);
  size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir.path())) files += f.is_regular_file();
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
}

}  // namespace
}  // namespace autogemm::db::testing
