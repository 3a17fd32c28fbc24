#!/bin/sh
# gemm-tune's database commands on bad files and paths: each case must end with the exit code and
# the one line it names, never a crash. Usage: db_commands_test.sh GEMM_TUNE WORK_DIR CASE
set -u
tune=$1
work=$2/$3
data=$(cd "$(dirname "$0")/../../data" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# expect RC TEXT COMMAND...: runs COMMAND, prints what it said, fails unless it exited RC and said TEXT.
expect() {
  want=$1 text=$2
  shift 2
  out=$("$@" 2>&1)
  rc=$?
  printf '$ %s\n%s\n(exit %d)\n' "$*" "$out" "$rc"
  [ "$rc" -eq "$want" ] || { echo "FAIL: exit $rc, expected $want"; exit 1; }
  printf '%s' "$out" | grep -qF -- "$text" || { echo "FAIL: no '$text'"; exit 1; }
}

empty='"format_version": 1, "entries": []}'
case $3 in
  import_format_types)
    for v in 3 null '[1]' '{}'; do
      echo "{\"format\": $v, $empty" > bad.json
      expect 1 "\"format\" must be \"autogemm-tuning\", got $v" "$tune" import --db t.db bad.json
    done
    echo '{"format": "autogemm-tuning", "format_version": 1e400, "entries": []}' > huge.json
    expect 1 "format_version: number overflow parsing '1e400'" "$tune" import --db t.db huge.json
    [ ! -e t.db ] || { echo "FAIL: a rejected import created the database"; exit 1; } ;;
  import_bom_and_directory)
    printf '\357\273\277{"format": "autogemm-tuning", %s\n' "$empty" > bom.json
    expect 0 "0 entries read" "$tune" import --db t.db bom.json
    printf '\357\273\277{"format": 7, %s\n' "$empty" > bom_bad.json
    expect 1 "not an autogemm tuning table" "$tune" import --db t.db bom_bad.json
    mkdir folder
    expect 1 "folder: is a directory" "$tune" import --db t.db folder ;;
  export_onto_database)
    echo "{\"format\": \"autogemm-tuning\", $empty" > empty.json
    expect 0 "0 entries read" "$tune" import --db x.db empty.json
    expect 2 "is the database x.db itself" "$tune" export --db x.db -o x.db
    expect 2 "is the database x.db's -wal file" "$tune" export --db x.db -o ./x.db-wal
    expect 0 "integrity ok" "$tune" db check --db x.db
    mkdir out.json
    expect 1 "out.json: cannot write file" "$tune" export --db x.db -o out.json
    [ -z "$(ls -A out.json)" ] && [ "$(ls -a | grep -c tmp)" -eq 0 ] || { echo "FAIL: a partial file was left"; ls -la; exit 1; }
    expect 0 "exported 0 entries" "$tune" export --db x.db -o t.csv --format csv
    grep -qx '# autogemm-tuning: 0 entries' t.csv || { echo "FAIL: no count line"; exit 1; } ;;
  check_bad_paths)
    : > zero.db
    expect 1 "zero.db: empty file, not an autogemm tuning database" "$tune" db check --db zero.db
    [ ! -s zero.db ] || { echo "FAIL: db check turned an empty file into a database"; exit 1; }
    long=$(printf 'a%.0s' $(seq 300))
    expect 1 "File name too long" "$tune" db check --db "$long.db"
    expect 1 "File name too long" "$tune" export --db "$long.db"
    echo "{\"format\": \"autogemm-tuning\", $empty" > empty.json
    mkdir locked && "$tune" import --db locked/t.db empty.json > /dev/null && chmod 600 locked
    as_user=""
    [ "$(id -u)" -eq 0 ] && as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    chmod 755 "$work"
    expect 1 "Permission denied" $as_user "$tune" db check --db locked/t.db
    expect 1 "Permission denied" $as_user "$tune" export --db locked/t.db
    chmod 755 locked ;;
  export_device)
    cp "$data/db_one_entry.json" one.json
    expect 0 "1 entries read" "$tune" import --db t.db one.json
    expect 0 "exported 1 entries" "$tune" export --db t.db --device "NVIDIA H100 80GB HBM3"
    expect 0 "exported 1 entries" "$tune" export --db t.db --device "NVIDIA H100 80GB HBM3|sm_90|132sm|81079MiB|L2:51200KiB"
    expect 1 "no device matches --device 'H200' (devices: NVIDIA H100 80GB HBM3|sm_90|" \
      "$tune" export --db t.db --device H200
    expect 1 "no device matches --device 'H200'" "$tune" db best --db t.db --device H200 ;;
  row_major_shapes)
    # One row keyed as the column-major call m=64, n=128, k=32: row-major M=128, N=64, K=32.
    sed -e 's/"m": 64, "n": 64, "k": 64/"m": 64, "n": 128, "k": 32/' "$data/db_one_entry.json" > one.json
    expect 0 "1 entries read" "$tune" import --db t.db one.json
    expect 0 "f32        nn          128       64       32     4          1" "$tune" db problems --db t.db
    expect 0 "nn          128       64       32     4 k" "$tune" db best --db t.db
    expect 0 "exported 1 entries" "$tune" export --db t.db --problem n,n,128,64,32,4
    expect 0 "exported 0 entries" "$tune" export --db t.db --problem n,n,64,128,32,4 ;;
  dtype_filters)
    # export --dtype takes tune's short names and full keys, and names a bad one (exit 2); kernels
    # --dtype lists only instances of that operand type.
    expect 0 "1 entries read" "$tune" import --db t.db "$data/db_one_entry.json"
    expect 0 "exported 1 entries" "$tune" export --db t.db --dtype f32
    expect 0 "exported 0 entries" "$tune" export --db t.db --dtype bf16
    expect 0 "exported 0 entries" "$tune" export --db t.db --dtype bf16.bf16.f32.f32
    expect 2 "--dtype 'bf17' is not f32, bf16, f16" "$tune" export --db t.db --dtype bf17
    expect 0 "simt_sgemm_" "$tune" kernels --dtype f32
    "$tune" kernels --dtype f16 | grep -q simt_sgemm && { echo "FAIL: an FP32 instance listed for f16"; exit 1; }
    expect 2 "--dtype 'x' is not f32, bf16 or f16" "$tune" kernels --dtype x ;;
  *) echo "unknown case $3"; exit 1 ;;
esac
echo PASS
