# Device calls 122 to 133 (session of 2026-11-26 (4)); binaries carried under .carry/c122 and .carry/c124 (block_timeline,
# block_timeline_l2pf, reduce_variants: stripped tools), .carry/v124x, .carry/ab124, .carry/v130, .carry/t131, .carry/v132, .carry/ab132 and .carry/t133 (xz-compressed stripped
# gemm-tune and autogemm_gpu_tests, decompressed on the device to stay under the 64 MiB carry).

# ===== call 122a (the command line of the run tool)
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $OUT/gpu_122.txt
.carry/c122/block_timeline target3 > $OUT/h100_block_timeline_target3_122.txt 2>&1
.carry/c122/reduce_variants > $OUT/h100_reduce_variants_122.txt 2>&1

# ===== call 122b (the same block_timeline with the controls: empty kernel, plain read)
.carry/c122/block_timeline target3 > $OUT/h100_block_timeline_target3_122b.txt 2>&1

# ===== call_123 (run123.sh)
#!/bin/bash
# Call 123: measurement 122's timeline rerun with the C check, then experiment 123 (deeper pipelines).
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader > $OUT/gpu_123.txt
CUOBJ=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/cuobjdump'))" 2>/dev/null)
[ -x "$CUOBJ" ] && $CUOBJ --dump-resource-usage .carry/c122/block_timeline > $OUT/resources_123.txt 2>&1
.carry/c122/block_timeline skinny_stages > $OUT/h100_skinny_stages_123.txt 2>&1; echo "skinny rc=$?"
.carry/c122/block_timeline target3 > $OUT/h100_block_timeline_target3_123.txt 2>&1; echo "target3 rc=$?"
cat $OUT/gpu_123.txt
grep -E "REG|Function" $OUT/resources_123.txt | grep -B1 -E "STACK:[1-9]|LOCAL:[1-9]" | head
for f in h100_skinny_stages_123.txt h100_block_timeline_target3_123.txt; do
  grep -E "^[0-9]|SM clock|event|C against|controls|WRONG" $OUT/$f | sed -E 's/: [0-9]+ tiles x.*launch median/: launch/'
done

# ===== call_123b (run123b.sh)
#!/bin/bash
# Call 123b: the controls with the GEMM-order reads, then the narrow tiles with cp.async L2::256B.
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader > $OUT/gpu_123b.txt
.carry/c122/block_timeline controls > $OUT/h100_controls_123b.txt 2>&1; echo "controls rc=$?"
.carry/c122/block_timeline_l2pf skinny_stages > $OUT/h100_skinny_stages_l2pf_123b.txt 2>&1; echo "l2pf rc=$?"
.carry/c122/block_timeline skinny_stages > $OUT/h100_skinny_stages_123b.txt 2>&1; echo "base rc=$?"
cat $OUT/gpu_123b.txt; cat $OUT/h100_controls_123b.txt
for f in h100_skinny_stages_l2pf_123b.txt h100_skinny_stages_123b.txt; do echo "== $f"
  grep -E "^[0-9]|SM clock|event|WRONG" $OUT/$f | sed -E 's/: [0-9]+ tiles x.*launch median.*//; s/SM clock ([0-9]+) MHz; span \(first start to last end\) median/span/; s/; busiest.*//; s/event-timed medians of 25 after the flush://'
done

# ===== call_124
#!/usr/bin/env bash
# Call 124: change 124's build (the split-sharing reduction for small outputs of many splits): the GPU
# suite, memcheck of the covering subset, selfcheck, the reduction tool.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v124; mkdir -p $B; for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v124x/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests --gtest_filter='SplitkReduce*' \
  --gtest_brief=1 > $OUT/racecheck_reduce.txt 2>&1; echo "racecheck (reduction test) rc=$?"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck_reduce.txt
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
.carry/v124x/reduce_variants > $OUT/h100_reduce_variants_124.txt 2>&1; echo "reduce_variants rc=$?"
grep -E "^128x128|^256x256 +32|every|SOME" $OUT/h100_reduce_variants_124.txt | grep -E "library|warps4|idx32_u8|every|SOME"

