// autogemmContext: what a handle holds — its device and stream, its kernel selection (settings and
// the cache of choices, kernel_selector.hpp) and its workspace (workspace.hpp), behind one mutex.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <mutex>

#include "autogemm/autogemm.h"
#include "device_guard.hpp"
#include "kernel_selector.hpp"
#include "workspace.hpp"

struct autogemmContext {
  /// Bytes at the start of a user workspace reserved for serial split-k counters.
  static constexpr size_t kUserWorkspaceHead = autogemm::HandleWorkspace::kUserHead;

  static constexpr uint64_t kMagic = 0x6175746f67656d6dull;  // "autogemm": tells a live handle from garbage
  uint64_t magic = kMagic;
  int device = 0;
  cudaStream_t stream = nullptr;

  /// The arithmetic of the handle's FP32 GEMMs (its math mode, AUTOGEMM_MATH / autogemmSetMathMode):
  /// read by every call before its choice, so an atomic rather than under the mutex.
  std::atomic<autogemm::ComputeType> fp32_math;

  std::mutex mutex;  // guards the three below
  autogemm::KernelSelector selector;
  autogemm::HandleWorkspace workspace_;
  autogemm::GrowingWorkspace realigned_;  // aligned copies of operands TMA cannot read (realign.cpp)

  explicit autogemmContext(int dev);
  ~autogemmContext();

  /// The choice for `problem` (KernelSelector::choose), under the handle's mutex.
  autogemm::KernelChoice choose(const autogemm::GemmProblem& problem);
  /// A workspace of at least `needs` (HandleWorkspace::get), under the handle's mutex.
  autogemm::Workspace workspace(autogemm::WorkspaceNeeds needs);
  /// A device buffer of at least `bytes`, 256-byte aligned, for aligned copies of operands, under the
  /// handle's mutex. It only grows (GrowingWorkspace).
  void* realign_buffer(size_t bytes);
  /// Forgets cached choices (after a settings change).
  void clear_choices();
};
