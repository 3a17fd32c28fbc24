/* autogemm: an autotuning GEMM runtime for NVIDIA GPUs (sm_80 and newer).
 * C API with cuBLAS semantics: column-major storage, op(A) and op(B) chosen by transa/transb,
 * alpha and beta passed as host pointers, work enqueued on the handle's stream. */
#ifndef AUTOGEMM_AUTOGEMM_H
#define AUTOGEMM_AUTOGEMM_H

#include <cuda_runtime_api.h>
#include <library_types.h> /* cudaDataType_t */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define AUTOGEMM_API
#else
#define AUTOGEMM_API __attribute__((visibility("default")))
#endif

/** Result of every autogemm call. */
typedef enum {
  AUTOGEMM_STATUS_SUCCESS = 0,          /**< the call did what it was asked */
  AUTOGEMM_STATUS_NOT_INITIALIZED = 1,  /**< the handle is null or was not created by autogemmCreate */
  AUTOGEMM_STATUS_INVALID_VALUE = 2,    /**< an argument is out of range; autogemmGetLastErrorMessage names it */
  AUTOGEMM_STATUS_ALLOC_FAILED = 3,     /**< device or host memory could not be allocated */
  AUTOGEMM_STATUS_ARCH_MISMATCH = 4,    /**< the device is older than sm_80, or this build has no code for it */
  AUTOGEMM_STATUS_NOT_SUPPORTED = 5,    /**< valid arguments that no compiled kernel can implement */
  AUTOGEMM_STATUS_EXECUTION_FAILED = 6, /**< a CUDA launch or runtime call failed */
  AUTOGEMM_STATUS_NO_DEVICE = 7,        /**< no CUDA device is present, or the device index is invalid */
  AUTOGEMM_STATUS_INTERNAL_ERROR = 8    /**< a bug in autogemm; please report it with the message */
} autogemmStatus_t;

/** How an operand enters the product, as cublasOperation_t: C means conjugate-transpose, which for
 * real types is the same as T. */
typedef enum { AUTOGEMM_OP_N = 0, AUTOGEMM_OP_T = 1, AUTOGEMM_OP_C = 2 } autogemmOperation_t;

/** Opaque library context: bound to one device at creation, holds a stream and a split-k workspace. */
typedef struct autogemmContext* autogemmHandle_t;

/** How a handle picks kernels (AUTOGEMM_MODE sets the default of new handles). */
typedef enum {
  AUTOGEMM_MODE_TUNED = 0,     /**< tuned entry from the databases, else the untuned choice (default) */
  AUTOGEMM_MODE_HEURISTIC = 1, /**< databases ignored: the cost model's choice only */
  AUTOGEMM_MODE_ONLINE = 2     /**< tuned entry, else tune on the first call (within the online budget),
                                    store the result in the first database of the search path, use it */
} autogemmMode_t;

/** Creates a handle bound to the current CUDA device, with the default (legacy) stream. */
AUTOGEMM_API autogemmStatus_t autogemmCreate(autogemmHandle_t* handle);
/** Creates a handle bound to device `device`. */
AUTOGEMM_API autogemmStatus_t autogemmCreateForDevice(autogemmHandle_t* handle, int device);
/** Releases the handle and its workspace. Waits for no work; synchronise the stream first. */
AUTOGEMM_API autogemmStatus_t autogemmDestroy(autogemmHandle_t handle);

/** Sets the stream every later call of this handle enqueues on (0 = legacy default stream). */
AUTOGEMM_API autogemmStatus_t autogemmSetStream(autogemmHandle_t handle, cudaStream_t stream);
AUTOGEMM_API autogemmStatus_t autogemmGetStream(autogemmHandle_t handle, cudaStream_t* stream);
/** The device the handle is bound to. */
AUTOGEMM_API autogemmStatus_t autogemmGetDevice(autogemmHandle_t handle, int* device);

/** Sets how this handle picks kernels; clears its cached choices. */
AUTOGEMM_API autogemmStatus_t autogemmSetMode(autogemmHandle_t handle, autogemmMode_t mode);

/** The arithmetic of FP32 GEMMs (autogemmSgemm, and autogemmGemmEx of FP32 operands with
 *  AUTOGEMM_COMPUTE_32F), as cublasSetMathMode. AUTOGEMM_MATH=pedantic|fp32_emulated|tf32 sets the
 *  default of new handles (an unknown word warns and means pedantic). A mode allows its arithmetic
 *  and any more accurate one, whichever the handle's choice finds faster; the tensor-core modes run
 *  on sm_90a (H100, H200), elsewhere as pedantic. Tuning tables of different modes never mix. */
