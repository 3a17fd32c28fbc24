# Device calls 139 to 156 (session of 2026-11-26 (6)): changes 139-142, the re-bench of the tuned numbers (145) and the seed set retuned (148), the device-figure refactor (149, 149b), change 142's losses tuned (150), change 143 (151, 152), experiment 144 (153, 154), the review commit (156). Binaries carried xz-compressed and
# stripped under .carry/<folder>, decompressed on the device. Each call's command line: bash .carry/<folder>/<script>.

# ===== call_ab139 (.carry/ab139/ab.sh)
#!/usr/bin/env bash
# Call 139: change 139 (the untuned choice offers residue instances): this gemm-tune (new) against the
# previous one (old: call 134's, 8bf1917's library), on the 14 scalar-class problems of
# docs/results/scalar_class_problems_139.csv: no database (two rounds, alternating), then change 121's
# table as the neighbours (one round each).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/ab139; J=/tmp/j139; mkdir -p $B $J
for f in gemm-tune gemm-tune-old; do xz -dc .carry/ab139/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
P=docs/results/scalar_class_problems_139.csv
run() {  # version, database, tag
  T=$B/gemm-tune; [ $1 = old ] && T=$B/gemm-tune-old
  echo "=== $3 $1 $(date +%T)"
  AUTOGEMM_DB=$2 $T bench --shapes $P --max-reps 30 --json $J/h100_bench_scalar_$3_$1_139.json
}
for r in 1 2; do
  order="old new"; [ $r = 2 ] && order="new old"
  for v in $order; do rm -f /tmp/none_$v.sqlite3; run $v /tmp/none_$v.sqlite3 untuned_r$r; done
done
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in old new; do
  T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  $T import --db /tmp/nb_$v.sqlite3 /tmp/t121.csv > /dev/null
  run $v /tmp/nb_$v.sqlite3 neighbours
done
tar -cJf $OUT/json_139.tar.xz -C $J . && ls $J | wc -l

# ===== call_v140 (.carry/v140/run.sh)
#!/usr/bin/env bash
# Call 140: change 139 (the untuned choice offers residue instances): the GPU suite, memcheck of the
# covering subset, selfcheck; the instances' registers (gemm-tune kernels --json); the 14 scalar-class
# problems tuned --exhaustive (15 s per problem) for the cost model's calibration data.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v140; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v140/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
$B/gemm-tune kernels --json > $OUT/h100_kernels_140.json; echo "kernels rc=$?"
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
t0=$(date +%s)
$B/gemm-tune tune --db /tmp/scalar.sqlite3 --shapes docs/results/scalar_class_problems_139.csv --exhaustive \
  --shape-time 15 -q --json /tmp/tune_scalar_140.json > $OUT/tune_scalar.txt 2>&1; echo "tune rc=$? after $(( $(date +%s) - t0 )) s"
tail -3 $OUT/tune_scalar.txt
$B/gemm-tune export --db /tmp/scalar.sqlite3 --format csv > /tmp/h100_tune_scalar_140.csv; echo "export rc=$? rows $(wc -l < /tmp/h100_tune_scalar_140.csv)"
xz -c /tmp/h100_tune_scalar_140.csv > $OUT/h100_tune_scalar_140.csv.xz
xz -c /tmp/tune_scalar_140.json > $OUT/h100_tune_scalar_140.json.xz

# ===== call_ab141 (.carry/ab141/ab.sh)
#!/usr/bin/env bash
# Call 141: change 140 (a 4-byte copy priced at 12 issue slots): this gemm-tune (new) against change 139's
# (old), on the 14 fitted scalar-class problems and the 12 left out of the fit: no database (two rounds,
# alternating), then change 121's table as the neighbours (one round each).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/ab141; J=/tmp/j141; mkdir -p $B $J
for f in gemm-tune gemm-tune-old; do xz -dc .carry/ab141/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
{ cat docs/results/scalar_class_problems_139.csv; tail -n +2 docs/results/scalar_class_holdout_140.csv; } > /tmp/p141.csv
run() {  # version, database, tag
  T=$B/gemm-tune; [ $1 = old ] && T=$B/gemm-tune-old
  echo "=== $3 $1 $(date +%T)"
  AUTOGEMM_DB=$2 $T bench --shapes /tmp/p141.csv --max-reps 30 --json $J/h100_bench_scalar_$3_$1_141.json 2>&1 | grep -v warning
}
for r in 1 2; do
  order="old new"; [ $r = 2 ] && order="new old"
  for v in $order; do rm -f /tmp/none_$v.sqlite3; run $v /tmp/none_$v.sqlite3 untuned_r$r; done
