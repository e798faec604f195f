// Never creates a thread: weft runs it once and says there is nothing to explore.
#include <stdio.h>
int main(void) {
  puts("hello");
  return 0;
}
