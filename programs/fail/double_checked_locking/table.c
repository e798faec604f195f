// A hash table of counters allocated on first use with double-checked locking. The
// pointer is published before the table is filled in: a thread that sees it non-NULL
// skips the lock and uses a table whose slots are not allocated yet.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct table {
  unsigned size;  // a power of two
  long* slots;
};

static struct table* g_table;
static pthread_mutex_t g_table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t g_count_lock = PTHREAD_MUTEX_INITIALIZER;

static struct table* get_table(void) {
  if (g_table == NULL) {
    pthread_mutex_lock(&g_table_lock);
    if (g_table == NULL) {
      g_table = calloc(1, sizeof *g_table);
      g_table->size = 64;
      g_table->slots = calloc(g_table->size, sizeof *g_table->slots);
    }
    pthread_mutex_unlock(&g_table_lock);
  }
  return g_table;
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
