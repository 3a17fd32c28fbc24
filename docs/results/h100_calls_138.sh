# Device calls 138 to 138d (session of 2026-11-26 (6)): experiment 138, block_timeline carried stripped under .carry/e138.
# Call 138 ran the tool's first variant list, 138b (on an H200) and 138c the second, 138d the third (the read flush fixed)
# with the argument 'read'. Each call's command line: bash .carry/e138/run.sh

# ===== call_138d (.carry/e138/run.sh; calls 138-138c differ in the output file name and the missing 'read')
#!/usr/bin/env bash
# Calls 138 (H100), 138b (H200), 138c (H100): block_timeline l2_prefetch; call 138d (H100): `l2_prefetch read`, the read-flush part alone after its flush was fixed. Experiment 138:
# the big operand prefetched into L2 by cp.async.bulk.prefetch at each block's start.
set -u
L=$OUT/log.txt
exec > >(tee -a $L) 2>&1
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.current.sm,power.draw,temperature.gpu --format=csv
chmod +x .carry/e138/block_timeline
timeout 300 .carry/e138/block_timeline l2_prefetch read > $OUT/h100_l2_prefetch_138d.txt 2>&1; echo "rc=$?"
grep -E "^round|event|span \(first|event-timed|C against|^[0-9]+x|round [0-9]:" $OUT/h100_l2_prefetch_138d.txt
