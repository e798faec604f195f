// C11 threads (<threads.h>). glibc builds them on its internal pthread functions, which
// weft's interposed pthread symbols never see: without these, a thrd_create'd thread
// would run outside weft's control and the program would seem to create none. Each maps
// onto the public pthread call weft interposes (glibc's mtx_t, cnd_t and once_flag are
// pthread_mutex_t, pthread_cond_t and pthread_once_t underneath).
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <threads.h>
#include <time.h>

#include <cstdint>
#include <cstdlib>

#include "intercept/program_call.hpp"
#include "intercept/real.hpp"

static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t));
static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t));
static_assert(sizeof(once_flag) == sizeof(pthread_once_t));
static_assert(sizeof(thrd_t) == sizeof(pthread_t));

namespace {

int result(int err) {
  switch (err) {
    case 0: return thrd_success;
    case EBUSY: return thrd_busy;
    case ETIMEDOUT: return thrd_timedout;
    case ENOMEM:
    case EAGAIN: return thrd_nomem;
    default: return thrd_error;
  }
}

struct Start {
  thrd_start_t func;
  void* arg;
};

void* start(void* p) {
  const Start s = *static_cast<Start*>(p);
  std::free(p);
  return reinterpret_cast<void*>(static_cast<std::intptr_t>(s.func(s.arg)));
}

pthread_mutex_t* mutex(mtx_t* m) { return reinterpret_cast<pthread_mutex_t*>(m); }
pthread_cond_t* cond(cnd_t* c) { return reinterpret_cast<pthread_cond_t*>(c); }

}  // namespace

extern "C" {

int thrd_create(thrd_t* thr, thrd_start_t func, void* arg) {
  WEFT_PROGRAM_CALL;
  auto* s = static_cast<Start*>(std::malloc(sizeof(Start)));
  if (s == nullptr) return thrd_nomem;
  *s = Start{func, arg};
  const int err = pthread_create(reinterpret_cast<pthread_t*>(thr), nullptr, start, s);
  if (err != 0) std::free(s);
  return result(err);
}

int thrd_join(thrd_t thr, int* res) {
  WEFT_PROGRAM_CALL;
  void* ret = nullptr;
  const int err = pthread_join(static_cast<pthread_t>(thr), &ret);
  if (err == 0 && res != nullptr) *res = static_cast<int>(reinterpret_cast<std::intptr_t>(ret));
  return result(err);
}

int thrd_detach(thrd_t thr) {
  WEFT_PROGRAM_CALL;
  return result(pthread_detach(static_cast<pthread_t>(thr)));
}

void thrd_exit(int res) {
  WEFT_PROGRAM_CALL;
  pthread_exit(reinterpret_cast<void*>(static_cast<std::intptr_t>(res)));
}

void thrd_yield(void) {
  WEFT_PROGRAM_CALL;
  sched_yield();
}

int thrd_sleep(const struct timespec* duration, struct timespec* remaining) {
  WEFT_PROGRAM_CALL;
  if (nanosleep(duration, remaining) == 0) return 0;
  return errno == EINTR ? -1 : -2;
}

int mtx_init(mtx_t* m, int type) {
  WEFT_PROGRAM_CALL;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  if (type & mtx_recursive) pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  const int err = pthread_mutex_init(mutex(m), &attr);
  pthread_mutexattr_destroy(&attr);
  return result(err);
}

int mtx_lock(mtx_t* m) {
  WEFT_PROGRAM_CALL;
  return result(pthread_mutex_lock(mutex(m)));
}
int mtx_trylock(mtx_t* m) {
  WEFT_PROGRAM_CALL;
  return result(pthread_mutex_trylock(mutex(m)));
}
int mtx_timedlock(mtx_t* __restrict m, const struct timespec* __restrict t) {
  WEFT_PROGRAM_CALL;
  return result(pthread_mutex_timedlock(mutex(m), t));
}
int mtx_unlock(mtx_t* m) {
  WEFT_PROGRAM_CALL;
  return result(pthread_mutex_unlock(mutex(m)));
}
void mtx_destroy(mtx_t* m) {
  WEFT_PROGRAM_CALL;
  pthread_mutex_destroy(mutex(m));
}

int cnd_init(cnd_t* c) {
  WEFT_PROGRAM_CALL;
  return result(pthread_cond_init(cond(c), nullptr));
}
int cnd_signal(cnd_t* c) {
  WEFT_PROGRAM_CALL;
  return result(pthread_cond_signal(cond(c)));
}
int cnd_broadcast(cnd_t* c) {
  WEFT_PROGRAM_CALL;
  return result(pthread_cond_broadcast(cond(c)));
}
int cnd_wait(cnd_t* c, mtx_t* m) {
  WEFT_PROGRAM_CALL;
  return result(pthread_cond_wait(cond(c), mutex(m)));
}
int cnd_timedwait(cnd_t* __restrict c, mtx_t* __restrict m, const struct timespec* __restrict t) {
  WEFT_PROGRAM_CALL;
  return result(pthread_cond_timedwait(cond(c), mutex(m), t));
}
void cnd_destroy(cnd_t* c) {
  WEFT_PROGRAM_CALL;
  pthread_cond_destroy(cond(c));
}

void call_once(once_flag* flag, void (*func)(void)) {
  WEFT_PROGRAM_CALL;
  pthread_once(reinterpret_cast<pthread_once_t*>(flag), func);
}

int tss_create(tss_t* key, tss_dtor_t dtor) {
  WEFT_PROGRAM_CALL;
  return result(pthread_key_create(reinterpret_cast<pthread_key_t*>(key), dtor));
}
void tss_delete(tss_t key) { pthread_key_delete(static_cast<pthread_key_t>(key)); }
void* tss_get(tss_t key) { return pthread_getspecific(static_cast<pthread_key_t>(key)); }
int tss_set(tss_t key, void* value) {
  return result(pthread_setspecific(static_cast<pthread_key_t>(key), value));
}

}  // extern "C"
