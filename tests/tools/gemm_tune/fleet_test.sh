#!/bin/sh
# The fleet workflow: a table tuned on one machine, packed, installed root-owned and read-only, is
# read by an unprivileged user (export and db best open it read-only, as the library does), from a
# packed file and from a database still in WAL mode. Needs root (to become another user) and
# setpriv; exits 77 (skipped) otherwise. Usage: fleet_test.sh GEMM_TUNE WORK_DIR
set -u
tune=$1
work=$2
data=$(cd "$(dirname "$0")/../../data" && pwd)
[ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null || { echo "needs root and setpriv: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work/tuned" "$work/share" && cd "$work" || exit 1
chmod 755 "$work"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

"$tune" import --db tuned/t.db "$data/db_one_entry.json" || exit 1
"$tune" db pack --db tuned/t.db -o share/tuning.sqlite3 || exit 1
cp tuned/t.db share/wal.sqlite3                      # a WAL-mode file installed as it is
chmod 444 share/*; chmod 555 share
[ "$(sqlite3 share/tuning.sqlite3 'PRAGMA journal_mode' 2>/dev/null || echo delete)" = delete ] ||
  { echo "FAIL: the packed file is still in WAL mode"; exit 1; }
for db in share/tuning.sqlite3 share/wal.sqlite3; do
  out=$(as_nobody "$tune" db best --db "$db" 2>&1); rc=$?
  printf '$ db best --db %s (as nobody)\n%s\n(exit %d)\n' "$db" "$out" "$rc"
  [ "$rc" -eq 0 ] && printf '%s' "$out" | grep -q "NVIDIA H100 80GB HBM3" || { echo "FAIL: $db not read"; exit 1; }
  out=$(as_nobody "$tune" export --db "$db" --format csv 2>&1); rc=$?
  [ "$rc" -eq 0 ] && printf '%s' "$out" | grep -q "exported 1 entries" || { echo "FAIL: export of $db: $out"; exit 1; }
done
# Nothing was written beside the installed files.
[ "$(ls -A share | wc -l)" -eq 2 ] || { ls -la share; echo "FAIL: files created beside the database"; exit 1; }
echo "fleet workflow: packed and WAL databases read by an unprivileged user from a read-only folder"