typedef enum {
  AUTOGEMM_MATH_PEDANTIC = 0,      /**< FP32 products and sums on CUDA cores (default) */
  AUTOGEMM_MATH_FP32_EMULATED = 1, /**< may also use 3xTF32 tensor-core kernels: each operand split
                                        into two TF32 numbers, three TF32 products summed in FP32, an
                                        error of FP32's order (docs/accuracy.md) */
  AUTOGEMM_MATH_TF32 = 2           /**< may also use TF32 tensor cores: operands read with 10-bit
                                        mantissas, as CUBLAS_TF32_TENSOR_OP_MATH */
} autogemmMath_t;

/** Sets the arithmetic of this handle's FP32 GEMMs. */
AUTOGEMM_API autogemmStatus_t autogemmSetMathMode(autogemmHandle_t handle, autogemmMath_t mode);
AUTOGEMM_API autogemmStatus_t autogemmGetMathMode(autogemmHandle_t handle, autogemmMath_t* mode);
/** Online mode: wall time the first call of an untuned problem may spend measuring candidates
 *  (as AUTOGEMM_ONLINE_BUDGET_MS; default 500 ms). The untuned choice is always measured; 0 measures
 *  only it. That first call synchronises the handle's stream; a first call made while the stream
 *  is being captured into a CUDA Graph gets the untuned choice and tunes at the next call outside
 *  capture. */
AUTOGEMM_API autogemmStatus_t autogemmSetOnlineBudget(autogemmHandle_t handle, double milliseconds);
/** Sets the tuning databases this handle searches, ':'-separated, first match wins (as AUTOGEMM_DB);
 *  NULL restores the default (AUTOGEMM_DB, else the user then the system database). Clears its
 *  cached choices, and the process reads those files anew (a database written since, by
 *  gemm-tune tune for example, is used). A file that cannot be read is skipped with one warning. */
AUTOGEMM_API autogemmStatus_t autogemmSetDatabasePath(autogemmHandle_t handle, const char* paths);
/** Appends every problem that falls back to the untuned choice, once per process, to this CSV
 *  (as AUTOGEMM_RECORD_UNTUNED; `gemm-tune tune --shapes FILE` reads it). NULL turns it off. */
AUTOGEMM_API autogemmStatus_t autogemmSetRecordUntuned(autogemmHandle_t handle, const char* path);
/** Gives the handle a device buffer for split-k and repacked operands, instead of the one it grows
 *  itself (once, never per call). At least 16 KiB; calls whose split-k needs more return
 *  AUTOGEMM_STATUS_INVALID_VALUE; a tuned choice that repacks operands larger than the buffer is
 *  replaced by the untuned choice. The buffer is zeroed on the handle's stream here; it must stay
 *  valid while the handle uses it. NULL returns to the handle's own workspace. Clears the handle's
 *  cached choices. */
AUTOGEMM_API autogemmStatus_t autogemmSetWorkspace(autogemmHandle_t handle, void* workspace, size_t bytes);

/** C = alpha * op(A) * op(B) + beta * C, single precision, exactly as cublasSgemm:
 *  op(A) is m x k, op(B) is k x n, C is m x n, all column-major with leading dimensions
 *  lda >= max(1, transa == N ? m : k), ldb >= max(1, transb == N ? k : n), ldc >= max(1, m).
 *  As in cuBLAS, reads stay inside each matrix, from its first element to its last: an allocation
 *  of ld x (columns - 1) + rows elements is enough (A: columns = transa == N ? k : m, rows the
 *  other; B likewise; C: ldc x (n - 1) + m). Nothing outside the m x n block of C is written.
 *  alpha and beta are host pointers. m, n or k = 0 and alpha = 0 follow BLAS: C = beta * C, and
 *  beta = 0 writes C without reading it. Offsets are computed in 64-bit, so any size whose matrices
 *  fit in memory is accepted. Asynchronous with respect to the host. */
AUTOGEMM_API autogemmStatus_t autogemmSgemm(autogemmHandle_t handle, autogemmOperation_t transa,
                                            autogemmOperation_t transb, int m, int n, int k, const float* alpha,
                                            const float* A, int lda, const float* B, int ldb, const float* beta,
                                            float* C, int ldc);

