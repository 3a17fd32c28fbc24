#!/usr/bin/env bash
# Runs the GPU validation of a build on a machine with a GPU and writes every log under OUT_DIR:
#   the whole GPU suite, compute-sanitizer memcheck and racecheck over the covering subset
#   (every layout, alignment class, stage count and split-k path; memcheck also runs the
#   tight-allocation fuzz test, 500 random problems whose operands end where their allocations
#   end, and the wgmma subset, one instance per types, layout and schedule; racecheck the FP32
#   subset only: under racecheck a CUTLASS instance's cases take minutes, three of them ran past
#   the device's 10-minute call on the H100), gemm-tune selfcheck, and the seed-shape benchmark against cuBLAS as JSON.
#   tune: the seed shapes tuned from an empty database (wall time measured), then the seed benchmark
#   with that database; exhaustive: the seed shapes with --exhaustive into a scratch database.
# Usage: tools/gpu_validation.sh BUILD_DIR OUT_DIR [steps...]
#   overhead: host time per call of a 64^3 GEMM against cuBLAS; untuned: the seed shapes tuned in
#   all layouts, then tools/untuned_problems.csv benchmarked through the untuned choice;
#   untuned_exhaustive: the same problems tuned --exhaustive (--shape-time $UNTUNED_SHAPE_TIME, 12 s).
#   perf (after tune): the perf set (4096^3 and odd sizes) tuned in all four layouts into the tune
#   step's database, then benchmarked with it; profile (after tune): Nsight Compute sections of the
#   tuned 3072^3 kernel; stream: tools/experiments/stream_read.cu, the streaming-read floor of a GEMV;
#   skinny: tools/experiments/skinny_stream.cu, narrow outputs streamed past a shared-memory copy of B;
#   tensor_cores: tools/experiments/tensor_core_bound.cu, cuBLAS TF32 against pedantic FP32 (stream,
#   skinny and tensor_cores need a build with -DAUTOGEMM_BUILD_EXPERIMENTS=ON).
#   steps: info tests sanitize selfcheck bench tune exhaustive overhead untuned untuned_exhaustive
#   perf profile stream skinny tensor_cores (default: the first five)
# Ends by writing OUT_DIR/validation.txt, a line per check that ran (GPU suite, sanitizers, selfcheck);
#   copied to docs/results/h100_validation.txt, tools/perf_report.py puts it in docs/performance.md.
set -uo pipefail
build=${1:?build dir}
out=${2:?output dir}
shift 2
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(info tests sanitize selfcheck bench)
mkdir -p "$out"
status=0
declare -A rcs  # exit status per log name, for validation.txt
run() {  # run NAME COMMAND...: log to OUT/NAME.log, remember failures
  local name=$1
  shift
  echo "=== $name: $*"
  local t0=$SECONDS
  "$@" >"$out/$name.log" 2>&1
  local rc=$?
  rcs[$name]=$rc
  echo "=== $name: rc=$rc in $((SECONDS - t0)) s"
  tail -n 5 "$out/$name.log"
  [ $rc -eq 0 ] || status=1
}
for step in "${steps[@]}"; do
  case $step in
    info)
      run info bash -c "nvidia-smi; $build/tools/gemm-tune devices; $build/tools/gemm-tune kernels" ;;
    tests)
      run gpu_tests "$build/tests/autogemm_gpu_tests" --gtest_brief=1 ;;
    sanitize)
      export AUTOGEMM_TEST_SANITIZER=1
      run memcheck compute-sanitizer --tool memcheck --error-exitcode 1 "$build/tests/autogemm_gpu_tests" --gtest_brief=1
      run racecheck compute-sanitizer --tool racecheck --error-exitcode 1 "$build/tests/autogemm_gpu_tests" \
        --gtest_brief=1 --gtest_filter='SimtSgemm/*'
      unset AUTOGEMM_TEST_SANITIZER ;;
    selfcheck)
      run selfcheck "$build/tools/gemm-tune" selfcheck ;;
    bench)
      run bench "$build/tools/gemm-tune" bench --set seed --json "$out/bench_seed.json" ;;
    tune)
      rm -f "$out/tuned.sqlite3"
      run tune bash -c "time '$build/tools/gemm-tune' tune --set seed --db '$out/tuned.sqlite3' --json '$out/tune_seed.json'"
      AUTOGEMM_DB="$out/tuned.sqlite3" run bench_tuned "$build/tools/gemm-tune" bench --set seed \
        --json "$out/bench_seed_tuned.json"
      # A read-write open closes last, folding the WAL into the file: the database comes back whole.
      "$build/tools/gemm-tune" db check --db "$out/tuned.sqlite3" >>"$out/tune.log" 2>&1 ;;
    perf)
      run tune_perf "$build/tools/gemm-tune" tune --set perf --layout all --db "$out/tuned.sqlite3" \
        --json "$out/tune_perf.json" --quiet
      AUTOGEMM_DB="$out/tuned.sqlite3" run bench_perf "$build/tools/gemm-tune" bench --set perf --layout all \
        --json "$out/bench_perf_tuned.json"
      "$build/tools/gemm-tune" db check --db "$out/tuned.sqlite3" >>"$out/tune_perf.log" 2>&1 ;;
    profile)
      AUTOGEMM_DB="$out/tuned.sqlite3" run profile ncu --kernel-name regex:simt_sgemm --launch-skip 2 --launch-count 1 \
        --section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats --section Occupancy \
        --section LaunchStats --section MemoryWorkloadAnalysis \
        "$build/tools/gemm-tune" bench --shape 3072,3072,3072 --max-reps 3 ;;
    stream)
      run stream_read "$build/tools/experiments/stream_read" ;;
    skinny)
      run skinny_stream "$build/tools/experiments/skinny_stream" ;;
    tensor_cores)
      run tensor_core_bound "$build/tools/experiments/tensor_core_bound" ;;
    overhead)
      run overhead "$build/tools/gemm-tune" overhead --json "$out/overhead.json" ;;
    untuned)
      # Seed shapes tuned in all four layouts, then problems nobody tuned, served by the untuned choice.
      rm -f "$out/seed_all.sqlite3"
      run tune_all "$build/tools/gemm-tune" tune --set seed --layout all --db "$out/seed_all.sqlite3" \
        --json "$out/tune_seed_all.json" --quiet
      AUTOGEMM_DB="$out/seed_all.sqlite3" run untuned_bench "$build/tools/gemm-tune" bench \
        --shapes tools/untuned_problems.csv --json "$out/bench_untuned.json"
      rm -f "$out/seed_all.sqlite3"* ;;
    untuned_exhaustive)
      rm -f "$out/untuned_exhaustive.sqlite3"
      run untuned_exhaustive "$build/tools/gemm-tune" tune --shapes tools/untuned_problems.csv --exhaustive \
        --shape-time "${UNTUNED_SHAPE_TIME:-12}" --db "$out/untuned_exhaustive.sqlite3" \
        --json "$out/tune_untuned_exhaustive.json" --quiet
      rm -f "$out/untuned_exhaustive.sqlite3"* ;;
    exhaustive)
      rm -f "$out/exhaustive.sqlite3"
      run exhaustive "$build/tools/gemm-tune" tune --set seed --exhaustive --shape-time 600 \
        --db "$out/exhaustive.sqlite3" --json "$out/tune_seed_exhaustive.json" --quiet
      rm -f "$out/exhaustive.sqlite3"* ;;
    *)
      echo "unknown step $step" >&2
      status=1 ;;
  esac
done
# The summary: what each check's log ends with (GoogleTest's counts, the sanitizer's verdict,
# selfcheck's count) and its exit status.
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)"
  for name in gpu_tests memcheck racecheck selfcheck; do
    [ -n "${rcs[$name]+set}" ] || continue
    counts=$(grep -oE '^\[  (PASSED|FAILED|SKIPPED) *\] [0-9]+ tests?' "$out/$name.log" |
      sed -E 's/^\[ *([A-Z]+) *\] ([0-9]+).*/\2 \L\1/' | paste -sd, - | sed 's/,/, /g')
    verdict=$(grep -oE '(ERROR|RACECHECK) SUMMARY: .*|^[0-9]+ passed, [0-9]+ failed' "$out/$name.log" | tail -n 1)
    echo "$name: ${counts:+$counts; }${verdict:+$verdict; }exit status ${rcs[$name]}"
    fuzz=$(grep -oE '^\[ fuzz +\] .*' "$out/$name.log" | sed -E 's/^\[ fuzz +\] //' | tail -n 1)
    [ -z "$fuzz" ] || echo "$name, tight-allocation fuzz: $fuzz"
  done
} >"$out/validation.txt"
cat "$out/validation.txt"
exit $status
