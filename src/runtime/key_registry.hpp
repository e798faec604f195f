#pragma once
// pthread keys and their destructors, so that a controlled thread's key values are
// destroyed under control when it finishes (they may touch shared state) and a pooled
// carrier starts its next thread with every key empty, as a new thread would.
#include <pthread.h>

namespace weft::rt {

void note_key(pthread_key_t key, void (*destructor)(void*));
void forget_key(pthread_key_t key);
// What glibc does at thread exit, on the calling thread: rounds of destructor calls until
// every key is empty (at most PTHREAD_DESTRUCTOR_ITERATIONS).
void run_key_destructors();

}  // namespace weft::rt
