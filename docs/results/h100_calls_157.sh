# Device calls 157 to 166 (session of 2026-11-26 (7)): experiment 145 (calls 159, 159b: the session's first two, numbered
# after the others because call 145 was already the previous session's re-bench), measurement 146 (157, 157b, 157c),
# change 147 (158), change 148 (160), measurement 150 (161), measurement 151 (162), measurement 152 (163), change 153 (164, 164b), measurement 154 (165), the review commit (166).
# Calls 159 and 159b: experiment 145, error-compensated TF32 tensor cores on target 3's shapes. The tool was built here (build/h100c, target tf32x3_bound: sm_90a) and
# carried stripped under .carry/tf32; the two calls ran the same command on two H100 units, the second
# with the per-k-tile promotion variants added.

# ===== call 159 and call 159b (command line)
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt; cat $OUT/gpu.txt
./.carry/tf32/tf32x3_bound 2>&1 | tee $OUT/tf32x3_bound_145.txt   # 159b: $OUT/tf32x3_bound_145b.txt (stored as h100_tf32x3_bound_159*.txt)

# ===== calls 157 and 157b (.carry/fb157/seed.sh, .carry/fb157/exhaustive.sh): measurement 146, the
# fallback quality at 5b5d10a (gemm-tune of 5b5d10a's library carried as .carry/fb157/gemm-tune.xz)
# #!/usr/bin/env bash
# # Call 157: the runtime's fallback quality measured again (docs/runtime.md), part 1: the seed set tuned
# # in all four layouts, then tools/fallback_problems.csv benchmarked through that database's neighbours
# # and with no database at all (the plain cost model). gemm-tune of 5b5d10a's library (= this tree's).
# set -u
# exec > >(tee -a $OUT/log_157.txt) 2>&1
# B=/tmp/fb; mkdir -p $B
# xz -dc .carry/fb157/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# echo "=== tune seed, all layouts $(date +%T)"
# rm -f $B/seed_all.sqlite3
# $B/gemm-tune tune --set seed --layout all --db $B/seed_all.sqlite3 --json $OUT/h100_tune_seed_all_157.json --quiet
# echo "=== fallback bench, neighbours $(date +%T)"
# AUTOGEMM_DB=$B/seed_all.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_157.json
# echo "=== fallback bench, no database $(date +%T)"
# rm -f $B/none.sqlite3
# AUTOGEMM_DB=$B/none.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_nodb_157.json
# $B/gemm-tune export --db $B/seed_all.sqlite3 --format csv -o $B/seed_all_157.csv && xz -9 -c $B/seed_all_157.csv > $OUT/h100_tuning_table_seed_all_157.csv.xz
# echo "=== done $(date +%T)"
# #!/usr/bin/env bash
# # Call 157b: part 2, the exhaustive reference: tools/fallback_problems.csv tuned --exhaustive with a
# # 12 s cap per problem (as tools/gpu_validation.sh's fallback_exhaustive step).
# set -u
# exec > >(tee -a $OUT/log_157b.txt) 2>&1
# B=/tmp/fb; mkdir -p $B
# [ -x $B/gemm-tune ] || { xz -dc .carry/fb157/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune; }
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# echo "=== exhaustive $(date +%T)"
# rm -f $B/ex.sqlite3
# $B/gemm-tune tune --shapes tools/fallback_problems.csv --exhaustive --shape-time 12 --db $B/ex.sqlite3 \
#   --json $OUT/h100_tune_fallback_exhaustive_157.json --quiet
# echo "=== done $(date +%T)"

# ===== call 157c (.carry/fb157/exhaustive_table.sh): the list tuned --exhaustive (20 s cap), every candidate exported
# #!/usr/bin/env bash
# # Call 157c: the fallback list tuned --exhaustive again with a 20 s cap and its table exported, so the
# # fallback's choice can be scored against every candidate's time on the CPU (tools/model_check
# # --neighbours); the kernels listed with their registers on this GPU.
# set -u
# exec > >(tee -a $OUT/log_157c.txt) 2>&1
# B=/tmp/fb; mkdir -p $B
# [ -x $B/gemm-tune ] || { xz -dc .carry/fb157/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune; }
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# $B/gemm-tune kernels --json > $B/kernels.json && xz -9 -c $B/kernels.json > $OUT/h100_kernels_157c.json.xz
# echo "=== exhaustive $(date +%T)"
# rm -f $B/ex.sqlite3
# $B/gemm-tune tune --shapes tools/fallback_problems.csv --exhaustive --shape-time 20 --db $B/ex.sqlite3 \
#   --json $OUT/h100_tune_fallback_exhaustive_157c.json --quiet
# $B/gemm-tune export --db $B/ex.sqlite3 --format csv -o $B/ex.csv && xz -9 -c $B/ex.csv > $OUT/h100_tuning_table_fallback_exhaustive_157c.csv.xz
# echo "=== done $(date +%T)"