# ===== call_124b
#!/usr/bin/env bash
# Call 124b: change 124 against change 121 on one unit, both with call 121b's table: this gemm-tune
# (new) and change 121's (old), alternating, the seed set twice each.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
S=/tmp/ab124; mkdir -p $S
for v in new old; do xz -dc .carry/ab124/gemm-tune-$v.xz > $S/gemm-tune-$v; chmod +x $S/gemm-tune-$v; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in new old; do $S/gemm-tune-$v import --db /tmp/$v.sqlite3 /tmp/t121.csv > /dev/null; done
for r in 1 2; do
  for v in new old; do
    echo "=== run $r $v $(date +%T)"
    AUTOGEMM_DB=/tmp/$v.sqlite3 $S/gemm-tune-$v bench --set seed --json $OUT/h100_bench_seed_${v}_r${r}_124b.json | tail -n +2
  done
done

# ===== call_124c (experiment 125: block_timeline built with docs/results/narrow_sliced_tiles_experiment125.patch applied)
#!/bin/bash
# Call 124c: experiment 124, the narrow tiles sliced in K (block_timeline skinny_slices).
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader > $OUT/gpu_124c.txt
CUOBJ=$(python3 -c "import triton,os;print(os.path.join(os.path.dirname(triton.__file__),'backends/nvidia/bin/cuobjdump'))" 2>/dev/null)
[ -x "$CUOBJ" ] && $CUOBJ --dump-resource-usage .carry/c124/block_timeline > $OUT/resources_124c.txt 2>&1
.carry/c124/block_timeline skinny_slices > $OUT/h100_skinny_slices_124c.txt 2>&1; echo "rc=$?"
cat $OUT/gpu_124c.txt
grep -A1 "Function.*ConfigTagILi128ELi\(16\|32\)E" $OUT/resources_124c.txt | grep -o "REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*" | sort | uniq -c
grep -E "^[0-9]|SM clock|event|C against" $OUT/h100_skinny_slices_124c.txt | sed -E 's/: [0-9]+ tiles x/:/; s/ blocks, launch median.*/ blocks/; s/SM clock ([0-9]+) MHz; span \(first start to last end\) median/span/; s/; busiest SM.s FFMAs alone/; ffma/; s/; main loop median.*//; s/event-timed medians of 25 after the flush://; s/C against float64: worst/err/'

# ===== call_126 (experiment 126)
#!/bin/bash
# Call 126: experiment 126, the long-K shapes at more splits (block_timeline longk_splits).
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader > $OUT/gpu_126.txt
.carry/c124/block_timeline longk_splits > $OUT/h100_longk_splits_126.txt 2>&1; echo "rc=$?"
cat $OUT/gpu_126.txt
grep -E "^[0-9]|SM clock|event|C against" $OUT/h100_longk_splits_126.txt | sed -E 's/: [0-9]+ tiles x/:/; s/ blocks, launch median.*/ blocks/; s/SM clock ([0-9]+) MHz; span \(first start to last end\) median/span/; s/; busiest SM.s FFMAs alone/; ffma/; s/; main loop median/; loop/; s/, block median.*//; s/event-timed medians of 25 after the flush://; s/C against float64: worst/err/'

# ===== call_127 (measurement 127)
#!/bin/bash
# Call 127: measurement 127, Nsight Compute of target 3's long-K winners and the 16-row winner
# (block_timeline profile: one launch each after the memset flush; clocks and caches left alone).
set -u
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader | tee $OUT/gpu_127.txt
timeout 300 ncu --clock-control none --cache-control none -k regex:simt_sgemm_kernel -c 3 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats \
  --section WarpStateStats --section MemoryWorkloadAnalysis --section InstructionStats --section SourceCounters \
  .carry/c124/block_timeline profile > $OUT/h100_ncu_target3_127.txt 2>&1; echo "ncu rc=$?"
