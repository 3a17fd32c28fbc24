# The device calls of changes 95-97, as run (each was .carry/NAME on the H100 machine, with the binaries named in its header carried).

######## .carry/call_95.sh
#!/usr/bin/env bash
# Change 95 on the GPU: the nn TMA instance's staging hand-off. Binaries: old (change 94), a (drained
# mbarrier + proxy fence), b (stores, proxy fence, then the named barrier).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
for v in old a b; do
  echo "=== $v: bitwise test against the nt twin (3 repeats)"
  .carry/$v/autogemm_gpu_tests --gtest_filter='SimtSgemmTma/*' --gtest_repeat=3 --gtest_brief=1 2>&1 | grep -v "^\[ *OK\|^\[ RUN" | tail -25
done
for v in a b; do
  echo "=== $v: instance tests of the TMA instances"
  .carry/$v/autogemm_gpu_tests --gtest_filter='*InstanceTest*tma*' --gtest_brief=1 2>&1 | tail -4
done
for r in 1 2; do
  for v in old a b; do
    echo "=== $v tune round $r"
    .carry/$v/gemm-tune tune --shape 4096,4096,4096 --layout nn,nt --exhaustive --db /tmp/$v.$r.db --json $OUT/tune_${v}_$r.json 2>&1 | grep -v "^\s*$" | tail -8
  done
done
for v in a b; do
  for tool in racecheck synccheck memcheck; do
    echo "=== $v $tool"
    AUTOGEMM_TEST_SANITIZER=1 compute-sanitizer --tool $tool .carry/$v/autogemm_gpu_tests --gtest_filter='*InstanceTest*tma*nn*' --gtest_brief=1 2>&1 | tail -3
  done
done
nvidia-smi --query-gpu=name,uuid,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

######## .carry/call_95b.sh
#!/usr/bin/env bash
# Change 95, second call: (1) the nn TMA instance's time in change 94 (old) and the two fixed forms
# (a: drained mbarrier, kept; b: stores, fence, named barrier), every candidate exported;
# (2) the full grid of the working tree (form a): GPU suite, selfcheck, racecheck of the TMA
# instances.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=build/h100c
mkdir -p /tmp/v && tar xJf .carry/abold.tar.xz -C /tmp/v
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
for r in 1 2; do
  for v in old a b; do
    /tmp/v/$v/gemm-tune tune --shape 4096,4096,4096 --layout nn --exhaustive --db /tmp/$v.$r.db -q >/dev/null 2>&1
    /tmp/v/$v/gemm-tune export --format csv --db /tmp/$v.$r.db | sed "s/^/$v,$r,/" >> $OUT/nn_candidates_95.csv
    echo "$v round $r: $(grep -c . $OUT/nn_candidates_95.csv) rows so far"
  done
done
grep "nn_align4" $OUT/nn_candidates_95.csv | cut -c1-200
echo "=== 4096^3 nt, the 256x128x16 TMA instance tuned in 8 separate processes (fresh buffers each)"
for i in 1 2 3 4 5 6 7 8; do
  /tmp/v/a/gemm-tune tune --shape 4096,4096,4096 --layout nt --db /tmp/nt.$i.db 2>&1 | grep "^4096x4096x4096"
done
V=/tmp/val
tools/gpu_validation.sh $B $V info tests selfcheck
AUTOGEMM_TEST_SANITIZER=1 compute-sanitizer --tool racecheck $B/tests/autogemm_gpu_tests --gtest_brief=1 \
  --gtest_filter='SimtSgemm/*tma*' 2>&1 | tail -3
tar czf $OUT/val_logs.tar.gz -C $V .
nvidia-smi --query-gpu=name,uuid,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

######## .carry/call_96a.sh
#!/usr/bin/env bash
# Change 96, first call: the streamed tail's tests, then 4096^3 and 4096x11008x4096 tuned --exhaustive
# with the tail on (new), off (AUTOGEMM_STREAMK=0, new binary) and with the binary before change 96
# (old: change 95 form b), alternating, every candidate exported.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
N=.carry/new
mkdir -p /tmp/v && tar xJf .carry/abold.tar.xz -C /tmp/v
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
echo "=== tests"
$N/autogemm_gpu_tests --gtest_filter='SimtSgemmTma*:*InstanceTest*tma*' --gtest_brief=1 2>&1 | tail -30
for tool in memcheck synccheck; do
  echo "=== $tool"
  timeout 150 compute-sanitizer --tool $tool $N/autogemm_gpu_tests --gtest_filter='SimtSgemmTma/TmaStreamKTest.*256x128x16*' --gtest_brief=1 2>&1 | tail -4
done
tune() {  # tune LABEL BINARY SHAPE LAYOUT [env...]
  local label=$1 bin=$2 shape=$3 layout=$4; shift 4
  local db=/tmp/$label.$RANDOM.db
  env "$@" $bin tune --shape $shape --layout $layout --exhaustive --db $db -q >/dev/null 2>&1
  $bin export --format csv --db $db | grep -v "^device" | sed "s/^/$label,/" >> $OUT/candidates_96.csv
}
for r in 1 2; do
  for s in 4096,4096,4096 4096,11008,4096; do
    tune old$r /tmp/v/b/gemm-tune $s nt
    tune off$r $N/gemm-tune $s nt AUTOGEMM_STREAMK=0
    tune on$r $N/gemm-tune $s nt
  done
  tune nnoff$r $N/gemm-tune 4096,4096,4096 nn AUTOGEMM_STREAMK=0
  tune nnon$r $N/gemm-tune 4096,4096,4096 nn
  echo "round $r: $(grep -c . $OUT/candidates_96.csv) rows"
