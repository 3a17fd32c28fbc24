# Device calls 112 to 119 (session of 2026-11-26 (2)) and 120 to 121c (session of 2026-11-26 (3)); binaries carried under .carry/bin, .carry/exp, .carry/ab, .carry/exp113, .carry/exp114, .carry/exp115, .carry/exp117, .carry/sass, .carry/s and .carry/exp118 (stripped gemm-tune binaries, calls 117f and 118), .carry/s120, .carry/exp121, .carry/v121, .carry/ab121 and .carry/ncu120

# ===== call_112.sh
#!/usr/bin/env bash
# Call 112: change 112 (the gated repack of B). The gated-repack, TMA and repack GPU tests; then
# 4096^3, 3072^3 and 4096x11008x4096 nn benchmarked on call 106's tuning table with the gate off
# (AUTOGEMM_REPACK_GATE=0) and on at 16-66 transpose blocks, alternating, one process each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 --gtest_filter='GatedRepack*:*TmaKMajorB*:*TmaStreamK*:Repack*:*Repack*' > $OUT/gpu_tests_gate.txt 2>&1
echo "gate tests rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED|SKIPPED|Failure|differ" $OUT/gpu_tests_gate.txt | head -20
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
mkdir -p /tmp/j
bench() {  # tag, env...
  local tag=$1; shift
  echo "=== $tag $(date +%T)"
  env "$@" $B/gemm-tune bench --shape 4096,4096,4096 --layout nn --json /tmp/j/bench_4096_${tag}_112.json | tail -n +2
}
for r in 1 2; do
  bench off_r$r AUTOGEMM_REPACK_GATE=0
  bench g32_r$r AUTOGEMM_REPACK_GATE_BLOCKS=32
  bench g16_r$r AUTOGEMM_REPACK_GATE_BLOCKS=16
  bench g48_r$r AUTOGEMM_REPACK_GATE_BLOCKS=48
  bench g8_r$r AUTOGEMM_REPACK_GATE_BLOCKS=8
  bench g66_r$r AUTOGEMM_REPACK_GATE_BLOCKS=66
done
for g in off 32; do
  e=AUTOGEMM_REPACK_GATE_BLOCKS=32; [ $g = off ] && e=AUTOGEMM_REPACK_GATE=0
  echo "=== others $g $(date +%T)"
  env $e $B/gemm-tune bench --shape 3072,3072,3072 --shape 4096,11008,4096 --layout nn,nt \
    --json /tmp/j/bench_others_${g}_112.json | tail -n +2