grep -E "simt_sgemm_kernel<|Duration|Compute \(SM\) Throughput|Memory Throughput|DRAM Throughput|Achieved Occupancy|Active Warps Per Scheduler|Eligible Warps|Issued Warp Per Scheduler|No Eligible|Warp Cycles Per Issued|Registers Per|L1/TEX Hit|L2 Hit|Mem Pipes Busy|Executed Ipc A" $OUT/h100_ncu_target3_127.txt | sed -E 's/ +/ /g' | cut -c1-150

# ===== call_127b (measurement 127's source view)
#!/bin/bash
# Call 127b: which instructions of the sliced 64x64 tile (128x128x32768, 64 splits) move the excess
# global sectors and shared wavefronts of measurement 127 (ncu's source view, SASS).
set -u
timeout 300 ncu --clock-control none --cache-control none -k regex:simt_sgemm_kernel -s 1 -c 1 \
  --section SourceCounters --page source --print-source sass --csv \
  .carry/c124/block_timeline profile > $OUT/h100_ncu_source_128x128_127b.csv 2> $OUT/ncu_err.txt; echo "ncu rc=$?"
python3 - "$OUT/h100_ncu_source_128x128_127b.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr_i = next(i for i, r in enumerate(rows) if any('Source' == c or c.startswith('Source') for c in r) and len(r) > 5)
hdr = rows[hdr_i]
print("columns:", [c for c in hdr if 'xcess' in c or 'Sectors' in c or 'Wavefront' in c or c in ('Address', 'Source')][:20])
want = [i for i, c in enumerate(hdr) if 'Excessive' in c or c in ('L2 Theoretical Sectors Global', 'L1 Wavefronts Shared', 'L1 Wavefronts Shared Ideal')]
src = hdr.index('Source') if 'Source' in hdr else 1
for r in rows[hdr_i + 1:]:
    if len(r) != len(hdr): continue
    vals = [r[i] for i in want]
    if any(v not in ('', '0') for v in [r[i] for i in want if 'Excessive' in hdr[i]]):
        print(r[0], r[src][:70], {hdr[i]: r[i] for i in want})
PY

# ===== call_128 (experiment 128; block_timeline_swz built with docs/results/kmajor_swizzle_experiment128.patch applied)
#!/bin/bash
# Call 128: experiment 128, K-major shared tiles padded (block_timeline) against swizzled
# (block_timeline_swz), alternating, two rounds each.
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader | tee $OUT/gpu_128.txt
for r in 1 2; do for v in block_timeline block_timeline_swz; do
  .carry/c124/$v kmajor > $OUT/h100_kmajor_${v}_r${r}_128.txt 2>&1; echo "$v r$r rc=$?"
done; done
for r in 1 2; do for v in block_timeline block_timeline_swz; do echo "== $v r$r"
  grep -E "^[0-9]|SM clock|event|C against" $OUT/h100_kmajor_${v}_r${r}_128.txt | sed -E 's/: [0-9]+ tiles x.*//; s/SM clock ([0-9]+) MHz; span \(first start to last end\) median/span/; s/; busiest SM.s FFMAs alone.*//; s/event-timed medians of 25 after the flush://; s/C against float64: worst/err/' | paste - - - - 
done; done

# ===== call_129 (experiment 129)
#!/bin/bash
# Call 129: experiment 129, GEMM launches as programmatic dependents (block_timeline pdl), twice.
set -u
nvidia-smi --query-gpu=name,uuid,clocks.sm --format=csv,noheader | tee $OUT/gpu_129.txt
for r in 1 2; do .carry/c124/block_timeline pdl > $OUT/h100_pdl_r${r}_129.txt 2>&1; echo "r$r rc=$?"; cat $OUT/h100_pdl_r${r}_129.txt; done

