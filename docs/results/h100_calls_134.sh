# Device calls 134 to 136 (session of 2026-11-26 (5)); binaries carried under .carry/v134 (autogemm_gpu_tests, gemm-tune,
# ffma_ceiling) and .carry/ab134 (gemm-tune and change 132's gemm-tune-old), xz-compressed stripped, decompressed on the device
# to stay under the 64 MiB carry. Each call's command line: bash .carry/<folder>/<script>.

# ===== call_134 (.carry/v134/run.sh)
#!/usr/bin/env bash
# Call 134: the launch helper (KernelLaunch, launch_config.hpp: the GEMM, GEMV and reduction launchers
# build their launches one way) and the API tests' shared nn problem: the GPU suite, memcheck of the
# covering subset, racecheck of the API and reduction tests, selfcheck; experiment 134 (ffma_ceiling).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v134; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune ffma_ceiling; do xz -dc .carry/v134/$f.xz > $B/$f; chmod +x $B/$f; done
CUOBJ=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/cuobjdump'))" 2>/dev/null)
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
[ -x "$CUOBJ" ] && $CUOBJ --dump-resource-usage $B/ffma_ceiling 2>&1 | grep -E "REG|Function"
$B/ffma_ceiling > $OUT/h100_ffma_ceiling_134.txt 2>&1; echo "ffma_ceiling rc=$?"; cat $OUT/h100_ffma_ceiling_134.txt
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_filter='SplitkReduce*:SgemmApiTest.Reads*:SgemmApiTest.Steady*:SgemmApiTest.UserStream' \
  --gtest_brief=1 > $OUT/racecheck.txt 2>&1; echo "racecheck rc=$?"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck.txt
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1

