# Device calls 98a, 98b, 99, 100, 101 (session of 2026-11-25 (2)); binaries carried under .carry/

# ===== call_98a.sh
#!/usr/bin/env bash
# Sanitizers on the TMA tests with the code of 4233ab8 (binaries of call 97's build: later commits
# change comments, a CPU test and the experiment tool only). Owed since change 97 (taper).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
T=.carry/bin97/autogemm_gpu_tests
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
run_tool() {  # tool filter seconds
  echo "=== $1 of $2 (limit $3 s)"
  local t0=$(date +%s)
  AUTOGEMM_TEST_SANITIZER=1 timeout $3 compute-sanitizer --tool $1 --error-exitcode 1 $T \
    --gtest_filter="$2" --gtest_brief=1 > $OUT/$1.txt 2>&1
  local rc=$?
  echo "rc=$rc after $(( $(date +%s) - t0 )) s"; tail -4 $OUT/$1.txt
}
run_tool racecheck 'SimtSgemmTma/TmaStreamKTest.*:*InstanceTest*tma*' 230
run_tool memcheck 'SimtSgemmTma*:*InstanceTest*tma*' 150
run_tool synccheck 'SimtSgemmTma*:*InstanceTest*tma*' 150

# ===== call_98b.sh
#!/usr/bin/env bash
# The benchmark's 4096^3 nt against the tuner's (perf_notes change 97: 2558 against 2518 us on one
# unit): the problem benchmarked alone, then the perf set as in call 97 with a clock/power trace,
# then the tuner's timing in a fresh process. Binaries of call 97's build; database of call 96c.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin97
AUTOGEMM_TEST_SANITIZER=1 compute-sanitizer --tool memcheck $B/autogemm_gpu_tests \
  --gtest_filter='SimtSgemmTma*:*InstanceTest*tma*' 2>&1 | grep -E "^\[ +(OK|SKIPPED|FAILED) +\]|SUMMARY"
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 100 > $OUT/smi_trace.csv &
SMI=$!
for r in 1 2; do
  echo "=== alone, run $r: $(date +%T.%N)"
  $B/gemm-tune bench --shape 4096,4096,4096 --layout nt,nn --json $OUT/bench_4096_alone_r$r.json | grep -E "^4096|^shape"
done
echo "=== perf set, all layouts: $(date +%T.%N)"
$B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_98.json | while IFS= read -r l; do echo "$(date +%T.%N) $l"; done
echo "=== tuner, 4096^3 nt: $(date +%T.%N)"
cp /tmp/tuned.sqlite3 /tmp/t2.sqlite3
AUTOGEMM_DB=/tmp/t2.sqlite3 $B/gemm-tune tune --shape 4096,4096,4096 --layout nt --force --json $OUT/tune_4096_nt_98.json -q
echo "=== end: $(date +%T.%N)"
kill $SMI

# ===== call_99.sh
#!/usr/bin/env bash
# Change 98 (the cost model prices a TMA launch's streamed tail): untuned choices before (HEAD's
# gemm-tune, c17aa65) and after, alternating on one unit. nt only for the plain model (it never
# picks a repacking choice, and the nn TMA instance has no tail); the fallback list through the
# neighbours of call 96c's tuned database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
for r in 1 2; do
  for v in head new; do
    G=.carry/bin_$v/gemm-tune
    echo "=== run $r, $v"
    rm -f /tmp/empty.sqlite3
    AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --set seed --layout nt --json $OUT/untuned_seed_nt_${v}_$r.json | tail -n +2
    AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --set perf --layout nt --json $OUT/untuned_perf_nt_${v}_$r.json | tail -n +2
    AUTOGEMM_DB=/tmp/tuned.sqlite3 $G bench --shapes tools/fallback_problems.csv --json $OUT/fallback_${v}_$r.json \
      | tail -n +2
  done
done
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_100.sh
#!/usr/bin/env bash
# Change 98b (the cost model prices the streamed tail and counts no latency loss for TMA instances):
# untuned choices before (c17aa65's gemm-tune) and after, alternating on one unit. The plain model
# (no database) in nt and nn; the fallback list through the neighbours of call 96c's database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in head new2; do
    G=.carry/bin_$v/gemm-tune
    echo "=== run $r, $v"
    rm -f /tmp/empty.sqlite3
    for set in seed perf; do
      AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --set $set --layout nt,nn --json /tmp/j/untuned_${set}_${v}_$r.json 2>&1 \
        | grep -v "^\[autogemm warning\]" | tail -n +2
    done
    AUTOGEMM_DB=/tmp/tuned.sqlite3 $G bench --shapes tools/fallback_problems.csv --json /tmp/j/fallback_${v}_$r.json \
      | tail -n +2
  done