done
tar czf $OUT/bench_112.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_112b.sh (as run the second time, with the 'free pair' rows; the first run called the tool
# twice for 4096^3 and once with 3072 3072 3072, and had no 'free pair' rows)
#!/usr/bin/env bash
# Call 112b: why the gated repack lost in call 112: tools/experiments/gated_repack_timing, twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
.carry/exp/gated_repack_timing


# ===== call_112c.sh
#!/usr/bin/env bash
# Call 112c: is change 112's TMA kernel slower where no gate runs? The validated gemm-tune of call
# 111 (old) against this one (new), alternating, on call 106's table: nt and nn (gate off and on).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/ab/gemm-tune-new import --db /tmp/tuned.sqlite3 /tmp/table.csv > /dev/null
export AUTOGEMM_DB=/tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in old new newoff; do
    G=.carry/ab/gemm-tune-new; [ $v = old ] && G=.carry/ab/gemm-tune-old
    E=AUTOGEMM_REPACK_GATE=1; [ $v = newoff ] && E=AUTOGEMM_REPACK_GATE=0
    echo "=== run $r $v"
    env $E $G bench --shape 4096,4096,4096 --shape 3072,3072,3072 --shape 4096,11008,4096 --layout nn,nt \
      --json /tmp/j/bench_${v}_r${r}_112c.json | tail -n +2
  done
done
tar czf $OUT/bench_112c.tar.gz -C /tmp/j .

# ===== call_112d.sh
#!/usr/bin/env bash
# Call 112d: call 112c again on another unit (112c's ran throttled in every repetition), and the
# registers of the 128x256 TMA instance's kernels in both binaries.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
for v in old new; do
  echo "=== $v"; cuobjdump -res-usage .carry/ab/gemm-tune-$v 2>/dev/null | grep -A1 "tma_128x256x16_w64x64_t8x16_s4_b384x1_nt" | grep -E "Function|REG" | sed 's/Function \(.\{60\}\).*/\1/' | paste - - | awk '{print $0}' | cut -c1-220
done
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/ab/gemm-tune-new import --db /tmp/tuned.sqlite3 /tmp/table.csv > /dev/null
export AUTOGEMM_DB=/tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in old new; do
    echo "=== run $r $v"
    AUTOGEMM_REPACK_GATE=0 .carry/ab/gemm-tune-$v bench --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nn,nt \
      --json /tmp/j/bench_${v}_r${r}_112d.json | tail -n +2
  done
done
tar czf $OUT/bench_112d.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_113.sh
#!/usr/bin/env bash
# Call 113: experiment 113 in builds of the TMA instances only. A: the library's kernel with 128x256x16
# and 256x128x16 also at 3 and 5 stages; B: the same with the `nt` compute threads at 240 registers
# (copy warpgroup 24) instead of 232 (40). 4096^3 and 3072^3 tuned --exhaustive in nn and nt, A and B
# alternating, twice, each into a fresh database; every candidate exported.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
.carry/exp113/gemm-tune-A kernels | grep -c tma_
for r in 1 2; do
  for v in A B; do
    G=.carry/exp113/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    t0=$(date +%s)
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nn,nt --exhaustive \
      --json $OUT/tune_${v}_r${r}_113.json -q
    echo "$v run $r took $(( $(date +%s) - t0 )) s"
    for p in n,n,4096,4096,4096,4 n,t,4096,4096,4096,4 n,n,3072,3072,3072,4 n,t,3072,3072,3072,4; do
      $G export --db /tmp/t.sqlite3 --format csv --problem $p -o /tmp/e.csv && tail -n +2 /tmp/e.csv >> $OUT/candidates_${v}_r${r}_113.csv
      head -1 /tmp/e.csv > $OUT/header_113.csv
    done
  done
done
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_114.sh
#!/usr/bin/env bash
# Call 114: which edit of change 112 slowed the TMA main loop (call 112d)? Builds of the TMA instances
# only: base (HEAD), full (change 112's kernels), C (only the opening griddepcontrol.wait made
# conditional on p.b_ready), D (only the copy thread's flag wait and closing wait, streamed tail
# too). 4096^3 and 3072^3 nt tuned --exhaustive into fresh databases, the four alternating, twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
for r in 1 2; do
  for v in base full C D; do
    G=.carry/exp114/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nt --exhaustive -q \
      --json /tmp/j.json > /dev/null
    for p in n,t,4096,4096,4096,4 n,t,3072,3072,3072,4; do
      $G export --db /tmp/t.sqlite3 --format csv --problem $p -o /tmp/e.csv > /dev/null
      tail -n +2 /tmp/e.csv | awk -F, -v v=$v -v r=$r '{printf "%s r%s %s %s %s %.1f\n", v, r, $10, $14, $15, $17}'
    done
  done
done | tee $OUT/candidates_114.txt
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_115.sh
#!/usr/bin/env bash
# Call 115: does a gate that leaves the copy loop as it is (variant E: a pre-loop wait and a waiter warp that holds
# back an arrival on "empty") slow the TMA main loop as change 112 did? base (HEAD) against E, builds of the
# TMA instances only; 4096^3 and 3072^3 nt tuned --exhaustive into fresh databases, alternating, twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
for r in 1 2; do
  for v in base E; do
    G=.carry/exp115/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nt --exhaustive -q \
      --json /tmp/j.json > /dev/null
    for p in n,t,4096,4096,4096,4 n,t,3072,3072,3072,4; do
      $G export --db /tmp/t.sqlite3 --format csv --problem $p -o /tmp/e.csv > /dev/null
      tail -n +2 /tmp/e.csv | awk -F, -v v=$v -v r=$r '{printf "%s r%s %s %s %s %.1f\n", v, r, $10, $14, $15, $17}'
    done
  done
done | tee $OUT/candidates_115.txt
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_117c.sh
#!/usr/bin/env bash
# Call 117c: change 117's full build (the FFMA order V6 in every TMA kernel): the GPU suite, memcheck
# of the covering subset, racecheck of the TMA instances' tests, selfcheck.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 170 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 --gtest_filter='SimtSgemmTma*/*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|RACECHECK SUMMARY|ERROR SUMMARY" $OUT/racecheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1

# ===== call_117d.sh
#!/usr/bin/env bash
# Call 117d: change 117's gemm-tune (new) against call 111's (old, the library before it), alternating,
# on call 106's tuning table: the seed set and the perf set in all layouts, twice each; then 4096^3
# nn and nt alone, three processes each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/bin/gemm-tune import --db /tmp/tuned.sqlite3 /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
mkdir -p /tmp/j
for r in 1 2; do
  for v in new old; do
    G=.carry/bin/gemm-tune; [ $v = old ] && G=.carry/bin_old/gemm-tune
    echo "=== run $r $v $(date +%T)"
    $G bench --set seed --json /tmp/j/bench_seed_${v}_r${r}_117d.json | tail -n +2
    $G bench --set perf --layout all --json /tmp/j/bench_perf_${v}_r${r}_117d.json | tail -n +2
  done
done
for r in 1 2 3; do
  for v in new old; do
    G=.carry/bin/gemm-tune; [ $v = old ] && G=.carry/bin_old/gemm-tune
    echo "=== 4096 alone $r $v"
    $G bench --shape 4096,4096,4096 --layout nn,nt --json /tmp/j/bench_4096_${v}_r${r}_117d.json | tail -n +2
  done
done
tar czf $OUT/bench_117d.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_117e.sh
#!/usr/bin/env bash
# Call 117e: racecheck of change 117's build on the covering subset of the instance suite (the filter of
# tools/gpu_validation.sh; 117c's filter on the TMA suites ran past its limit without output).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 400 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 --gtest_filter='SimtSgemm/*' > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|RACECHECK SUMMARY|ERROR SUMMARY" $OUT/racecheck.txt | tail -5
grep -c "tma" $OUT/racecheck.txt

# ===== call_117f.sh
#!/usr/bin/env bash
# Call 117f: change 117 on a second unit: the seed and perf sets once with the new gemm-tune, then
# 4096^3 nn and nt alone, new and old (call 111's) alternating, three processes each; call 106's table.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/table.csv
.carry/s/gemm-tune-new import --db /tmp/tuned.sqlite3 /tmp/table.csv
export AUTOGEMM_DB=/tmp/tuned.sqlite3
mkdir -p /tmp/j
.carry/s/gemm-tune-new bench --set seed --json /tmp/j/bench_seed_new_117f.json | tail -n +2
.carry/s/gemm-tune-new bench --set perf --layout all --json /tmp/j/bench_perf_new_117f.json | tail -n +2
for r in 1 2 3; do
  for v in new old; do
    G=.carry/s/gemm-tune-$v
    echo "=== 4096 alone $r $v"
    $G bench --shape 4096,4096,4096 --layout nn,nt --json /tmp/j/bench_4096_${v}_r${r}_117f.json | tail -n +2
  done
done
tar czf $OUT/bench_117f.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_118.sh
#!/usr/bin/env bash
# Call 118: two more FFMA orders against change 117's (V6, HEAD): V7 (V6 with the rows descending), V8 (the turn
# alternating with the k-step too); 4096^3 and 3072^3 nt tuned
# --exhaustive in builds of the TMA instances only, alternating, twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
for r in 1 2; do
  for v in V6 V7 V8; do
    G=.carry/exp118/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 4096,4096,4096 --shape 3072,3072,3072 --layout nt --exhaustive -q \
      --json /tmp/j.json > /dev/null
    for p in n,t,4096,4096,4096,4 n,t,3072,3072,3072,4; do
      $G export --db /tmp/t.sqlite3 --format csv --problem $p -o /tmp/e.csv > /dev/null
      tail -n +2 /tmp/e.csv | awk -F, -v v=$v -v r=$r '{printf "%s r%s %s %s %s %.1f\n", v, r, $10, $14, $15, $17}'
    done
  done
done | tee $OUT/candidates_118.txt
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_118b.sh
#!/usr/bin/env bash
# Call 118b: racecheck of change 117's TMA instances alone: the instance suite's four TMA cases (the
# sanitizer's subset sizes when it covers them, else the suite's own), without --gtest_brief.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_filter='*MatchesFloat64Reference/simt_sgemm_tma*' > $OUT/racecheck_tma.txt 2>&1; echo "racecheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "RUN|OK|SKIPPED|Skipped|FAILED|RACECHECK SUMMARY|ERROR SUMMARY|hazard" $OUT/racecheck_tma.txt | head -20

# ===== call_118c.sh
#!/usr/bin/env bash
# Call 118c: racecheck of the 128x256x16 TMA instance (outside the sanitizer's covering subset, so at the suite's own sizes).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
t0=$(date +%s)
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_filter='*MatchesFloat64Reference/simt_sgemm_tma_128x256*' > $OUT/racecheck_tma128x256.txt 2>&1; echo "racecheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "RUN|OK|SKIPPED|Skipped|FAILED|RACECHECK SUMMARY|ERROR SUMMARY|hazard" $OUT/racecheck_tma128x256.txt | head -20

# ===== call_118d.sh
#!/usr/bin/env bash
# Call 118d: change 118's full build (serpentine FFMA order in the multistage kernel's row-outer branch
# too): the GPU suite, memcheck of the covering subset, selfcheck; the seed and perf sets (all layouts)
# tuned into a fresh database and exported; both sets benchmarked once with it.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/bin
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 170 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
export AUTOGEMM_DB=/tmp/tuned.sqlite3
t0=$(date +%s)
$B/gemm-tune tune --set seed --json $OUT/tune_seed_118.json -q | tail -n +1
$B/gemm-tune tune --set perf --layout all --json $OUT/tune_perf_118.json -q | tail -n +1
echo "tuning took $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/tuned.sqlite3 --format csv -o /tmp/tuning_table_118.csv && xz -9 -c /tmp/tuning_table_118.csv > $OUT/tuning_table_118.csv.xz
$B/gemm-tune bench --set seed --json $OUT/bench_seed_118d.json | tail -n +2
$B/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_118d.json | tail -n +2

# ===== call_118e.sh
#!/usr/bin/env bash
# Call 118e: change 118 against the library before it on one unit: change 118's gemm-tune with call
# 118d's table (new) and d268e95's gemm-tune (change 117 alone) with call 106's table (old), alternating,
# the seed and perf sets (all layouts), twice each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc .carry/tuning_table_106.csv.xz > /tmp/t106.csv; xz -dc .carry/tuning_table_118.csv.xz > /tmp/t118.csv
.carry/s/gemm-tune-old import --db /tmp/old.sqlite3 /tmp/t106.csv > /dev/null
.carry/s/gemm-tune-new import --db /tmp/new.sqlite3 /tmp/t118.csv > /dev/null
mkdir -p /tmp/j
for r in 1 2; do
  for v in new old; do
    echo "=== run $r $v $(date +%T)"
    AUTOGEMM_DB=/tmp/$v.sqlite3 .carry/s/gemm-tune-$v bench --set seed --json /tmp/j/bench_seed_${v}_r${r}_118e.json | tail -n +2
    AUTOGEMM_DB=/tmp/$v.sqlite3 .carry/s/gemm-tune-$v bench --set perf --layout all --json /tmp/j/bench_perf_${v}_r${r}_118e.json | tail -n +2
  done
done
tar czf $OUT/bench_118e.tar.gz -C /tmp/j .
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_119.sh (run before 118d: the six-tile test of change 118)
#!/usr/bin/env bash
# Call 119: change 117's serpentine FFMA order in the multistage kernel's row-outer branch, on the six
# nt_align4 tiles that the skinny and mid seed problems pick on a repacked B: base (HEAD) against serp,
# builds of those instances only; 64/128/256/512 x 3072 x 3072 nn tuned --exhaustive, alternating, twice.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
for r in 1 2; do
  for v in base serp; do
    G=.carry/exp119/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 64,3072,3072 --shape 128,3072,3072 --shape 256,3072,3072 \
      --shape 512,3072,3072 --layout nn --exhaustive -q --json /tmp/j.json > /dev/null
    for m in 64 128 256 512; do
      $G export --db /tmp/t.sqlite3 --format csv --problem n,n,3072,$m,3072,4 -o /tmp/e.csv > /dev/null
      tail -n +2 /tmp/e.csv | sort -t, -k17 -g | head -3 | awk -F, -v v=$v -v r=$r '{printf "%s r%s %s %s %s%s %.2f\n", v, r, $11, $14, $15, substr($16,1,1), $17}'
    done
  done
done | tee $OUT/candidates_119.txt

# ===== call_120.sh (calls 120a-b: the same script, the tool's first and second variant lists)
#!/usr/bin/env bash
# Call 120: experiment 120 (skinny_tma variants, memset flush, against cuBLAS), then the library's
# tuned 16/32/1 x 3072 x 3072 in the benchmark on the same unit.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
.carry/s120/skinny_tma
xz -dc .carry/s120/h100_tuning_table_118.csv.xz > /tmp/t.csv
.carry/s120/gemm-tune import --db /tmp/db.sqlite3 /tmp/t.csv > /dev/null
AUTOGEMM_DB=/tmp/db.sqlite3 .carry/s120/gemm-tune bench --shape 16,3072,3072 --shape 32,3072,3072 --shape 1,3072,3072 --json $OUT/bench_skinny_120.json | tail -n +2
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_121.sh
#!/usr/bin/env bash
# Call 121: the serpentine order in the walk-B-outer loop (nn tiles, TM >= 8): base (HEAD) against serp,
# builds of the 58 nn_align4 GEMM instances with TM >= 8 only; the nn problems that pick them tuned
# --exhaustive, alternating, twice; best 3 candidates per problem.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
P="3072,32,3072 3072,64,3072 3072,512,3072 256,256,8192 128,128,32768 256,256,1024"
for r in 1 2; do
  for v in base serp; do
    G=.carry/exp121/gemm-tune-$v
    rm -f /tmp/t.sqlite3
    AUTOGEMM_DB=/tmp/t.sqlite3 $G tune --shape 32,3072,3072 --shape 64,3072,3072 --shape 512,3072,3072 \
      --shape 256,256,8192 --shape 128,128,32768 --shape 256,256,1024 --layout nn --exhaustive -q --json /tmp/j.json > /dev/null
    for p in $P; do
      $G export --db /tmp/t.sqlite3 --format csv --problem n,n,$p,4 -o /tmp/e.csv > /dev/null
      tail -n +2 /tmp/e.csv | sort -t, -k17 -g | head -3 | awk -F, -v v=$v -v r=$r -v p=$p '{printf "%s %s r%s %s %s%s %.2f\n", p, v, r, $14, $15, substr($16,1,1), $17}'
    done
  done
done | tee $OUT/candidates_121.txt
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_121b.sh
#!/usr/bin/env bash
# Call 121b: change 121's full build (serpentine order in the walk-B-outer loop too): the GPU suite,
# memcheck of the covering subset, selfcheck; the seed and perf sets (all layouts) tuned into a fresh
# database and exported.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=.carry/v121
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 170 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
export AUTOGEMM_DB=/tmp/tuned.sqlite3
t0=$(date +%s)
$B/gemm-tune tune --set seed --json $OUT/tune_seed_121.json -q | tail -n +1
$B/gemm-tune tune --set perf --layout all --json $OUT/tune_perf_121.json -q | tail -n +1
echo "tuning took $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/tuned.sqlite3 --format csv -o /tmp/tuning_table_121.csv && xz -9 -c /tmp/tuning_table_121.csv > $OUT/tuning_table_121.csv.xz
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_121c.sh
#!/usr/bin/env bash
# Call 121c: change 121 against the library before it on one unit: change 121's gemm-tune with call
# 121b's table (new) and 6ac5036's gemm-tune with call 118d's table (old), alternating, the seed and
# perf sets (all layouts), twice each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
S=.carry/ab121
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv
xz -dc docs/results/h100_tuning_table_118.csv.xz > /tmp/t118.csv; xz -dc $S/tuning_table_121.csv.xz > /tmp/t121.csv
$S/gemm-tune-old import --db /tmp/old.sqlite3 /tmp/t118.csv > /dev/null
$S/gemm-tune-new import --db /tmp/new.sqlite3 /tmp/t121.csv > /dev/null
mkdir -p $OUT/j
for r in 1 2; do
  for v in new old; do
    echo "=== run $r $v $(date +%T)"
    AUTOGEMM_DB=/tmp/$v.sqlite3 $S/gemm-tune-$v bench --set seed --json $OUT/j/h100_bench_seed_${v}_r${r}_121c.json | tail -n +2
    AUTOGEMM_DB=/tmp/$v.sqlite3 $S/gemm-tune-$v bench --set perf --layout all --json $OUT/j/h100_bench_perf_${v}_r${r}_121c.json | tail -n +2
  done
done
nvidia-smi --query-gpu=clocks.current.sm,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv

# ===== call_120c.sh
#!/usr/bin/env bash
# Call 120c: why experiment 120's TMA copy pipeline streams slower than plain loads: Nsight Compute on
# the plain read and on the unsplit 32-row read-only variant, clocks and caches left alone (so the
# tool's memset flush before each launch leaves L2 dirty, as in the timing), the 6th launch of each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_requests_op_read.sum,l1tex__m_xbar2l1tex_read_bytes.sum,sm__cycles_active.avg
for k in plain_read skinny_tma; do
  SKINNY_ONLY="read r32 nc16 tr4 kq4 bk64 s8" ncu --clock-control none --cache-control none -k regex:$k -s 5 -c 1 \
    --metrics $M .carry/ncu120/skinny_tma 2>&1 | grep -E "skinny_tma<|plain_read|gpu__|dram__|lts__|l1tex__|sm__" 
done