# ===== call_134b (.carry/ab134/ab.sh)
#!/usr/bin/env bash
# Call 134b: the launch helper's gemm-tune (new) against change 132's (old; 992d183 to 748a520), both with change
# 121's table: back-to-back calls (gemm-tune overhead) and the seed set, alternating, twice each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/ab134; J=/tmp/j134; mkdir -p $B $J  # JSON under $J, sent back as one archive (8 files at most)
for f in gemm-tune gemm-tune-old; do xz -dc .carry/ab134/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
# Device code of the two binaries: the launch helper changes host code only, so their SASS must match.
CUOBJ=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/cuobjdump'))" 2>/dev/null)
for v in new old; do T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  timeout 180 $CUOBJ -sass $T > /tmp/sass_$v.txt 2>&1; echo "$v: cuobjdump rc=$? functions $(grep -c 'Function :' /tmp/sass_$v.txt) sass md5 $(md5sum < /tmp/sass_$v.txt | cut -c1-12)"
done
diff /tmp/sass_new.txt /tmp/sass_old.txt > /tmp/sass.diff; echo "sass diff rc=$? lines $(wc -l < /tmp/sass.diff)"; head -20 /tmp/sass.diff > $OUT/sass_diff_head.txt
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in new old; do T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old; $T import --db /tmp/$v.sqlite3 /tmp/t121.csv > /dev/null; done
for shape in 256,256,256 1,1024,1024; do for r in 1 2; do for v in new old; do
  T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  echo "=== overhead $shape r$r $v"
  AUTOGEMM_DB=/tmp/$v.sqlite3 $T overhead --shape $shape --calls 20000 --json $J/h100_overhead_${shape//,/x}_${v}_r${r}_134.json | tail -1
done; done; done
for r in 1 2; do for v in new old; do
  T=$B/gemm-tune; [ $v = old ] && T=$B/gemm-tune-old
  echo "=== bench seed r$r $v $(date +%T)"
  AUTOGEMM_DB=/tmp/$v.sqlite3 $T bench --set seed --json $J/h100_bench_seed_${v}_r${r}_134.json | tail -n +2 | awk '{print $1, $6, $8, $10}'
done; done
tar -cJf $OUT/json_134.tar.xz -C $J . && ls $J | wc -l

# ===== call_134c (.carry/v134/race.sh)
#!/usr/bin/env bash
# Call 134c: racecheck of the reduction test and the API tests one by one (call 134's single racecheck
# of all of them ran past its 150 s), and experiment 134's tool twice more on this unit.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v134; mkdir -p $B
for f in autogemm_gpu_tests ffma_ceiling; do xz -dc .carry/v134/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
for r in 2 3; do $B/ffma_ceiling > $OUT/h100_ffma_ceiling_134c_r$r.txt 2>&1; echo "ffma_ceiling r$r rc=$?"; cat $OUT/h100_ffma_ceiling_134c_r$r.txt; done
for f in 'SplitkReduce*' 'SgemmApiTest.Reads*' 'SgemmApiTest.Steady*:SgemmApiTest.UserStream'; do
  t0=$(date +%s)
  timeout 170 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests --gtest_filter="$f" > /tmp/rc.txt 2>&1
  echo "racecheck $f rc=$? after $(( $(date +%s) - t0 )) s"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" /tmp/rc.txt; cat /tmp/rc.txt >> $OUT/racecheck.txt
done

# ===== call_135b (.carry/m135/run.sh, as run). Call 135 was the same script with the ncu loop over
# skip = 28 56 (variants (b) and (c) of ffma_ceiling), tuning without --shape-time (15 s per problem) under
# timeout 420, and its outputs named _135 instead of _135b.
#!/usr/bin/env bash
# Call 135b (135 again with --shape-time 130: call 135 stopped each problem at the default 15 s)
# Call 135: measurement 135: target 3's four shapes tuned --exhaustive (nn) with this gemm-tune, the
# best candidates per shape, and ncu's shared-memory counts of experiment 134's variants (b) and (c).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/m135; mkdir -p $B
for f in gemm-tune ffma_ceiling; do xz -dc .carry/m135/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
M="smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_pipe_fma.sum,sm__cycles_active.avg,l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active"
for skip in; do  # ncu done in call 135
  timeout 120 ncu --kernel-name regex:ffma_kernel --launch-skip $skip --launch-count 1 --metrics $M $B/ffma_ceiling > /tmp/ncu_$skip.txt 2>&1
  echo "ncu skip $skip rc=$?"; grep -E "ffma_kernel|inst_executed|wavefronts|conflicts|cycles_active|issue_active" /tmp/ncu_$skip.txt; cat /tmp/ncu_$skip.txt >> $OUT/h100_ncu_ffma_ceiling_135.txt
done
t0=$(date +%s)
AUTOGEMM_DB=/tmp/x.sqlite3 timeout 560 $B/gemm-tune tune --exhaustive --shape-time 130 --force --layout nn --shape 256,256,8192 --shape 128,128,32768 \
  --shape 16,3072,3072 --shape 32,3072,3072 --json $OUT/h100_exhaustive_target3_135b.json > $OUT/tune_135b.txt 2>&1
echo "tune rc=$? after $(( $(date +%s) - t0 )) s"; tail -5 $OUT/tune_135b.txt
AUTOGEMM_DB=/tmp/x.sqlite3 $B/gemm-tune export --format csv --output /tmp/x.csv 2>&1 | tail -1
xz -c /tmp/x.csv > $OUT/h100_exhaustive_target3_135b.csv.xz
python3 - <<'PY'
import csv
rows=list(csv.DictReader(open('/tmp/x.csv')))
by={}
for r in rows:
    if r['measurement_check_passed']!='1': continue
    by.setdefault((r['problem_m'],r['problem_n'],r['problem_k']),[]).append((float(r['measurement_median_us']),r['candidate_kernel'],r['candidate_splits'],r['candidate_split_mode']))
for p,v in by.items():
    v.sort(); print('==',p,len(v),'candidates')
    for t in v[:8]: print('  %.2f %s %s %s'%t)
    for t in v:
        if 't8x16' in t[1] and '128x128' in t[1] and not 'tma' in t[1]: print('  best 128x128 t8x16: %.2f %s %s %s'%t); break
PY

# ===== call_136 (.carry/m136/run.sh; block_timeline and ffma_ceiling carried xz-compressed)
#!/usr/bin/env bash
# Call 136: measurement 136: ncu warp states (WarpStateStats) of the long-K winners (block_timeline
# profile: one launch each after the flush) and of experiment 134's variants (a)-(c).
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/m136; mkdir -p $B
for f in block_timeline ffma_ceiling; do xz -dc .carry/m136/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
S="--section WarpStateStats --section SchedulerStats --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio"
timeout 200 ncu $S --kernel-name regex:simt_sgemm_kernel --launch-count 2 $B/block_timeline profile > $OUT/h100_ncu_warpstates_winners_136.txt 2>&1
echo "winners rc=$?"
for skip in 0 28 56; do
  timeout 100 ncu $S --kernel-name regex:ffma_kernel --launch-skip $skip --launch-count 1 $B/ffma_ceiling >> $OUT/h100_ncu_warpstates_ceiling_136.txt 2>&1
  echo "ceiling skip $skip rc=$?"
done
for f in $OUT/h100_ncu_warpstates_*_136.txt; do grep -E "simt_sgemm_kernel|ffma_kernel<|Issued Warp|Warp Cycles Per Issued|Eligible Warps|issue_stalled" $f | awk '!(/issue_stalled/ && $NF+0 < 0.05)' | cut -c1-140; done

# ===== call_137 (review: the tools after global_ns moved into experiment_timing.hpp; binaries under .carry/r137)
set -u; for f in block_timeline ffma_ceiling; do xz -dc .carry/r137/$f.xz > /tmp/$f; chmod +x /tmp/$f; done; nvidia-smi --query-gpu=name,uuid --format=csv,noheader; /tmp/ffma_ceiling 2>&1 | tee $OUT/h100_ffma_ceiling_137.txt; echo "rc=$?"; timeout 200 /tmp/block_timeline controls 2>&1 | tee $OUT/h100_controls_137.txt; echo "rc=$?"