/** The arithmetic of autogemmGemmEx's products and sums. */
typedef enum {
  AUTOGEMM_COMPUTE_32F = 0, /**< FP32 sums (as CUBLAS_COMPUTE_32F): tensor cores for 16-bit operands; for
                                 FP32 operands the handle's math mode (autogemmSetMathMode) */
  AUTOGEMM_COMPUTE_32F_PEDANTIC = 1,       /**< FP32 operands: FP32 products and sums on CUDA cores */
  AUTOGEMM_COMPUTE_32F_FAST_TF32 = 2,      /**< FP32 operands: AUTOGEMM_MATH_TF32's arithmetic */
  AUTOGEMM_COMPUTE_32F_EMULATED_3XTF32 = 3 /**< FP32 operands: AUTOGEMM_MATH_FP32_EMULATED's arithmetic */
} autogemmComputeType_t;

/** C = alpha * op(A) * op(B) + beta * C with element types, as cublasGemmEx: the arguments, layout,
 *  BLAS semantics and memory reads of autogemmSgemm, with A, B and C of the given cudaDataType_t.
 *  Implemented: A and B both CUDA_R_16BF or both CUDA_R_16F with C of their type or CUDA_R_32F and
 *  AUTOGEMM_COMPUTE_32F (tensor cores, sm_90a: the H100 and H200; an output at most 4 columns wide
 *  or 4 rows tall also on the GEMV kernels of sm_80 and newer); all three CUDA_R_32F with any
 *  compute type (AUTOGEMM_COMPUTE_32F: as autogemmSgemm, in the handle's math mode). The products
 *  are summed in FP32, alpha and beta are FP32 host values, the result is rounded once to C's type. Any other combination, or one this build or device has no
 *  kernel for, returns AUTOGEMM_STATUS_NOT_SUPPORTED with a message naming it; nothing is written. */
AUTOGEMM_API autogemmStatus_t autogemmGemmEx(autogemmHandle_t handle, autogemmOperation_t transa,
                                             autogemmOperation_t transb, int m, int n, int k, const float* alpha,
                                             const void* A, cudaDataType_t Atype, int lda, const void* B,
                                             cudaDataType_t Btype, int ldb, const float* beta, void* C,
                                             cudaDataType_t Ctype, int ldc, autogemmComputeType_t computeType);

/** What autogemmSgemm or autogemmGemmEx runs for a problem (autogemmExplainSgemm, autogemmExplainGemmEx). */
typedef struct {
  char kernel[160]; /**< the kernel instance's name, its database key ("" when nothing runs: m, n or k = 0) */
  char split[16];   /**< the split of K: "1", "8p" (8 splits, parallel reduction), "3s" (serial) */
  char source[16];  /**< "tuned" (a database), "online" (measured on a first call) or "untuned" (the cost model) */
  double time_us;   /**< the measured median for tuned and online choices, the cost model's estimate for untuned */
  int measured;     /**< 1 when time_us was measured, 0 when estimated */
} autogemmChoiceInfo_t;

/** The choice autogemmSgemm makes for this call (the same arguments but alpha and beta, which do not
 *  change it), without running it: the handle chooses and caches it as a call would (in online
 *  mode an untuned problem is tuned now). Validates the arguments as autogemmSgemm does. */
AUTOGEMM_API autogemmStatus_t autogemmExplainSgemm(autogemmHandle_t handle, autogemmOperation_t transa,
                                                   autogemmOperation_t transb, int m, int n, int k, const float* A,
                                                   int lda, const float* B, int ldb, const float* C, int ldc,
                                                   autogemmChoiceInfo_t* info);

/** The choice autogemmGemmEx makes for this call (its arguments but alpha and beta), as
 *  autogemmExplainSgemm does for autogemmSgemm; for a problem the call runs on padded, aligned
 *  copies, the choice for the padded problem. Validates the arguments as autogemmGemmEx does. */
AUTOGEMM_API autogemmStatus_t autogemmExplainGemmEx(autogemmHandle_t handle, autogemmOperation_t transa,
                                                    autogemmOperation_t transb, int m, int n, int k, const void* A,
                                                    cudaDataType_t Atype, int lda, const void* B, cudaDataType_t Btype,
                                                    int ldb, const void* C, cudaDataType_t Ctype, int ldc,
                                                    autogemmComputeType_t computeType, autogemmChoiceInfo_t* info);

/** A fixed English description of a status code; never null. */
AUTOGEMM_API const char* autogemmGetStatusString(autogemmStatus_t status);

/** The message of the last failed call on this thread (naming the bad value), or "" if none. */
AUTOGEMM_API const char* autogemmGetLastErrorMessage(void);

/** Library version as "MAJOR.MINOR.PATCH". */
AUTOGEMM_API const char* autogemmGetVersion(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AUTOGEMM_AUTOGEMM_H */