done
tar czf $OUT/untuned_100.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_101.sh
#!/usr/bin/env bash
# Change 98c (98b, and k-tiles beyond 3072 FFMAs per thread priced at 0.85):
# untuned choices before (c17aa65's gemm-tune) and after, alternating on one unit. The plain model
# (no database) in nt and nn; the fallback list through the neighbours of call 96c's database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in head new3; do
    G=.carry/bin_$v/gemm-tune
    echo "=== run $r, $v"
    rm -f /tmp/empty.sqlite3
    for set in seed perf; do
      AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --set $set --layout nt,nn --json /tmp/j/untuned_${set}_${v}_$r.json 2>&1 \
        | grep -v "^\[autogemm warning\]" | tail -n +2
    done
    AUTOGEMM_DB=/tmp/tuned.sqlite3 $G bench --shapes tools/fallback_problems.csv --json /tmp/j/fallback_${v}_$r.json \
      | tail -n +2
  done
done
tar czf $OUT/untuned_101.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_102.sh
#!/usr/bin/env bash
# Change 99 (the untuned choice may repack: TMA instances on repacked operands without
# measurements): c17aa65's gemm-tune against change 99's (which includes change 98), alternating
# on one unit. No database: seed and perf sets in all layouts, the fallback list; then the fallback
# list through the neighbours of call 96c's database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in head new4; do
    G=.carry/bin_$v/gemm-tune
    echo "=== run $r, $v"
    rm -f /tmp/empty.sqlite3
    for set in seed perf; do
      AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --set $set --layout all --json /tmp/j/untuned_${set}_${v}_$r.json 2>&1 \
        | grep -v "^\[autogemm warning\]" | tail -n +2
    done
    AUTOGEMM_DB=/tmp/empty.sqlite3 $G bench --shapes tools/fallback_problems.csv --json /tmp/j/plain_fallback_${v}_$r.json \
      2>&1 | grep -v "^\[autogemm warning\]" | tail -n +2
    AUTOGEMM_DB=/tmp/tuned.sqlite3 $G bench --shapes tools/fallback_problems.csv --json /tmp/j/fallback_${v}_$r.json \
      | tail -n +2
  done
done
tar czf $OUT/untuned_102.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_103.sh
#!/usr/bin/env bash
# Changes 98-99 (14321ce), full grid: GPU suite; the seed set and the perf set (all layouts)
# retuned (--force) into a copy of call 96c's database with the new cost model ordering the
# tuner's pool; both sets benchmarked twice with it (the targets of issue 6).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin_final
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
$B/autogemm_gpu_tests --gtest_brief=1 2>&1 | tail -3
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
t0=$(date +%s)
$B/gemm-tune tune --set seed --force --json $OUT/tune_seed_103.json -q
$B/gemm-tune tune --set perf --layout all --force --json $OUT/tune_perf_103.json -q
echo "tuning took $(( $(date +%s) - t0 )) s"
for r in 1 2; do
  $B/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run${r}_103.json | tail -n +1
  $B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run${r}_103.json | tail -n +1
done
$B/gemm-tune db check --db /tmp/tuned.sqlite3 | tail -1
xz -c /tmp/tuned.sqlite3 > $OUT/tuned_103.sqlite3.xz
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_104.sh
#!/usr/bin/env bash
# Measurement 104: api_vs_run (the benchmark's timing against the tuner's, variant by variant),
# with call 103's database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
.carry/exp/api_vs_run 4096 4096 4096 nt 3
.carry/exp/api_vs_run 4096 4096 4096 nn 3
.carry/exp/api_vs_run 4096 11008 4096 nt 2
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_104b.sh
#!/usr/bin/env bash
# Measurement 104b: the benchmark itself and api_vs_run with and without the float64 reference
# right before each timing, on one warm unit, with call 103's database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 50 > $OUT/smi_trace.csv &
SMI=$!
for r in 1 2; do
  echo "=== bench, run $r: $(date +%T.%N)"
  .carry/bin_final/gemm-tune bench --shape 4096,4096,4096 --layout nt,nn --json $OUT/bench_$r.json 2>&1 | grep -E "^4096|^shape"