# ===== call 158 (.carry/v158/run.sh): change 147's validation and fallback A/B (894fe40's binaries)
# #!/usr/bin/env bash
# # Call 158: change 147 (only tuned problems within distance 2 calibrate the untuned choice), 894fe40's
# # binaries: the GPU suite, memcheck of the covering subset, selfcheck; then the fallback list through
# # call 157's seed table (imported) with this gemm-tune (new) and 5b5d10a's (old), alternating, two
# # rounds; and with no database (new).
# set -u
# exec > >(tee -a $OUT/log_158.txt) 2>&1
# B=/tmp/v158; mkdir -p $B
# for f in autogemm_gpu_tests gemm-tune gemm-tune-old; do xz -dc .carry/v158/$f.xz > $B/$f; chmod +x $B/$f; done
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# t0=$(date +%s)
# $B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests_158.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests_158.txt | head -12
# t0=$(date +%s)
# AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
#   --gtest_brief=1 > $OUT/memcheck_158.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck_158.txt | tail -5
# rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
# xz -dc docs/results/h100_tuning_table_seed_all_157.csv.xz > $B/seed.csv
# for v in old new; do
#   T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
#   rm -f $B/db_$v.sqlite3; $T import --db $B/db_$v.sqlite3 $B/seed.csv | tail -1
# done
# for r in 1 2; do
#   order="old new"; [ $r = 2 ] && order="new old"
#   for v in $order; do
#     T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
#     echo "=== fallback $v r$r $(date +%T)"
#     AUTOGEMM_DB=$B/db_$v.sqlite3 $T bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_${v}_r${r}_158.json > /dev/null 2>&1; echo "rc=$?"
#   done
# done
# rm -f $B/none.sqlite3; AUTOGEMM_DB=$B/none.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv \
#   --json $OUT/h100_bench_fallback_nodb_new_158.json > /dev/null 2>&1; echo "nodb rc=$?"
# echo "=== done $(date +%T)"

# ===== call 160 (.carry/v160/run.sh): change 148's validation, the short-K list and the fallback list (6c57a11's binaries)
# #!/usr/bin/env bash
# # Call 160: change 148 (the cost model computes K in whole k-tiles), 6c57a11's binaries: the GPU suite,
# # memcheck of the covering subset, selfcheck; the short-K list tuned --exhaustive (12 s cap) and exported;
# # the list benchmarked with no database, this gemm-tune (new) and change 147's (old) alternating, two
# # rounds; the fallback list through call 157's seed table (new).
# set -u
# exec > >(tee -a $OUT/log_160.txt) 2>&1
# B=/tmp/v160; mkdir -p $B
# for f in autogemm_gpu_tests gemm-tune gemm-tune-old; do xz -dc .carry/v160/$f.xz > $B/$f; chmod +x $B/$f; done
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# t0=$(date +%s)
# $B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests_160.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests_160.txt | head -12
# t0=$(date +%s)
# AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
#   --gtest_brief=1 > $B/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $B/memcheck.txt | tail -5
# rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
# P=docs/results/short_k_problems_148.csv
# for r in 1 2; do
#   order="old new"; [ $r = 2 ] && order="new old"
#   for v in $order; do
#     T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
#     echo "=== short-K untuned $v r$r $(date +%T)"
#     rm -f $B/none.sqlite3; AUTOGEMM_DB=$B/none.sqlite3 $T bench --shapes $P --json $OUT/h100_bench_short_k_${v}_r${r}_160.json > /dev/null 2>&1; echo "rc=$?"
#   done
# done
# xz -dc docs/results/h100_tuning_table_seed_all_157.csv.xz > $B/seed.csv
# rm -f $B/db.sqlite3; $B/gemm-tune import --db $B/db.sqlite3 $B/seed.csv | tail -1
# AUTOGEMM_DB=$B/db.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_new_160.json > /dev/null 2>&1; echo "fallback rc=$?"
# echo "=== exhaustive $(date +%T)"
# rm -f $B/ex.sqlite3
# $B/gemm-tune tune --shapes $P --exhaustive --shape-time 12 --db $B/ex.sqlite3 --json $OUT/h100_tune_short_k_exhaustive_160.json --quiet | tail -16
# $B/gemm-tune export --db $B/ex.sqlite3 --format csv -o $B/ex.csv && xz -9 -c $B/ex.csv > $OUT/h100_tuning_table_short_k_exhaustive_160.csv.xz
# echo "=== done $(date +%T)"

