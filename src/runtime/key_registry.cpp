#include "runtime/key_registry.hpp"

#include <limits.h>

#include <atomic>

namespace weft::rt {
namespace {

constexpr unsigned kMaxKeys = PTHREAD_KEYS_MAX;
std::atomic<bool> g_live[kMaxKeys];
std::atomic<void (*)(void*)> g_destructor[kMaxKeys];
std::atomic<unsigned> g_limit{0};  // one past the highest key seen

}  // namespace

void note_key(pthread_key_t key, void (*destructor)(void*)) {
  if (key >= kMaxKeys) return;
  g_destructor[key].store(destructor, std::memory_order_relaxed);
  g_live[key].store(true, std::memory_order_release);
  unsigned limit = g_limit.load(std::memory_order_relaxed);
  while (key + 1 > limit && !g_limit.compare_exchange_weak(limit, key + 1)) {
  }
}

void forget_key(pthread_key_t key) {
  if (key < kMaxKeys) g_live[key].store(false, std::memory_order_release);
}

void run_key_destructors() {
  const unsigned limit = g_limit.load(std::memory_order_acquire);
  for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; ++round) {
    bool called = false;
    for (unsigned k = 0; k < limit; ++k) {
      if (!g_live[k].load(std::memory_order_acquire)) continue;
      void* value = pthread_getspecific(k);
      if (value == nullptr) continue;
      pthread_setspecific(k, nullptr);
      if (auto* destructor = g_destructor[k].load(std::memory_order_relaxed)) {
        destructor(value);
        called = true;
      }
    }
    if (!called) return;
  }
}

}  // namespace weft::rt
