# Device calls 145 and 145b (session of 2026-11-26 (7)): experiment 145, error-compensated TF32 tensor
# cores on target 3's shapes. The tool was built here (build/h100c, target tf32x3_bound: sm_90a) and
# carried stripped under .carry/tf32; the two calls ran the same command on two H100 units, the second
# with the per-k-tile promotion variants added.

# ===== call 145 and call 145b (command line)
nvidia-smi --query-gpu=name,uuid,driver_version --format=csv,noheader > $OUT/gpu.txt; cat $OUT/gpu.txt
./.carry/tf32/tf32x3_bound 2>&1 | tee $OUT/tf32x3_bound_145.txt   # 145b: $OUT/tf32x3_bound_145b.txt