# ===== call_130
#!/usr/bin/env bash
# Call 130: change 130 (every GEMM launch a programmatic dependent of the kernel before it): the GPU
# suite, memcheck of the covering subset, selfcheck; gemm-tune overhead (back-to-back calls) with and
# without AUTOGEMM_PDL_GEMM, alternating; the seed benchmark with and without it.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v130; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v130/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 1 $B/autogemm_gpu_tests --gtest_filter='SgemmApiTest.Reads*' \
  --gtest_brief=1 > $OUT/racecheck_api.txt 2>&1; echo "racecheck (new API test) rc=$?"; grep -E "PASSED|FAILED|RACECHECK SUMMARY" $OUT/racecheck_api.txt
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv; $B/gemm-tune import --db /tmp/t.sqlite3 /tmp/t121.csv > /dev/null
export AUTOGEMM_DB=/tmp/t.sqlite3
for shape in 64,64,64 256,256,256; do for r in 1 2; do for v in 1 0; do
  echo "=== overhead $shape r$r AUTOGEMM_PDL_GEMM=$v"
  AUTOGEMM_PDL_GEMM=$v $B/gemm-tune overhead --shape $shape --calls 20000 --json $OUT/h100_overhead_${shape//,/x}_pdl${v}_r${r}_130.json | tail -2
done; done; done
for v in 1 0; do echo "=== bench seed AUTOGEMM_PDL_GEMM=$v"
  AUTOGEMM_PDL_GEMM=$v $B/gemm-tune bench --set seed --json $OUT/h100_bench_seed_pdl${v}_130.json | tail -n +2 | awk '{print $1, $6, $8, $10}'
done

# ===== call_130b
#!/usr/bin/env bash
# Call 130b: the seed benchmark with and without AUTOGEMM_PDL_GEMM, alternating, twice each (call
# 130 ran them once, with-first, and both libraries ran slower in the first process).
set -u
B=/tmp/v130; mkdir -p $B
for f in gemm-tune; do xz -dc .carry/v130/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv; $B/gemm-tune import --db /tmp/t.sqlite3 /tmp/t121.csv > /dev/null
export AUTOGEMM_DB=/tmp/t.sqlite3
for r in 1 2; do for v in 0 1; do echo "=== bench seed r$r AUTOGEMM_PDL_GEMM=$v"
  AUTOGEMM_PDL_GEMM=$v $B/gemm-tune bench --set seed --json $OUT/h100_bench_seed_pdl${v}_r${r}_130b.json | tail -n +2 | awk '{print $1, $6, $8, $10}'
done; done

# ===== call_130c (block_timeline after TargetProblem::params: target3, profile, pdl; same errors bit for bit as calls 123 and 129)
#!/bin/bash
# Call 130c: block_timeline after its launch parameters were written once (TargetProblem::params):
# target3, profile and pdl rerun, to compare with calls 123, 127 and 129.
set -u
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
.carry/c124/block_timeline target3 > $OUT/h100_block_timeline_target3_130c.txt 2>&1; echo "target3 rc=$?"
.carry/c124/block_timeline profile; echo "profile rc=$?"
.carry/c124/block_timeline pdl > $OUT/h100_pdl_130c.txt 2>&1; echo "pdl rc=$?"
grep -E "^[0-9]|event-timed|C against" $OUT/h100_block_timeline_target3_130c.txt | sed -E 's/: [0-9]+ tiles x.*//; s/event-timed medians of 25 after the flush://; s/C against float64: worst/err/' | paste - - -
cat $OUT/h100_pdl_130c.txt

# ===== call 131 (the command line of the run tool; binary: the GPU tests of this tree, xz-compressed under .carry/t131)
B=/tmp/t131; mkdir -p $B; xz -dc .carry/t131/autogemm_gpu_tests.xz > $B/g; chmod +x $B/g; nvidia-smi --query-gpu=name,uuid --format=csv,noheader; $B/g --gtest_filter='SgemmApiTest.*:SplitkReduce*' --gtest_brief=1 2>&1 | tail -8; AUTOGEMM_TEST_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 1 $B/g --gtest_filter='SgemmApiTest.Reads*' --gtest_brief=1 2>&1 | tail -3; $B/g --gtest_brief=1 2>&1 | tail -3

# ===== call_132
#!/usr/bin/env bash
# Call 132: change 132 (GEMV kernels wait at entry and launch as programmatic dependents): the GPU
# suite, memcheck of the covering subset, selfcheck; back-to-back GEMV calls (gemm-tune overhead)
# with and without AUTOGEMM_PDL_GEMM, alternating.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
B=/tmp/v132; mkdir -p $B
for f in autogemm_gpu_tests gemm-tune; do xz -dc .carry/v132/$f.xz > $B/$f; chmod +x $B/$f; done
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader
t0=$(date +%s)
$B/autogemm_gpu_tests --gtest_brief=1 > $OUT/gpu_tests.txt 2>&1; echo "gpu suite rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|FAILED" $OUT/gpu_tests.txt | head -12
t0=$(date +%s)
AUTOGEMM_TEST_SANITIZER=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 1 $B/autogemm_gpu_tests \
  --gtest_brief=1 > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$? after $(( $(date +%s) - t0 )) s"
grep -E "tests from|PASSED|SKIPPED \]|FAILED|ERROR SUMMARY" $OUT/memcheck.txt | tail -5
rm -f /tmp/sc.sqlite3; AUTOGEMM_DB=/tmp/sc.sqlite3 $B/gemm-tune selfcheck 2>&1 | tail -1
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv; $B/gemm-tune import --db /tmp/t.sqlite3 /tmp/t121.csv > /dev/null
export AUTOGEMM_DB=/tmp/t.sqlite3
for shape in 1,1024,1024 4,1024,1024; do for r in 1 2; do for v in 1 0; do
  echo "=== overhead $shape r$r AUTOGEMM_PDL_GEMM=$v"
  AUTOGEMM_PDL_GEMM=$v $B/gemm-tune overhead --shape $shape --calls 20000 | tail -2
done; done; done

# ===== call_132b
#!/usr/bin/env bash
# Call 132b: change 132's gemm-tune (new) against change 130's (old), both with change 121's table,
# alternating, the seed set twice each.
set -u
S=/tmp/ab132; mkdir -p $S
for v in new old; do xz -dc .carry/ab132/gemm-tune-$v.xz > $S/gemm-tune-$v; chmod +x $S/gemm-tune-$v; done
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
xz -dc docs/results/h100_tuning_table_121.csv.xz > /tmp/t121.csv
for v in new old; do $S/gemm-tune-$v import --db /tmp/$v.sqlite3 /tmp/t121.csv > /dev/null; done
for r in 1 2; do for v in new old; do echo "=== run $r $v"
  AUTOGEMM_DB=/tmp/$v.sqlite3 $S/gemm-tune-$v bench --set seed --json $OUT/h100_bench_seed_${v}_r${r}_132b.json | tail -n +2 | awk '{print $1, $6, $8, $10}'
done; done

# ===== call 133 (the command line of the run tool; binary: the GPU tests of this tree, xz-compressed under .carry/t133)
B=/tmp/t133; mkdir -p $B; xz -dc .carry/t133/autogemm_gpu_tests.xz > $B/g; chmod +x $B/g; $B/g --gtest_filter='SgemmApiTest.Reads*'; AUTOGEMM_TEST_SANITIZER=1 compute-sanitizer --tool memcheck --error-exitcode 1 $B/g --gtest_filter='SgemmApiTest.Reads*' --gtest_brief=1; $B/g --gtest_brief=1
# printed: 1 test passed; under memcheck 1 passed, ERROR SUMMARY: 0 errors; 829 tests passed (unit GPU-999b028a-d8b0-5f38-f712-ac5838c238db)