done
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in old new; do
  T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  $T import --db /tmp/nb_$v.sqlite3 /tmp/t121.csv > /dev/null
  run $v /tmp/nb_$v.sqlite3 neighbours
done
tar -cJf $OUT/json_141.tar.xz -C $J . && ls $J | wc -l

# ===== call_v142 (.carry/v142/run.sh)
#!/usr/bin/env bash
# Call 142: change 140 (a 4-byte copy priced at 12 issue slots): the GPU suite, memcheck of the covering
# subset, selfcheck; and 127x3001x1531 tuned afresh in every layout (the tuner's pool is ranked by the
# same model) and benchmarked with that table, beside the tuned numbers of performance.md.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v142; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v142/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
t0=$(date +%s)
$B/gemm-tune tune --db /tmp/odd.sqlite3 --shape 127,3001,1531 --layout all -q > $OUT/tune_odd.txt 2>&1
echo "tune rc=$? after $(( $(date +%s) - t0 )) s"; cat $OUT/tune_odd.txt
AUTOGEMM_DB=/tmp/odd.sqlite3 $B/gemm-tune bench --shape 127,3001,1531 --layout all --json $OUT/h100_bench_odd_142.json

# ===== call_ab143 (.carry/ab143/ab.sh)
#!/usr/bin/env bash
# Call 143: change 141 (the GEMM model's DRAM rate limited by bytes in flight): this gemm-tune (new) against change 140's
# (old), on the 14 fitted scalar-class problems and the 12 left out of the fit and 4 aligned
# narrow problems: no database (one round: old, new).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/ab143; J=/tmp/j143; mkdir -p $B $J
for f in gemm-tune gemm-tune-old; do xz -dc .carry/ab143/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
{ cat docs/results/scalar_class_problems_139.csv; tail -n +2 docs/results/scalar_class_holdout_140.csv
  printf 'n,n,4096,16,4096\nn,t,11008,8,4096\nt,n,3072,32,3072\nt,t,4096,64,11008\n'; } > /tmp/p143.csv  # and 4 aligned narrow ones
run() {  # version, database, tag
  T=$B/gemm-tune; [ $1 = old ] && T=$B/gemm-tune-old
  echo "=== $3 $1 $(date +%T)"
  AUTOGEMM_DB=$2 $T bench --shapes /tmp/p143.csv --max-reps 30 --json $J/h100_bench_scalar_$3_$1_143.json 2>&1 | grep -v warning
}
for r in 1; do
  order="old new"; [ $r = 2 ] && order="new old"
  for v in $order; do rm -f /tmp/none_$v.sqlite3; run $v /tmp/none_$v.sqlite3 untuned_r$r; done
done
tar -cJf $OUT/json_143.tar.xz -C $J . && ls $J | wc -l

# ===== call_v144 (.carry/v144/run.sh)
#!/usr/bin/env bash
# Call 144: change 141 (the GEMM model's DRAM rate limited by bytes in flight): the GPU suite, memcheck of the covering
# subset, selfcheck.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v144; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v144/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1


