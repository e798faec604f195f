// A hash table of counters allocated on first use with double-checked locking, done
// right: the table is built completely before the pointer to it is published, with a
// release store that the unlocked acquire load pairs with.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct table {
  unsigned size;  // a power of two
  long* slots;
};

static _Atomic(struct table*) g_table;
static pthread_mutex_t g_table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_count_lock = PTHREAD_MUTEX_INITIALIZER;

static struct table* get_table(void) {
  struct table* t = atomic_load_explicit(&g_table, memory_order_acquire);
  if (t == NULL) {
    pthread_mutex_lock(&g_table_lock);
    t = atomic_load_explicit(&g_table, memory_order_relaxed);
    if (t == NULL) {
      t = calloc(1, sizeof *t);
      t->size = 64;
      t->slots = calloc(t->size, sizeof *t->slots);
      atomic_store_explicit(&g_table, t, memory_order_release);
    }
    pthread_mutex_unlock(&g_table_lock);
  }
  return t;
}

static unsigned hash(const char* s) {
  unsigned h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}

static void count(const char* word) {
  struct table* t = get_table();
  pthread_mutex_lock(&g_count_lock);
  t->slots[hash(word) & (t->size - 1)]++;
  pthread_mutex_unlock(&g_count_lock);
}

static void* worker(void* arg) {
  count(arg);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, "apple");
  pthread_create(&b, NULL, worker, "pear");
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("apple: %ld\n", get_table()->slots[hash("apple") & 63]);
  return 0;
}