# ===== call 161 (.carry/b161/run.sh): measurement 150, issue 6's targets with 5ef4ac6's gemm-tune and change 121's table
# #!/usr/bin/env bash
# # Call 161: issue 6's targets re-measured with this session's gemm-tune (5ef4ac6's library: changes 147-148
# # touch only the untuned choice) and change 121's tuning table: the seed set twice, the perf set in every layout.
# set -u
# exec > >(tee -a $OUT/log_161.txt) 2>&1
# B=/tmp/b161; mkdir -p $B
# xz -dc .carry/b161/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# xz -dc docs/results/h100_tuning_table_121.csv.xz > $B/t121.csv
# $B/gemm-tune import --db $B/t.sqlite3 $B/t121.csv | tail -1
# for r in 1 2; do
#   echo "=== seed r$r $(date +%T)"; AUTOGEMM_DB=$B/t.sqlite3 $B/gemm-tune bench --set seed --json $OUT/h100_bench_seed_r${r}_161.json > /dev/null 2>&1; echo "rc=$?"
# done
# echo "=== perf $(date +%T)"; AUTOGEMM_DB=$B/t.sqlite3 $B/gemm-tune bench --set perf --layout all --json $OUT/h100_bench_perf_161.json > /dev/null 2>&1; echo "rc=$?"
# echo "=== done $(date +%T)"

# ===== call 162 (.carry/e162/run.sh): measurement 151, large K-major problems tuned --exhaustive and exported
# #!/usr/bin/env bash
# # Call 162: measurement 151, large problems with K-major operands: the list tuned --exhaustive (20 s cap)
# # and exported, so model_check can set each candidate's estimate beside its time (aebf825's gemm-tune).
# set -u
# exec > >(tee -a $OUT/log_162.txt) 2>&1
# B=/tmp/e162; mkdir -p $B
# xz -dc .carry/e162/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# rm -f $B/ex.sqlite3
# $B/gemm-tune tune --shapes docs/results/large_kmajor_problems_151.csv --exhaustive --shape-time 20 --db $B/ex.sqlite3 \
#   --json $OUT/h100_tune_large_kmajor_162.json --quiet | tail -8
# $B/gemm-tune export --db $B/ex.sqlite3 --format csv -o $B/ex.csv && xz -9 -c $B/ex.csv > $OUT/h100_tuning_table_large_kmajor_162.csv.xz
# echo "=== done $(date +%T)"

# ===== call 163 (.carry/p163/run.sh): measurement 152, the 128x128x8 tile forced and profiled (run three times:
# the first import was refused for min > median, the second profiled nothing under a kernel-name filter that
# did not match; this is the third form)
# #!/usr/bin/env bash
# # Call 163: measurement 152, the 128x128x8 8x8 tile forced (a one-row database per problem,
# # docs/results/kmajor_forced_152.csv) on 4096x2048x4096 tn and nt and 3072^3 tn: bench, then Nsight
# # Compute of one launch of each (speed of light, memory workload, warp states).
# set -u
# exec > >(tee -a $OUT/log_163.txt) 2>&1
# B=/tmp/p163; mkdir -p $B
# xz -dc .carry/p163/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# rm -f $B/f.sqlite3; $B/gemm-tune import --db $B/f.sqlite3 docs/results/kmajor_forced_152.csv | tail -1
# AUTOGEMM_DB=$B/f.sqlite3 $B/gemm-tune bench --shapes docs/results/kmajor_forced_problems_152.csv --max-reps 20 \
#   --json $OUT/h100_bench_kmajor_forced_163.json 2>&1 | tail -5
# i=0
# while IFS=, read ta tb m n k; do
#   [ "$ta" = transa ] && continue
#   i=$((i+1)); printf "transa,transb,m,n,k\n%s,%s,%s,%s,%s\n" $ta $tb $m $n $k > $B/one.csv
#   echo "=== ncu $ta$tb $m x $n x $k $(date +%T)"
#   AUTOGEMM_DB=$B/f.sqlite3 timeout 150 ncu --kernel-name regex:simt_sgemm --launch-skip 2 --launch-count 1 \
#     --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
#     $B/gemm-tune bench --shapes $B/one.csv --max-reps 3 > $OUT/h100_ncu_kmajor_${i}_163.txt 2>&1; echo "rc=$?"
# done < docs/results/kmajor_forced_problems_152.csv
# echo "=== done $(date +%T)"

