// Reference-counted sessions in a fixed table (a small server's session cache). lookup()
// finds a session under the table lock but takes its reference only after dropping the
// lock: in between, the last owner can put its reference, and the session is torn down
// and its slot recycled while the looker-up still holds a pointer to it. session_get()
// catches the resurrection, as kernel-style krefs do.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SESSIONS = 4 };

struct session {
  atomic_int refs;
  int id;  // 0: slot free
  char* user;
};

static struct session table[MAX_SESSIONS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static struct session* session_create(int id, const char* user) {
  pthread_mutex_lock(&table_lock);
  struct session* s = NULL;
  for (int i = 0; i < MAX_SESSIONS && s == NULL; ++i)
    if (table[i].id == 0) s = &table[i];
  if (s != NULL) {
    s->id = id;
    s->user = strdup(user);
    atomic_store(&s->refs, 1);  // the creator's reference
  }
  pthread_mutex_unlock(&table_lock);
  return s;
}

static void session_get(struct session* s) {
  int old = atomic_fetch_add(&s->refs, 1);
  assert(old > 0 && "reference taken on a freed session");
}

static void session_put(struct session* s) {
  if (atomic_fetch_sub(&s->refs, 1) == 1) {
    pthread_mutex_lock(&table_lock);
    free(s->user);
    s->user = NULL;
    s->id = 0;
    pthread_mutex_unlock(&table_lock);
  }
}

static struct session* session_lookup(int id) {
  struct session* found = NULL;
  pthread_mutex_lock(&table_lock);
  for (int i = 0; i < MAX_SESSIONS; ++i)
    if (table[i].id == id) found = &table[i];
  pthread_mutex_unlock(&table_lock);
  if (found != NULL) session_get(found);
  return found;
}

static struct session* g_login;

static void* request(void* arg) {
  (void)arg;
  struct session* s = session_lookup(42);
  if (s != NULL) {
    printf("request from %s\n", s->user);
    session_put(s);
  }
  return NULL;
}

static void* logout(void* arg) {
  (void)arg;
  session_put(g_login);  // drop the login's reference: the session ends
  return NULL;
}

int main(void) {
  g_login = session_create(42, "ada");
  pthread_t r, l;
  pthread_create(&r, NULL, request, NULL);
  pthread_create(&l, NULL, logout, NULL);
  pthread_join(r, NULL);
  pthread_join(l, NULL);
  return 0;
}
