// See realigned.hpp.
#include "realigned.hpp"

#include "family.hpp"
#include "pad_copy.hpp"
#include "status.hpp"

namespace autogemm {
namespace {

int64_t round_up(int64_t x, int64_t multiple) { return (x + multiple - 1) / multiple * multiple; }

// An operand of `rows` x `cols` stored at `base` with `ld` becomes `new_rows` x `new_cols` of the
// padded problem: copied when misaligned or when it grew.
RealignPlan::Operand plan_operand(const void* base, int64_t ld, int64_t rows, int64_t cols, int64_t new_rows,
                                  int64_t new_cols, int element_bytes, size_t& bytes) {
  RealignPlan::Operand o;
  o.rows = rows, o.cols = cols;
  o.padded_rows = new_rows, o.padded_cols = new_cols;
  if (vector_aligned(base, ld, element_bytes) && new_rows == rows && new_cols == cols) return o;
  o.copied = true;
  // The copy's rows start 128 bytes apart where that lengthens them by at most an eighth, else 16: a
  // TMA box whose rows lie off 128 bytes reads two L2 lines for each 128-byte row. On the H200,
  // 512x512x5000 BF16 `tn` (rows of 10000 bytes) ran 23.9 us on 64x32 ping-pong against 14.1 for
  // 512x512x5120 (10240), and 1.3-1.7x as long on every other tile from 64x16 to 128x128.
  const int64_t row_bytes = new_rows * element_bytes;
  const int64_t row_multiple = round_up(row_bytes, 128) - row_bytes <= row_bytes / 8 ? 128 : 16;
  o.ld = round_up(new_rows, row_multiple / element_bytes);
  o.offset = static_cast<size_t>(round_up(static_cast<int64_t>(bytes), 256));
  bytes = o.offset + static_cast<size_t>(o.ld) * new_cols * element_bytes;
  return o;
}

// Whether the tensor-core kernels take the problem as it is (no copy needed).
bool tma_readable(const GemmProblem& p) {
  const int ab = data_type_bytes(p.types.a), cb = data_type_bytes(p.types.c);
  return vector_aligned(p.a, p.lda, ab) && vector_aligned(p.b, p.ldb, ab) && vector_aligned(p.c, p.ldc, cb) &&
         wgmma_extent_violation(p).empty();
}

// The copy of `o` of the caller's problem (at `src`, `src_ld`) into its planned place at `dst`, `dst_ld`.
PadCopy copy_of(const RealignPlan::Operand& o, void* dst, int64_t dst_ld, const void* src, int64_t src_ld) {
  return PadCopy{dst, dst_ld, o.padded_rows, o.padded_cols, src, src_ld, o.rows, o.cols};
}

}  // namespace

// FP32 operands never run on padded copies: the TF32 and 3xTF32 instances copy A and B K-major
// themselves, their split-K instances write any C through their partials, and the CUDA-core FP32
// kernels serve the problem as it is (padding it cost 127x3001x1531 in fp32_emulated mode 63.0 us
// on a CUDA-core kernel against 43 in place on the H100).
bool runs_on_copies(const GemmProblem& p) { return p.types.a != DataType::kF32 && !tma_readable(p); }

RealignPlan realign_plan(const GemmProblem& p) {
  const int ab = data_type_bytes(p.types.a), cb = data_type_bytes(p.types.c);
  const int vec_ab = 16 / ab;
  RealignPlan plan;
  const bool a_n = p.op_a == Op::N, b_n = p.op_b == Op::N;
  // Each extent that breaks the rule for some operand storing it contiguously rounded up to 16 bytes of
  // A's type (a multiple of C's too).
  plan.m = p.m, plan.n = p.n, plan.k = p.k;
  const WgmmaExtentRule rule = wgmma_extent_rule(p);
  for (const WgmmaExtentRule::Operand& o : {rule.a, rule.b, rule.c}) {
    int& extent = o.extent == 'm' ? plan.m : o.extent == 'n' ? plan.n : plan.k;
    if (extent % o.multiple != 0) extent = static_cast<int>(round_up(extent, vec_ab));
  }
  // A TMA box whose 128-byte rows cross the end of a copied operand's contiguous extent runs slowly:
  // on the H200, 500x500x5000 BF16 `nt` padded to 504x504 (copies 512 apart) ran 23.0 us on 64x64
  // ping-pong against 14.6 for 512x512x5000 in place, 25.5 against 16.0 on 64x32. Where every
  // operand holding an extent grew (and so is copied whatever its address and pitch), an extent a
  // grown A or B stores contiguously is rounded up to 128 bytes, where that lengthens it by at most
  // an eighth (a tile at least 64 wide, or a k-step, covers the added zeros anyway). Growth depends
  // on the shape and layout alone, so a call's padded problem is the one the tuner tuned
  // (problem_as_called), whatever the call's pointers and leading dimensions.
  const int box = 128 / ab;
  auto widen = [&](int& extent, bool stored_contiguously, bool holders_grew) {
    const int64_t wide = round_up(extent, box);
    if (stored_contiguously && holders_grew && wide - extent <= extent / 8) extent = static_cast<int>(wide);
  };
  const bool grew_m = plan.m != p.m, grew_n = plan.n != p.n, grew_k = plan.k != p.k;
  const bool grew_a = grew_m || grew_k, grew_b = grew_n || grew_k, grew_c = grew_m || grew_n;
  widen(plan.m, a_n, grew_a && grew_c);
  widen(plan.n, !b_n, grew_b && grew_c);
  widen(plan.k, !a_n || b_n, grew_a && grew_b);
  plan.a = plan_operand(p.a, p.lda, a_n ? p.m : p.k, a_n ? p.k : p.m, a_n ? plan.m : plan.k, a_n ? plan.k : plan.m, ab,
                        plan.bytes);
  plan.b = plan_operand(p.b, p.ldb, b_n ? p.k : p.n, b_n ? p.n : p.k, b_n ? plan.k : plan.n, b_n ? plan.n : plan.k, ab,
                        plan.bytes);
  plan.c = plan_operand(p.c, p.ldc, p.m, p.n, plan.m, plan.n, cb, plan.bytes);
  return plan;
}

GemmProblem realigned_problem(const GemmProblem& p, const RealignPlan& plan, void* buffer) {
  char* base = static_cast<char*>(buffer);
  GemmProblem q = p;
  q.m = plan.m, q.n = plan.n, q.k = plan.k;
  if (plan.a.copied) q.a = base + plan.a.offset, q.lda = plan.a.ld;
  if (plan.b.copied) q.b = base + plan.b.offset, q.ldb = plan.b.ld;
  if (plan.c.copied) q.c = base + plan.c.offset, q.ldc = plan.c.ld;
  return q;
}

GemmProblem chosen_problem(const GemmProblem& p) {
  if (!runs_on_copies(p)) return p;
  return realigned_problem(p, realign_plan(p), reinterpret_cast<void*>(uintptr_t{256}));
}

GemmProblem realign_operands(const GemmProblem& p, const RealignPlan& plan, void* buffer, cudaStream_t stream) {
  const int ab = data_type_bytes(p.types.a), cb = data_type_bytes(p.types.c);
  const GemmProblem q = realigned_problem(p, plan, buffer);
  // Each copy fills its padded rows and columns with zeros in the same launch: a padded k then adds
  // only zero products (0 x NaN would be NaN). A padded C's extra outputs are never copied back, and
  // with beta = 0 C is not read, so it is not copied in.
  // The copies of one element size share a launch (a launch fewer per call).
  PadCopy same[kMaxPadCopies];
  int count = 0;
  if (plan.a.copied) same[count++] = copy_of(plan.a, const_cast<void*>(q.a), q.lda, p.a, p.lda);
  if (plan.b.copied) same[count++] = copy_of(plan.b, const_cast<void*>(q.b), q.ldb, p.b, p.ldb);
  const bool copy_c = plan.c.copied && p.beta != 0.0f;
  if (copy_c && cb == ab) same[count++] = copy_of(plan.c, q.c, q.ldc, p.c, p.ldc);
  if (copy_c && cb != ab) {
    const PadCopy c = copy_of(plan.c, q.c, q.ldc, p.c, p.ldc);
    AUTOGEMM_CUDA_CHECK(launch_pad_copies(&c, 1, cb, stream));
  }
  AUTOGEMM_CUDA_CHECK(launch_pad_copies(same, count, ab, stream));
  return q;
}

void copy_back_c(const GemmProblem& original, const GemmProblem& copies, const RealignPlan& plan, cudaStream_t stream) {
  if (!plan.c.copied) return;
  AUTOGEMM_CUDA_CHECK(launch_pad_copy(original.c, original.ldc, plan.c.rows, plan.c.cols, copies.c, copies.ldc,
                                      plan.c.rows, plan.c.cols, data_type_bytes(original.types.c), stream));
}

}  // namespace autogemm