# ===== call 164 (.carry/v164/run.sh): change 153's validation and A/B (cc797cf's binaries)
# #!/usr/bin/env bash
# # Call 164: change 153 (each k-tile's sync charged), cc797cf's binaries: the GPU suite, memcheck of the covering
# # subset, selfcheck; with no database, call 162's large K-major list and the short-K list, this gemm-tune (new) and
# # change 148's (old) alternating, two rounds; the fallback list through call 157's seed table (new).
# set -u
# exec > >(tee -a $OUT/log_164.txt) 2>&1
# B=/tmp/v164; mkdir -p $B
# for f in autogemm_gpu_tests gemm-tune gemm-tune-old; do xz -dc .carry/v164/$f.xz > $B/$f; chmod +x $B/$f; done
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# t0=$(date +%s)
# $B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests_164.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests_164.txt | head -12
# t0=$(date +%s)
# AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
#   --gtest_brief=1 > $B/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $B/memcheck.txt | tail -5
# rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
# for P in large_kmajor_problems_151 short_k_problems_148; do
#   for r in 1 2; do
#     order="old new"; [ $r = 2 ] && order="new old"
#     for v in $order; do
#       T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
#       echo "=== $P untuned $v r$r $(date +%T)"
#       rm -f $B/none.sqlite3; AUTOGEMM_DB=$B/none.sqlite3 $T bench --shapes docs/results/$P.csv --max-reps 20 \
#         --json $OUT/h100_bench_${P%_*}_${v}_r${r}_164.json > /dev/null 2>&1; echo "rc=$?"
#     done
#   done
# done
# xz -dc docs/results/h100_tuning_table_seed_all_157.csv.xz > $B/seed.csv
# rm -f $B/db.sqlite3; $B/gemm-tune import --db $B/db.sqlite3 $B/seed.csv | tail -1
# AUTOGEMM_DB=$B/db.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_new_164.json > /dev/null 2>&1; echo "fallback rc=$?"
# echo "=== done $(date +%T)"

# ===== call 164b (command line, the same warm machine): the short-K A/B again, its files stored as *_164b.json
# B=/tmp/v164; P=short_k_problems_148; for r in 1 2; do order="old new"; [ $r = 2 ] && order="new old"; for v in $order; do
#   T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old; rm -f $B/none.sqlite3; AUTOGEMM_DB=$B/none.sqlite3 $T bench \
#   --shapes docs/results/$P.csv --max-reps 20 --json $OUT/h100_bench_short_k_${v}_r${r}_164b.json > /dev/null 2>&1; done; done

# ===== call 165 (.carry/t165/run.sh): measurement 154, the seed set tuned from empty with cc797cf's gemm-tune
# #!/usr/bin/env bash
# # Call 165: measurement 154, the seed set tuned from an empty database with cc797cf's gemm-tune (the tuner
# # orders its candidates by the cost model, which changes 148 and 153 moved), then benchmarked twice; the
# # tuned table exported.
# set -u
# exec > >(tee -a $OUT/log_165.txt) 2>&1
# B=/tmp/t165; mkdir -p $B
# xz -dc .carry/t165/gemm-tune.xz > $B/gemm-tune; chmod +x $B/gemm-tune
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# rm -f $B/s.sqlite3; t0=$(date +%s)
# $B/gemm-tune tune --set seed --db $B/s.sqlite3 --json $OUT/h100_tune_seed_165.json --quiet | tail -14
# echo "tune took $(( $(date +%s) - t0 )) s"
# for r in 1 2; do
#   AUTOGEMM_DB=$B/s.sqlite3 $B/gemm-tune bench --set seed --json $OUT/h100_bench_seed_tuned_r${r}_165.json > /dev/null 2>&1; echo "bench r$r rc=$?"
# done
# $B/gemm-tune export --db $B/s.sqlite3 --format csv -o $B/s.csv && xz -9 -c $B/s.csv > $OUT/h100_tuning_table_seed_165.csv.xz
# echo "=== done $(date +%T)"

# ===== call 166 (.carry/v166/run.sh): the review commit ec21cb2's validation
# #!/usr/bin/env bash
# # Call 166: the review commit ec21cb2 (class_neighbours, one composition of a class's fallback neighbours for the runtime
# # and model_check): the GPU suite, memcheck of the covering subset, selfcheck; the fallback list through call 157's seed
# # table, whose picks should be call 164's.
# set -u
# exec > >(tee -a $OUT/log_166.txt) 2>&1
# B=/tmp/v166; mkdir -p $B
# for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v166/$f.xz > $B/$f; chmod +x $B/$f; done
# nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# t0=$(date +%s)
# $B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests_166.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests_166.txt | head -12
# t0=$(date +%s)
# AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
#   --gtest_brief=1 > $B/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
# grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $B/memcheck.txt | tail -5
# rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
# xz -dc docs/results/h100_tuning_table_seed_all_157.csv.xz > $B/seed.csv
# rm -f $B/db.sqlite3; $B/gemm-tune import --db $B/db.sqlite3 $B/seed.csv | tail -1
# AUTOGEMM_DB=$B/db.sqlite3 $B/gemm-tune bench --shapes tools/fallback_problems.csv --json $OUT/h100_bench_fallback_166.json > /dev/null 2>&1; echo "fallback rc=$?"
# echo "=== done $(date +%T)"