done
echo "=== api_vs_run, plain: $(date +%T.%N)"
.carry/exp/api_vs_run 4096 4096 4096 nt 3
echo "=== api_vs_run, each timing after the reference: $(date +%T.%N)"
.carry/exp/api_vs_run 4096 4096 4096 nt 3 reference
.carry/exp/api_vs_run 4096 4096 4096 nn 2 reference
echo "=== end: $(date +%T.%N)"
kill $SMI

# ===== call_104c.sh
#!/usr/bin/env bash
# Measurement 104c: after the float64 reference, how long must the GPU run the timed launches
# before their times are steady again? api_vs_run with settles of 0 to 1000 ms, 4096^3 nt and nn.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv -lms 50 \
  > $OUT/smi_trace.csv &
SMI=$!
for settle in 0 250 500 1000; do
  echo "=== settle $settle ms: $(date +%T.%N)"
  .carry/exp/api_vs_run 4096 4096 4096 nt 2 reference $settle | grep -E "^api  blocking|^run  non-blocking bench"
done
echo "=== nn, settle 0 and 500 ms: $(date +%T.%N)"
.carry/exp/api_vs_run 4096 4096 4096 nn 2 reference 0 | grep -E "^api  blocking|^run  non-blocking bench"
.carry/exp/api_vs_run 4096 4096 4096 nn 2 reference 500 | grep -E "^api  blocking|^run  non-blocking bench"
echo "=== end: $(date +%T.%N)"
kill $SMI

# ===== call_105.sh
#!/usr/bin/env bash
# Change 104 (each library warmed up for 500 ms before the benchmark times it; the tuner settles
# after the reference): GPU suite; the seed and perf sets benchmarked twice with call 103's
# database (the benchmark is what changed; the kernels and choices did not).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin_final
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
$B/autogemm_gpu_tests --gtest_brief=1 2>&1 | tail -3
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv -lms 100 \
  > $OUT/smi_trace.csv &
SMI=$!
for r in 1 2; do
  $B/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run${r}_105.json | tail -n +1
  $B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run${r}_105.json | tail -n +1
done
$B/gemm-tune tune --shape 4096,4096,4096 --layout nn,nt --force --json $OUT/tune_4096_105.json -q
kill $SMI
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_105b.sh
#!/usr/bin/env bash
# Change 104, the benchmark again (call 105's benchmark runs printed nothing): exit codes shown.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin_final
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
ls -la /tmp/tuned.sqlite3 $B
$B/gemm-tune bench --shape 256,256,256; echo "rc=$?"
for r in 1 2; do
  $B/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run${r}_105.json; echo "rc=$?"
  $B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run${r}_105.json; echo "rc=$?"
done
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

# ===== call_105c.sh
#!/usr/bin/env bash
# Where change 104's gemm-tune bench crashes (segmentation fault in call 105b): a backtrace.
set -u
B=.carry/bin_final
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
which gdb cuda-gdb; ls /usr/local/cuda/bin | grep -i gdb
G=$(command -v gdb || echo /usr/local/cuda/bin/cuda-gdb)
timeout 120 $G -batch -ex run -ex bt -ex "info registers rip" --args $B/gemm-tune bench --shape 256,256,256 2>&1 | grep -v "^\[New Thread\|^\[Thread" | tail -40

# ===== call_105d.sh
#!/usr/bin/env bash
# Change 104 (each library warmed up for 500 ms before the benchmark times it), rebuilt after call
# 105b's crash (an object compiled against the header's previous layout): the seed and perf sets
# benchmarked with call 103's database, then 4096^3 again.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin_final
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
xz -dc .carry/tuned.sqlite3.xz.103 > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
t0=$(date +%s)
$B/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run1_105.json; echo "rc=$? after $(( $(date +%s) - t0 )) s"
$B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run1_105.json; echo "rc=$? after $(( $(date +%s) - t0 )) s"
timeout 60 $B/gemm-tune bench --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nn,nt --json $OUT/bench_big_run2_105.json; echo "rc=$? after $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
