// See timing.hpp.
#include "timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string_view>

#include "status.hpp"

namespace autogemm {

L2Flusher::L2Flusher(int device) {
  int l2 = 0;
  AUTOGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  bytes_ = std::max<size_t>(2 * static_cast<size_t>(l2), 8u << 20);  // twice L2: nothing of the last run survives
  const char* env = std::getenv("AUTOGEMM_L2_FLUSH");
  read_ = env != nullptr && std::string_view(env) == "read";
  AUTOGEMM_CUDA_CHECK(cudaMalloc(&buffer_, bytes_));
  AUTOGEMM_CUDA_CHECK(cudaMemset(buffer_, 0, bytes_));
  if (read_) AUTOGEMM_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&sink_), sizeof(int)));
}

L2Flusher::~L2Flusher() {
  cudaFree(buffer_);
  cudaFree(sink_);
}

void L2Flusher::flush(cudaStream_t stream) {
  if (read_) {
    AUTOGEMM_CUDA_CHECK(launch_read_flush(buffer_, bytes_, sink_, stream));
  } else {
    AUTOGEMM_CUDA_CHECK(cudaMemsetAsync(buffer_, ++round_ & 0xff, bytes_, stream));
  }
}

const char* L2Flusher::method() const { return read_ ? "read of 2x L2" : "memset of 2x L2"; }

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  double m = values[mid];
  if (values.size() % 2 == 0) m = (m + *std::max_element(values.begin(), values.begin() + mid)) / 2.0;
  return m;
}

bool unsteady(const TimingResult& t, double tolerance) { return t.max_us - t.min_us > tolerance * t.median_us; }

void run_untimed_for(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher& flusher,
                     double ms) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() < ms) {
    flusher.flush(stream);
    launch(stream);
    AUTOGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

EventTimer::EventTimer() {
  AUTOGEMM_CUDA_CHECK(cudaEventCreate(&start_));
  if (const cudaError_t e = cudaEventCreate(&stop_); e != cudaSuccess) {
    cudaEventDestroy(start_);
    AUTOGEMM_CUDA_CHECK(e);
  }
}

EventTimer::~EventTimer() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

double EventTimer::time_us(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher* flusher) {
  if (flusher != nullptr) flusher->flush(stream);
  AUTOGEMM_CUDA_CHECK(cudaEventRecord(start_, stream));
  launch(stream);
  AUTOGEMM_CUDA_CHECK(cudaEventRecord(stop_, stream));
  AUTOGEMM_CUDA_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  AUTOGEMM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return ms * 1000.0;
}

TimingResult summarize_times(const std::vector<double>& us) {
  TimingResult r;
  if (us.empty()) return r;
  r.reps = static_cast<int>(us.size());
  r.median_us = median(us);
  r.min_us = *std::min_element(us.begin(), us.end());
  r.max_us = *std::max_element(us.begin(), us.end());
  return r;
}

TimingResult time_on_gpu(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream, L2Flusher& flusher,
                         const TimingOptions& options) {
  for (int i = 0; i < options.warmup; ++i) {
    if (options.flush_l2) flusher.flush(stream);
    launch(stream);
  }
  AUTOGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (options.warmup_ms > 0) run_untimed_for(launch, stream, flusher, options.warmup_ms);

  EventTimer timer;
  std::vector<double> times;
  double total_ms = 0;
  bool gave_up = false;
  while (static_cast<int>(times.size()) < options.max_reps &&
         (static_cast<int>(times.size()) < options.min_reps || total_ms < options.budget_ms)) {
    times.push_back(timer.time_us(launch, stream, options.flush_l2 ? &flusher : nullptr));
    total_ms += times.back() / 1000.0;
    if (options.give_up && times.size() >= 3 && options.give_up(median(times))) {
      gave_up = true;
      break;
    }
  }
  TimingResult r = summarize_times(times);
  r.gave_up = gave_up;
  return r;
}

}  // namespace autogemm
