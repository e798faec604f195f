// Exits 3 when libdw is mapped into the program: weft loads its symbolizer's libraries
// only once a report needs them, never into an execution (every mapping costs every
// execution's fork and exit).
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void* nothing(void* arg) { return arg; }

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, nothing, NULL);
  pthread_join(t, NULL);
  FILE* maps = fopen("/proc/self/maps", "r");
  if (maps == NULL) return 2;
  char line[4096];
  int found = 0;
  while (fgets(line, sizeof line, maps) != NULL) found |= strstr(line, "libdw") != NULL;
  fclose(maps);
  return found ? 3 : 0;
}
