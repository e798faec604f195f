// Two modules update one statistics counter. Each module's own counter stays under its
// own lock; the shared total has a lock of its own that both take.
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t net_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t total_lock = PTHREAD_MUTEX_INITIALIZER;
static long bytes_sent;      // the network module's
static long cache_entries;   // the cache module's
static long bytes_total;     // shared: guarded by total_lock

static void* uploader(void* arg) {
  (void)arg;
  for (int chunk = 0; chunk < 2; ++chunk) {
    pthread_mutex_lock(&net_lock);
    bytes_sent += 512;
    pthread_mutex_lock(&total_lock);
    bytes_total += 512;
    pthread_mutex_unlock(&total_lock);
    pthread_mutex_unlock(&net_lock);
  }
  return NULL;
}

static void* cache_writer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&cache_lock);
  cache_entries += 1;
  pthread_mutex_lock(&total_lock);
  bytes_total += 64;
  pthread_mutex_unlock(&total_lock);
  pthread_mutex_unlock(&cache_lock);
  return NULL;
}

int main(void) {
  pthread_t up, cache;
  pthread_create(&up, NULL, uploader, NULL);
  pthread_create(&cache, NULL, cache_writer, NULL);
  pthread_join(up, NULL);
  pthread_join(cache, NULL);
  printf("sent %ld, cache %ld, total %ld\n", bytes_sent, cache_entries, bytes_total);
  if (bytes_total != bytes_sent + 64 * cache_entries) {
    fprintf(stderr, "byte count mismatch\n");
    return 3;
  }
  return 0;
}