# ===== call_b145 (.carry/b145/run.sh)
#!/usr/bin/env bash
# Call 145: the seed set and the perf set in every layout, benchmarked with change 141's gemm-tune and
# change 121's tuning table (the table performance.md's numbers use): do the tuned numbers stand after
# changes 139-141 (untuned choice and tuner order only)?
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/b145; J=/tmp/j145; mkdir -p $B $J
xz -dc .carry/b145/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
$B/gemm-tune import --db /tmp/t.sqlite3 /tmp/t121.csv > /dev/null
echo "=== seed $(date +%T)"; AUTOGEMM_DB=/tmp/t.sqlite3 $B/gemm-tune bench --set seed --json $J/h100_bench_seed_145.json
echo "=== perf $(date +%T)"; AUTOGEMM_DB=/tmp/t.sqlite3 $B/gemm-tune bench --set perf --layout all --json $J/h100_bench_perf_145.json
tar -cJf $OUT/json_145.tar.xz -C $J . && ls $J | wc -l

# ===== call_ab146 (.carry/ab146/ab.sh)
#!/usr/bin/env bash
# Call 146: change 142 (a thread tile's rate capped by its shared-memory wavefronts): this gemm-tune (new)
# against change 141's (old): with no database on the 83 problems whose untuned pick moves and 10 that
# do not (docs/results/untuned_moved_142.csv), two rounds alternating; then the fallback list through
# change 121's table as the neighbours, one round each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/ab146; J=/tmp/j146; mkdir -p $B $J
for f in gemm-tune gemm-tune-old; do xz -dc .carry/ab146/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
run() {  # version, database, tag, problems
  T=$B/gemm-tune; [ $1 = old ] && T=$B/gemm-tune-old
  echo "=== $3 $1 $(date +%T)"
  AUTOGEMM_DB=$2 $T bench --shapes $4 --max-reps 30 --json $J/h100_bench_$3_$1_146.json 2>&1 | grep -v warning | tail -n +2 | awk '{print $1, $2, $3, $6, $7}'
}
for r in 1 2; do
  order="old new"; [ $r = 2 ] && order="new old"
  for v in $order; do rm -f /tmp/none_$v.sqlite3; run $v /tmp/none_$v.sqlite3 untuned_moved_r$r docs/results/untuned_moved_142.csv > /dev/null; done
done
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in old new; do
  T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  $T import --db /tmp/nb_$v.sqlite3 /tmp/t121.csv > /dev/null
  run $v /tmp/nb_$v.sqlite3 fallback_neighbours tools/fallback_problems.csv > /dev/null
done
tar -cJf $OUT/json_146.tar.xz -C $J . && ls $J | wc -l

# ===== call_v147 (.carry/v147/run.sh)
#!/usr/bin/env bash
# Call 147: change 142 (a thread tile's rate capped by its shared-memory wavefronts): the GPU suite, memcheck of the covering
# subset, selfcheck.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v147; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v147/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1

# ===== call_t148 (.carry/t148/run.sh)
#!/usr/bin/env bash
# Call 148: the seed set tuned afresh with change 142's gemm-tune (the tuner orders its pool by the model
# changes 140-142 touched), then benchmarked with that table: does tuning still find the winners?
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/t148; J=/tmp/j148; mkdir -p $B $J
xz -dc .carry/t148/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/gemm-tune tune --db /tmp/seed.sqlite3 --set seed -q --json $J/h100_tune_seed_148.json; echo "tune rc=$? after $(( $(date +%s) - t0 )) s"
AUTOGEMM_DB=/tmp/seed.sqlite3 $B/gemm-tune bench --set seed --json $J/h100_bench_seed_retuned_148.json
tar -cJf $OUT/json_148.tar.xz -C $J . && ls $J | wc -l


# ===== call_v149 (.carry/v149/run.sh)
#!/usr/bin/env bash
# Call 149: device_model split in two (the figures from attributes, and the formula model_check uses too): the GPU suite, memcheck of the covering
# subset (call 149b: selfcheck and the untuned picks, the tree being too large to carry both binaries).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v149; mkdir -p $B
for f in autogemm_gpu_tests; do xz -dc .carry/v149/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5

# ===== call_v149b (.carry/v149b/run.sh)
#!/usr/bin/env bash
# Call 149b: device_model split in two: selfcheck, and the untuned picks of call 146's problem list,
# which must be call 146's new ones (the same model, its device figures now computed in two steps).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v149b; mkdir -p $B
xz -dc .carry/v149b/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
rm -f /tmp/none.sqlite3; AUTOGEMM_DB=/tmp/none.sqlite3 $B/gemm-tune bench --shapes docs/results/untuned_moved_142.csv \
  --max-reps 10 --json $OUT/h100_bench_untuned_moved_149b.json > /dev/null 2>&1; echo "bench rc=$?"