done
grep -E "tma_(256x128x16|128x256x16)" $OUT/candidates_96.csv | awk -F, '{print $1, $11"x"$12"x"$13, $10, $15, $16, $17, $18}' | sort -k2,2 -k3,3 -k4,4 -k1,1
echo "=== racecheck (time-limited)"
timeout 200 compute-sanitizer --tool racecheck $N/autogemm_gpu_tests --gtest_filter='SimtSgemmTma/TmaStreamKTest.*256x128x16*' --gtest_brief=1 2>&1 | tail -4
nvidia-smi --query-gpu=name,uuid,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

######## .carry/call_96b.sh
#!/usr/bin/env bash
# Change 96, second call: the tail's second form (v2: the data-parallel grid triggers its dependent
# at start) against the first (v1), tail on and off, 4096^3 nt and nn, 4096x11008x4096 nt, three
# alternating rounds, every candidate exported; the TMA tests of v2.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
N=.carry/v2
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
$N/autogemm_gpu_tests --gtest_filter='SimtSgemmTma*:*InstanceTest*tma*' --gtest_brief=1 2>&1 | tail -4
tune() {  # tune LABEL BINARY SHAPE LAYOUT [env...]
  local label=$1 bin=$2 shape=$3 layout=$4; shift 4
  local db=/tmp/$label.$RANDOM.db
  env "$@" $bin tune --shape $shape --layout $layout --exhaustive --db $db -q >/dev/null 2>&1
  $bin export --format csv --db $db 2>/dev/null | grep -v "^device" | sed "s/^/$label,/" >> $OUT/candidates_96b.csv
}
for r in 1 2 3; do
  for s in 4096,4096,4096 4096,11008,4096; do
    tune v2on$r $N/gemm-tune $s nt
    tune v1on$r .carry/v1/gemm-tune $s nt
    tune v2off$r $N/gemm-tune $s nt AUTOGEMM_STREAMK=0
  done
  tune v2nn$r $N/gemm-tune 4096,4096,4096 nn
  tune v1nn$r .carry/v1/gemm-tune 4096,4096,4096 nn
done
grep -E "tma_(256x128x16|128x256x16).*_nt_" $OUT/candidates_96b.csv | awk -F, '{printf "%-8s %s %s %s %.1f\n", $1, $11"x"$12"x"$13, $10, substr($15,16,10), $18}' | sort -k2,2 -k3,3 -k4,4 -k1,1
nvidia-smi --query-gpu=name,uuid,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

######## .carry/call_96c.sh
#!/usr/bin/env bash
# Change 96, full grid (binaries of the working tree): GPU suite, selfcheck, sanitizers on the TMA
# tests, the seed and perf sets tuned into a fresh database and benchmarked (run 1).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=build/h100c
V=/tmp/val
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,clocks.current.memory,power.draw,clocks_event_reasons.active --format=csv
tools/gpu_validation.sh $B $V info tests selfcheck
for tool in memcheck racecheck synccheck; do
  echo "=== $tool of the TMA tests"
  AUTOGEMM_TEST_SANITIZER=1 timeout 150 compute-sanitizer --tool $tool --error-exitcode 1 $B/tests/autogemm_gpu_tests \
    --gtest_filter='SimtSgemmTma*:*InstanceTest*tma*' --gtest_brief=1 2>&1 | tail -3
done
tools/gpu_validation.sh $B $V tune perf
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
cp $V/tune_seed.json $V/bench_seed_tuned.json $V/tune_perf.json $V/bench_perf_tuned.json $V/tuned.sqlite3 $OUT/
tar czf $OUT/val_logs.tar.gz -C $V --exclude='*.sqlite3*' --exclude='*.json' .

######## .carry/call_96d.sh
#!/usr/bin/env bash
# Change 96, full grid: benchmark runs 2 and 3 of the seed and perf sets with call 96c's database,
# then one run of each with the streamed tail off (AUTOGEMM_STREAMK=0), same database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=build/h100c
export AUTOGEMM_DB=.carry/tuned.sqlite3
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
for r in 2 3; do
  $B/tools/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run$r.json | tail -14
  $B/tools/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run$r.json | tail -17
done
AUTOGEMM_STREAMK=0 $B/tools/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_nostreamk.json | tail -14
AUTOGEMM_STREAMK=0 $B/tools/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_nostreamk.json | tail -17
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv

######## .carry/call_97.sh
#!/usr/bin/env bash
# Change 97 (tapered tail shares), full grid: GPU suite; the problems a tail runs on retuned (--force)
# into a copy of call 96c's database; the seed and perf sets benchmarked twice with it.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=build/h100c
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
$B/tests/autogemm_gpu_tests --gtest_brief=1 2>&1 | tail -3
xz -dc .carry/tuned.sqlite3.xz > /tmp/tuned.sqlite3
export AUTOGEMM_DB=/tmp/tuned.sqlite3
$B/tools/gemm-tune tune --shape 4096,4096,4096 --layout all --force --json $OUT/tune_4096_97.json -q
$B/tools/gemm-tune tune --shape 4096,11008,4096 --layout nn,nt --force --json $OUT/tune_11008_97.json -q
$B/tools/gemm-tune tune --shape 3072,3072,3072 --layout nn --force --json $OUT/tune_3072_97.json -q
for r in 1 2; do
  $B/tools/gemm-tune bench --set seed --json $OUT/bench_seed_tuned_run${r}_97.json | grep -E "^3072x3072|^shape"
  $B/tools/gemm-tune bench --set perf --layout all --json $OUT/bench_perf_tuned_run${r}_97.json | grep -E "^4096x|^shape"
done
$B/tools/gemm-tune db check --db /tmp/tuned.sqlite3 | tail -1
nvidia-smi --query-gpu=clocks.current.sm,power.draw,clocks_event_reasons.active --format=csv
