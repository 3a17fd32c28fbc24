# Device calls 106 to 111c (session of 2026-11-26); binaries carried under .carry/bin

# ===== call_106.sh
#!/usr/bin/env bash
# Session of 2026-11-26, call 106: f0a116b's owed GPU validation plus change 106 (paired timing):
# the GPU suite, the seed and perf sets tuned into a fresh database (call 103's was not kept; this
# one is exported), the interleaved benchmark once, then memcheck of the covering subset.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED|SKIPPED" $OUT/gpu_tests.txt | head -12
export AUTOGEMM_DB=/tmp/tuned.sqlite3
t0=$(date +%s)
$B/gemm-tune tune --set seed --json $OUT/tune_seed_106.json -q
$B/gemm-tune tune --set perf --layout all --json $OUT/tune_perf_106.json -q
echo "tuning took $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/tuned.sqlite3 --format csv -o /tmp/tuning_table_106.csv && xz -9 -c /tmp/tuning_table_106.csv > $OUT/tuning_table_106.csv.xz
mkdir -p /tmp/j
t0=$(date +%s)
$B/gemm-tune bench --set seed --json /tmp/j/bench_seed_run1_106.json
$B/gemm-tune bench --set perf --layout all --json /tmp/j/bench_perf_run1_106.json
echo "bench took $(( $(date +%s) - t0 )) s"
tar czf $OUT/bench_106.tar.gz -C /tmp/j .
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_106b.sh
#!/usr/bin/env bash
# Call 106b: the interleaved benchmark twice more on call 106's tuning table (imported), 4096^3 nn/nt
# five times alone with an nvidia-smi trace; then the long-K shapes of target 3 tuned --exhaustive.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active \
  --format=csv -lms 100 > /tmp/j/smi_trace_106b.csv &
SMI=$!
for r in 2 3; do
  $B/gemm-tune bench --set seed --json /tmp/j/bench_seed_run${r}_106.json | tail -n +2
  $B/gemm-tune bench --set perf --layout all --json /tmp/j/bench_perf_run${r}_106.json | tail -n +2
done
for r in 1 2 3 4 5; do
  echo "=== big $r $(date +%T.%N)"
  $B/gemm-tune bench --shape 4096,4096,4096 --layout nn,nt --json /tmp/j/bench_4096_r${r}_106.json | tail -n +2
done
kill $SMI
t0=$(date +%s)
cp /tmp/tuned.sqlite3 /tmp/exh.sqlite3
AUTOGEMM_DB=/tmp/exh.sqlite3 $B/gemm-tune tune --shape 256,256,8192 --shape 128,128,32768 --exhaustive --force \
  --json /tmp/j/tune_longk_exhaustive_106.json -q
echo "exhaustive took $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/exh.sqlite3 --format csv --problem n,n,256,256,8192,4 -o /tmp/j/longk_256.csv
$B/gemm-tune export --db /tmp/exh.sqlite3 --format csv --problem n,n,128,128,32768,4 -o /tmp/j/longk_128.csv
tar czf $OUT/bench_106b.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_106c.sh
#!/usr/bin/env bash
# Call 106c: does the two-mode 4096^3 time (call 106b) follow the operands' or the flush buffer's
# placement? tools/experiments/placement_modes in three processes, call 106's tuning table.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
for p in 1 2 3; do
  echo "=== process $p $(date +%T)"
  $B/placement_modes 4096 4096 4096 nt 6
done
echo "=== nn $(date +%T)"
$B/placement_modes 4096 4096 4096 nn 4
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_106d.sh
#!/usr/bin/env bash
# Call 106d: change 106b (each timed repetition after an untimed launch of its own library): the timing
# tests, then the seed and perf sets benchmarked three times on call 106's tuning table and 4096^3
# nn/nt in three more processes.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
$B/autogemm_gpu_tests --gtest_filter='*Timing*' --gtest_brief=1 2>&1 | tail -3
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
t0=$(date +%s)
for r in 1 2 3; do
  $B/gemm-tune bench --set seed --json /tmp/j/bench_seed_run${r}_106d.json | tail -n +2
  $B/gemm-tune bench --set perf --layout all --json /tmp/j/bench_perf_run${r}_106d.json | tail -n +2