# ===== call_e150 (.carry/e150/run.sh)
#!/usr/bin/env bash
# Call 150: the three problems change 142's untuned choice made slower, tuned --exhaustive, for
# tools/model_check (where does the model misrank them?).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/e150; mkdir -p $B
xz -dc .carry/e150/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/gemm-tune tune --db /tmp/l.sqlite3 --shapes docs/results/untuned_losses_142.csv --exhaustive --shape-time 20 -q
echo "tune rc=$? after $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/l.sqlite3 --format csv | xz > $OUT/h100_tune_losses_150.csv.xz

# ===== call_c151 (.carry/c151/run.sh)
#!/usr/bin/env bash
# Call 151: change 143 (a K-major operand's short runs priced in the GEMM model): the 5 problems whose
# untuned pick moves (docs/results/untuned_moved_143.csv) tuned --exhaustive with this gemm-tune (its table
# holds the old pick and the new one of each), then benchmarked with no database; selfcheck.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/c151; mkdir -p $B
xz -dc .carry/c151/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
P=docs/results/untuned_moved_143.csv
t0=$(date +%s)
$B/gemm-tune tune --db /tmp/x.sqlite3 --shapes $P --exhaustive --shape-time 20 -q; echo "tune rc=$? after $(( $(date +%s) - t0 )) s"
$B/gemm-tune export --db /tmp/x.sqlite3 --format csv | xz > $OUT/h100_tune_moved_151.csv.xz
rm -f /tmp/none.sqlite3; AUTOGEMM_DB=/tmp/none.sqlite3 $B/gemm-tune bench --shapes $P --json $OUT/h100_bench_untuned_moved_151.json 2>&1 | grep -v warning
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1

# ===== call_v152 (.carry/v152/run.sh)
#!/usr/bin/env bash
# Call 152: change 143 (a K-major operand's short runs priced in the GEMM model): the GPU suite, memcheck of the covering
# subset (call 151: selfcheck and the untuned picks, the tree being too large to carry both binaries).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v152; mkdir -p $B
for f in autogemm_gpu_tests; do xz -dc .carry/v152/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5


# ===== call_o153 (.carry/o153/run.sh)
#!/usr/bin/env bash
# Call 153: change 144 (a partial last wave priced as half a block streaming alone): the previous gemm-tune (change 143's) on
# docs/results/untuned_moved_144.csv with no database.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/o153; mkdir -p $B
xz -dc .carry/o153/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
rm -f /tmp/none.sqlite3; AUTOGEMM_DB=/tmp/none.sqlite3 $B/gemm-tune bench --shapes docs/results/untuned_moved_144.csv \
  --json $OUT/h100_bench_untuned_moved_old_144.json > /dev/null 2>&1; echo "bench rc=$?"

# ===== call_n154 (.carry/n154/run.sh)
#!/usr/bin/env bash
# Call 154: change 144 (a partial last wave priced as half a block streaming alone): this gemm-tune, right after call 153 on the same machine on
# docs/results/untuned_moved_144.csv with no database; selfcheck.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/n154; mkdir -p $B
xz -dc .carry/n154/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
rm -f /tmp/none.sqlite3; AUTOGEMM_DB=/tmp/none.sqlite3 $B/gemm-tune bench --shapes docs/results/untuned_moved_144.csv \
  --json $OUT/h100_bench_untuned_moved_new_144.json > /dev/null 2>&1; echo "bench rc=$?"
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1


# ===== call_v156 (.carry/v156/run.sh)
#!/usr/bin/env bash
# Call 156: review commit (db::read_exchange_file, model_check through find_kernel): the GPU suite, memcheck of the covering
# subset (gemm-tune is unchanged but for import's file reading, checked on the CPU).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v156; mkdir -p $B
for f in autogemm_gpu_tests; do xz -dc .carry/v156/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
