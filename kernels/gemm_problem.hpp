// What every kernel family is asked to run and what it needs for it: one GEMM call (column-major,
// cuBLAS semantics), the device's limits, the split of K, and the workspace. The family contract
// (family.hpp), the runtime and the tuner all speak these types.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gemm_params.hpp"
#include "kernel_config.hpp"

namespace autogemm {

/// One GEMM call, column-major, cuBLAS semantics.
/// The operands' element types are `types` (FP32 families read them through f32_a() ...).
struct GemmProblem {
  Op op_a = Op::N, op_b = Op::N;
  int m = 0, n = 0, k = 0;
  const void* a = nullptr;
  int64_t lda = 0;
  const void* b = nullptr;
  int64_t ldb = 0;
  void* c = nullptr;
  int64_t ldc = 0;
  float alpha = 1.0f, beta = 0.0f;
  GemmTypes types{};  // element and compute types (autogemmSgemm: FP32 throughout)
  /// C's element (i, j) lies at c[j + i·ldc]: this is the transpose of the caller's problem
  /// (transposed_problem), which a GEMV instance runs for an output at most 4 rows tall.
  bool c_transposed = false;

  const float* f32_a() const { return static_cast<const float*>(a); }
  const float* f32_b() const { return static_cast<const float*>(b); }
  float* f32_c() const { return static_cast<float*>(c); }
};

/// The same product as its transpose: C = op(A)·op(B) is (op(B)ᵀ·op(A)ᵀ)ᵀ, so the problem with m and
/// n swapped, B as A and A as B (each with the other op) and C read through c_transposed writes the
/// same elements of the same C.
inline GemmProblem transposed_problem(const GemmProblem& p) {
  GemmProblem t = p;
  auto flip = [](Op op) { return op == Op::N ? Op::T : Op::N; };
  t.op_a = flip(p.op_b), t.op_b = flip(p.op_a);
  t.m = p.n, t.n = p.m;
  t.a = p.b, t.lda = p.ldb;
  t.b = p.a, t.ldb = p.lda;
  t.c_transposed = !p.c_transposed;
  return t;
}

/// Whether an operand allows 16-byte vector loads (and TMA's rows): a 16-byte aligned base and a
/// leading dimension of a multiple of 16 bytes (4 floats, 8 16-bit elements).
inline bool vector_aligned(const void* base, int64_t ld, int element_bytes = 4) {
  return reinterpret_cast<uintptr_t>(base) % 16 == 0 && ld * element_bytes % 16 == 0;
}

/// Elements of A's and B's type in 16 bytes (4 for FP32, 8 for BF16/FP16) when A and B allow
/// 16-byte vector loads, else 1. The alignment class is part of the tuning key.
/// (GEMV instances need only A aligned, so an align4 GEMV may serve a scalar-class problem.)
inline int alignment_class(const GemmProblem& p) {
  const int bytes = data_type_bytes(p.types.a);
  return vector_aligned(p.a, p.lda, bytes) && vector_aligned(p.b, p.ldb, bytes) ? 16 / bytes : 1;
}

/// What the instances' alignment rules read of a problem, finer than its class: whether A's, B's and
/// C's bases are 16-byte aligned and their leading dimensions multiples of 16 bytes, one bit each.
/// Within a class the instances that run differ by it: a GEMV align4 instance needs only A aligned,
/// a residue instance A's base aligned with any lda, a wgmma instance C aligned too. A choice cached
/// for one pattern must not run another (a GEMV align4 choice made for an aligned A then read an
/// unaligned one with float4 loads).
inline int alignment_pattern(const GemmProblem& p) {
  auto base16 = [](const void* x) { return reinterpret_cast<uintptr_t>(x) % 16 == 0; };
  const int ab = data_type_bytes(p.types.a), c = data_type_bytes(p.types.c);
  return (base16(p.a) ? 1 : 0) | (p.lda * ab % 16 == 0 ? 2 : 0) | (base16(p.b) ? 4 : 0) |
         (p.ldb * ab % 16 == 0 ? 8 : 0) | (base16(p.c) ? 16 : 0) | (p.ldc * c % 16 == 0 ? 32 : 0);
}

/// What the device offers a kernel, read once per handle.
struct DeviceLimits {
  int device = 0;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int max_shared_per_block_optin = 0;
  int l2_bytes = 0;
};

/// A run-time choice on top of an instance: how K is split.
struct SplitChoice {
  int splits = 1;
  SplitKMode mode = SplitKMode::kNone;
};

/// Which split-k reductions a caller considers: the tuner measures both; the untuned choice asks for
/// parallel only (the model cannot see the serial chain's stalls).
enum class SplitModes { kAll, kParallelOnly };

/// K elements per split (a multiple of BK) and the number of non-empty splits it gives.
struct SplitGeometry {
  int k_per_split = 0;
  int splits = 1;
};
SplitGeometry split_geometry(const KernelConfig& c, int k, int requested_splits);
/// Columns of K a residue instance's planes cover: all but the last, whose 16-byte copy could end
/// past the caller's allocation of A; the reduction adds that column's product (launch_residue_reduce).
constexpr int residue_k(int k) { return k > 1 ? k - 1 : 0; }
/// Columns of K one residue's splits divide; the launch geometry and the tuner's split candidates
/// both use it. Residues of K: the largest residue of the first k - 1 columns (residue 0 of
/// kResidues). Residues of M (of_m): k + 3, for a residue's columns start up to 3 early
/// (residue_problem in simt_sgemm_multistage.cuh).
constexpr int residue_columns(int k, bool of_m) {
  return of_m ? k + kResidues - 1 : (residue_k(k) + kResidues - 1) / kResidues;
}
/// The same for a residue instance (KernelConfig::residues) on a problem of depth k: the splits of
/// one residue (its residue_columns columns, requested_splits / 4 splits), and 4 times as many
/// planes in all.
SplitGeometry residue_split_geometry(const KernelConfig& c, int k, int requested_splits);
/// Rows of an instance's tile grid, and of each of its split-k planes before rounding
/// (partial_ld), on a problem of m rows: m, or residue_rows for a residue instance. The kernel and
/// its launch (simt_sgemm_multistage.cuh) spell the same out.
constexpr int grid_rows(const KernelConfig& c, int m) {
  return c.residues > 1 ? residue_rows(m, c.residues_of_m()) : m;
}
/// Output tiles of an instance's grid (per split).
constexpr long grid_tiles(const KernelConfig& c, int m, int n) {
  return long{(grid_rows(c, m) + c.bm - 1) / c.bm} * ((n + c.bn - 1) / c.bn);
}

/// Workspace of a launch: partial sums (kParallel; a TMA launch's streamed tail), per-tile semaphores
/// (kSerial, the streamed tail; zeroed once) and the repacked operands (RepackPlan).
struct Workspace {
  float* partials = nullptr;
  size_t partial_bytes = 0;
  int* semaphores = nullptr;
  size_t semaphore_count = 0;
  float* repacked = nullptr;  // 256-byte aligned
  size_t repack_bytes = 0;
};
struct WorkspaceNeeds {
  size_t partial_bytes = 0;
  size_t semaphore_count = 0;
  size_t repack_bytes = 0;
  // The partials and semaphores are a streamed tail's slots and counters (a TMA launch in kNone
  // mode, StreamKTail): a workspace without them runs the launch without the tail.
  bool streamk_optional = false;
};
/// `needs` less a streamed tail's optional slots and counters: what a launch cannot run without.
inline WorkspaceNeeds required_part(WorkspaceNeeds needs) {
  if (needs.streamk_optional) needs.partial_bytes = 0, needs.semaphore_count = 0, needs.streamk_optional = false;
  return needs;
}

}  // namespace autogemm