done
echo "bench took $(( $(date +%s) - t0 )) s"
for r in 1 2 3; do
  echo "=== big $r $(date +%T.%N)"
  $B/gemm-tune bench --shape 4096,4096,4096 --layout nn,nt --json /tmp/j/bench_4096_r${r}_106d.json | tail -n +2
done
tar czf $OUT/bench_106d.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_107.sh (binaries of 91f1ffd: the paired timing with NVML's violation and energy counters, reverted after this call)
#!/usr/bin/env bash
# Call 107: measurement 107 (is the slow mode of 4096^3 the power limit?): the timing tests, 4096^3
# nn/nt benchmarked in six processes and the perf set once, with NVML's power-violation and energy
# counters around every repetition; a 100 ms nvidia-smi trace beside. Call 106's tuning table.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,power.limit,temperature.gpu,clocks_event_reasons.active --format=csv
$B/autogemm_gpu_tests --gtest_filter='*Timing*' --gtest_brief=1 2>&1 | tail -3
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
nvidia-smi --query-gpu=timestamp,clocks.current.sm,power.draw,temperature.gpu,temperature.memory,clocks_event_reasons.active \
  --format=csv -lms 100 > /tmp/j/smi_trace_107.csv &
SMI=$!
for r in 1 2 3 4 5 6; do
  echo "=== big $r $(date +%T.%N)"
  $B/gemm-tune bench --shape 4096,4096,4096 --layout nn,nt --json /tmp/j/bench_4096_r${r}_107.json | tail -n +2
done
$B/gemm-tune bench --set perf --layout all --json /tmp/j/bench_perf_107.json | tail -n +2
kill $SMI
tar czf $OUT/bench_107.tar.gz -C /tmp/j .
python3 - <<'PY'
import json, glob
for f in sorted(glob.glob('/tmp/j/bench_*_107.json')):
    for x in json.load(open(f))['results']:
        if x['shape']['k'] != 4096 or x['shape']['m'] != 4096: continue
        a, c = x['autogemm'], x['cublas']
        print(f"{f[7:-5]:>16} {x['label']:>16} {x['layout']} ag {a['median_us']:7.1f} capped {a['power_capped_fraction']:.2f} "
              f"{a['mean_power_w']:5.0f} W | cublas {c['median_us']:7.1f} capped {c['power_capped_fraction']:.2f} {c['mean_power_w']:5.0f} W")
PY

# ===== call_108.sh
#!/usr/bin/env bash
# Call 108: the final tree's GPU validation (suite, memcheck of the covering subset, selfcheck), the
# tuned seed set once with the final gemm-tune, and measurement 108 (online mode, empty database).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -2
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set seed --json /tmp/j/bench_seed_tuned_108.json | tail -n +2
for set in seed perf; do
  rm -f /tmp/online.sqlite3
  AUTOGEMM_MODE=online AUTOGEMM_DB=/tmp/online.sqlite3 $B/gemm-tune bench --set $set --layout nn,nt \
    --json /tmp/j/bench_${set}_online_108.json 2>&1 | grep -v "^\[autogemm" | tail -n +2
done
AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set perf --layout nn,nt --json /tmp/j/bench_perf_tuned_108.json | tail -n +2
tar czf $OUT/bench_108.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_108b.sh (.carry/bin: binaries of 8d-change-108 with the first-candidate re-timing, later dropped; .carry/bin_old: 2a1cee9)
#!/usr/bin/env bash
# Call 108b: change 108 (the online tuner's workspace holds repacked operands; refused launches skipped;
# the first candidate timed again): the online tests, then online-mode benchmarks with the old
# (2a1cee9) and the new gemm-tune alternating, debug log kept, and the tuned choices beside them.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
# (the GPU tests run in the final validation call: the carry limit)
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/bin/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
for r in 1 2; do
  for v in old new; do
    G=.carry/bin/gemm-tune; [ $v = old ] && G=.carry/bin_old/gemm-tune
    for set in seed perf; do
      rm -f /tmp/online.sqlite3
      echo "=== run $r $v $set"
      AUTOGEMM_LOG_LEVEL=debug AUTOGEMM_MODE=online AUTOGEMM_DB=/tmp/online.sqlite3 $G bench --set $set --layout nn,nt \
        --json /tmp/j/bench_${set}_online_${v}_r${r}_108b.json > /tmp/j/log_${set}_${v}_r${r}.txt 2>&1
      grep -v "^\[autogemm" /tmp/j/log_${set}_${v}_r${r}.txt | tail -n +2
      grep -c "could not\|failed" /tmp/j/log_${set}_${v}_r${r}.txt
    done
  done
done
AUTOGEMM_DB=/tmp/tuned.sqlite3 .carry/bin/gemm-tune bench --set perf --layout nn,nt --json /tmp/j/bench_perf_tuned_108b.json | tail -n +2
AUTOGEMM_DB=/tmp/tuned.sqlite3 .carry/bin/gemm-tune bench --set seed --layout nn,nt --json /tmp/j/bench_seed_tuned_108b.json | tail -n +2
tar czf $OUT/bench_108b.tar.gz -C /tmp/j .

# ===== call_108c.sh (binaries of the final tree)
#!/usr/bin/env bash
# Call 108c: the final tree's GPU validation (suite with the new online test, memcheck of the covering
# subset), and change 108 as committed (without the re-timing) in online mode once, tuned beside it.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
for set in seed perf; do
  rm -f /tmp/online.sqlite3
  AUTOGEMM_LOG_LEVEL=debug AUTOGEMM_MODE=online AUTOGEMM_DB=/tmp/online.sqlite3 $B/gemm-tune bench --set $set --layout nn,nt \
    --json /tmp/j/bench_${set}_online_108c.json > /tmp/j/log_${set}_online_108c.txt 2>&1
  grep -v "^\[autogemm" /tmp/j/log_${set}_online_108c.txt | tail -n +2
  grep -h "could not be launched\|tuning of .* failed" /tmp/j/log_${set}_online_108c.txt | head -3
  AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set $set --layout nn,nt --json /tmp/j/bench_${set}_tuned_108c.json | tail -n +2
done
tar czf $OUT/bench_108c.tar.gz -C /tmp/j .

# ===== call_109.sh
#!/usr/bin/env bash
# Call 109: change 109 (the tiled float64 reference): the full GPU suite (every check uses it) and
# memcheck of the covering subset; the online mode on the perf set (nn, nt) with its debug log, to see
# how many candidates 4096x11008x4096 now gets within 500 ms; tuned beside it.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
for set in perf seed; do
  rm -f /tmp/online.sqlite3
  AUTOGEMM_LOG_LEVEL=debug AUTOGEMM_MODE=online AUTOGEMM_DB=/tmp/online.sqlite3 $B/gemm-tune bench --set $set --layout nn,nt \
    --json /tmp/j/bench_${set}_online_109.json > /tmp/j/log_${set}_online_109.txt 2>&1
  grep -v "^\[autogemm" /tmp/j/log_${set}_online_109.txt | tail -n +2
  grep -h "online tuning m=" /tmp/j/log_${set}_online_109.txt
done
AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set perf --layout nn,nt --json /tmp/j/bench_perf_tuned_109.json | tail -n +2
tar czf $OUT/bench_109.tar.gz -C /tmp/j .

# ===== call_109b.sh
#!/usr/bin/env bash
# Call 109b: change 109 with one rounding order for the reference's beta term: the full GPU suite and
# memcheck of the covering subset.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_filter='ReferenceTest.*:OnlineTunerTest.*' --gtest_brief=1 > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck.txt | tail -4

# ===== call_109c.sh
#!/usr/bin/env bash
# Call 109c: the online test with an unbounded budget, under racecheck and plainly; the reference test.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,clocks_event_reasons.active --format=csv
$B/autogemm_gpu_tests --gtest_filter='*Online*:ReferenceTest.*' --gtest_brief=1 2>&1 | tail -3
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_filter='ReferenceTest.*:OnlineTunerTest.*' --gtest_brief=1 > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"
grep -E "tests from|PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck.txt | tail -4

# ===== call_110.sh (.carry/bin: the tree; .carry/bin48: max_candidates 48)
#!/usr/bin/env bash
# Call 110: online tuning capped at 16 candidates (the tree) and at 48 (.carry/bin48, that one default
# changed), alternating, twice; the seed and perf sets in nn and nt, empty database, debug log; then
# the tuned choices (call 106's table) beside them.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
mkdir -p /tmp/j
for r in 1 2; do
  for v in 16 48; do
    G=.carry/bin/gemm-tune; [ $v = 48 ] && G=.carry/bin48/gemm-tune
    for set in seed perf; do
      rm -f /tmp/online.sqlite3
      AUTOGEMM_LOG_LEVEL=debug AUTOGEMM_MODE=online AUTOGEMM_DB=/tmp/online.sqlite3 $G bench --set $set --layout nn,nt \
        --json /tmp/j/bench_${set}_online_c${v}_r${r}_110.json > /tmp/j/log_${set}_c${v}_r${r}.txt 2>&1
      echo "run $r cap $v $set: $(grep -c 'online tuning m=' /tmp/j/log_${set}_c${v}_r${r}.txt) tunings"
    done
  done
done
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/bin/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
for set in seed perf; do
  AUTOGEMM_DB=/tmp/tuned.sqlite3 .carry/bin/gemm-tune bench --set $set --layout nn,nt --json /tmp/j/bench_${set}_tuned_110.json | tail -n +2
done
tar czf $OUT/bench_110.tar.gz -C /tmp/j .

# ===== call_111.sh (binaries of the final tree)
#!/usr/bin/env bash
# Call 111: the final tree: the GPU suite, memcheck of the covering subset, selfcheck, and the tuned
# seed and perf sets once with the final gemm-tune (call 106's table).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set seed --json /tmp/j/bench_seed_tuned_111.json | tail -n +2
AUTOGEMM_DB=/tmp/tuned.sqlite3 $B/gemm-tune bench --set perf --layout all --json /tmp/j/bench_perf_tuned_111.json | tail -n +2
tar czf $OUT/bench_111.tar.gz -C /tmp/j .

# ===== call_111b.sh
#!/usr/bin/env bash
# Call 111b: experiment 111 (transpose tile shapes and store kinds against a copy), twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,clocks.current.sm,clocks_event_reasons.active --format=csv
.carry/exp/transpose_variants
.carry/exp/transpose_variants | grep -v wrong

# ===== call_111c.sh (.carry/bin: change 111, reverted after; .carry/bin_old: call 111's build)
#!/usr/bin/env bash
# Call 111c: change 111 (the repack's transpose in 128 x 32 tiles) against the tree before it
# (.carry/bin_old, call 111's build), alternating, twice: the seed set and the perf set in all
# layouts on call 106's tuning table.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/bin/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in old new; do
    G=.carry/bin/gemm-tune; [ $v = old ] && G=.carry/bin_old/gemm-tune
    echo "=== run $r $v"
    $G bench --set perf --layout all --json /tmp/j/bench_perf_${v}_r${r}_111c.json | tail -n +2
    $G bench --set seed --json /tmp/j/bench_seed_${v}_r${r}_111c.json | tail -n +2
  done
done
tar czf $OUT/bench_111c.tar.gz -C /tmp/j .
