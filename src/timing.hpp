// GPU timing done properly (background notes; ThunderKittens' discipline): L2 flushed before every
// repetition so each one starts cold, warm-up, CUDA events around each repetition, median of many.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace autogemm {

/// How long a timing's warm-up keeps the GPU busy with the timed launches at least (TimingOptions::
/// warmup_ms), where the timing follows work of another power draw. The float64 reference of a
/// 4096^3 problem leaves the H100 under its software power cap (clocks 1725-1965 MHz) for a few
/// hundred ms: launches timed right after it ran 0.7-1.5% slower, and steady again after 500 ms of
/// running.
inline constexpr double kSettleMs = 500.0;

/// How long the benchmark runs both libraries before it times a problem: past the power cap's
/// transient. The cap acts on power averaged over about a second, so when sustained launches follow
/// lighter work (the reference and the checks), the clock drops 0.8-0.9 s in, for 0.1-0.2 s (to
/// 1200-1380 MHz against 1500-1650 settled; 17 of 18 such starts traced on the H200 under its 700 W
/// cap). After 500 ms that dip fell into the third or fourth block of the paired timing, on
/// whichever library's block ran there: 4096^3 BF16 `nn` 0.92-0.96x cuBLAS with autogemm's block in
/// it, 0.98x with the order swapped, 0.96-0.98x after 3000 ms (docs/results/h200_power_transient.txt).
inline constexpr double kBenchSettleMs = 2000.0;

/// How long a timed side first runs its own launches untimed, so that it is timed in the power state
/// its own launches settle to and not in its neighbour's: the benchmark's blocks (--timing blocks)
/// and the tuner's finalists and yardstick. Under the H200's 700 W cap an autogemm kernel timed
/// beside cuBLAS set cuBLAS's clock (1380-1395 MHz beside 128x128 ping-pong tiles, 1410-1530 beside
/// cooperative ones; docs/results/h200_interleaved_clocks.txt). 100 ms is enough: over the 176 blocks
/// of the large BF16 problems' bench in blocks (docs/results/h200_bench_tc_bf16_large.json.xz), the
/// first timed repetition after it took 0.998x its block's median time at its block's median clock.
inline constexpr double kOwnSettleMs = 100.0;

struct TimingOptions {
  int warmup = 3;           // untimed runs first: module load, clocks, caches of the host side
  int min_reps = 10;
  int max_reps = 100;
  double budget_ms = 200;   // stop adding repetitions past this much timed GPU time
  bool flush_l2 = true;
  /// Early rejection (as TunableOp's probes do): after each repetition past the third, stop when
  /// this returns true for the running median in microseconds. Empty: never.
  std::function<bool(double)> give_up;
  /// After the `warmup` runs, untimed runs until this much wall time has passed (kSettleMs; the
  /// benchmark's kBenchSettleMs).
  double warmup_ms = 0;
};

struct TimingResult {
  double median_us = 0, min_us = 0, max_us = 0;
  int reps = 0;
  bool gave_up = false;  // stopped early by TimingOptions::give_up
};

/// Owns a buffer of twice L2 and sweeps it before each timed run, evicting whatever the last run left
/// there. AUTOGEMM_L2_FLUSH selects how: "write" (default: cudaMemsetAsync, as NVBench does; L2 is
/// left full of dirty lines, which the timed kernel's misses must write back to DRAM) or "read"
/// (a kernel reads the buffer; L2 is left holding clean lines). The read flush runs memory-bound
/// problems ~12% faster for both libraries (write-back of the memset's dirty lines), compute-bound
/// ones within 1%; the default is the memset, so that every reported number uses one method.
class L2Flusher {
 public:
  explicit L2Flusher(int device);
  ~L2Flusher();
  L2Flusher(const L2Flusher&) = delete;
  L2Flusher& operator=(const L2Flusher&) = delete;
  void flush(cudaStream_t stream);
  /// "memset of 2x L2" or "read of 2x L2", for reports.
  const char* method() const;
  /// The swept buffer's device address (for experiments on where buffers land).
  const void* buffer() const { return buffer_; }

 private:
  bool read_ = false;
  int* sink_ = nullptr;
  void* buffer_ = nullptr;
  size_t bytes_ = 0;
  int round_ = 0;
};

/// A pair of CUDA events that times one launch at a time: flush (when given a flusher), start event,
/// launch, stop event, wait for it. Throws StatusError on a CUDA error.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  double time_us(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher* flusher);

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

/// Reads `bytes` of `buffer` on `stream` (the read flush); `sink` is a device int it never writes.
cudaError_t launch_read_flush(const void* buffer, size_t bytes, int* sink, cudaStream_t stream);

/// Runs `launch` after a flush, as a timing would, untimed, until `ms` of wall time have passed (the
/// GPU waited for after each): the settling that TimingOptions::warmup_ms asks for.
void run_untimed_for(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher& flusher,
                     double ms);

/// Times `launch` (which enqueues work on the stream it is given). Throws StatusError on a CUDA error.
TimingResult time_on_gpu(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher& flusher,
                         const TimingOptions& options = {});

double median(std::vector<double> values);

/// Median, min, max and count of the repetitions' times `us` (all zero when empty).
TimingResult summarize_times(const std::vector<double>& us);

/// Whether a measurement's repetitions disagree by more than `tolerance` of its median (slowest minus
/// fastest): a transient on the GPU, not the kernel. A 5-repetition quick pass on the H100 once put
/// a candidate at 54.2 us (51.4 to 77.9) that ran 46.4 us fully timed, and so left the best
/// candidate of a problem out of the full timing.
bool unsteady(const TimingResult& t, double tolerance = 0.2);

}  // namespace autogemm
