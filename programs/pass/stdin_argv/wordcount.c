// Counts the words of its standard input with N threads (N from the command line), each
// counting a share of the lines into a count of its own; the main thread adds them up
// after joining. Checks the total against a count done on one thread and exits with
// status 1 when they differ.
//
// usage: wordcount N < text
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_LINES = 64, MAX_THREADS = 8 };

static char* lines[MAX_LINES];
static int nlines, nthreads;
static long total_words;
static long words_of[MAX_THREADS];

static long count_words(const char* s) {
  long n = 0;
  int in_word = 0;
  for (; *s; ++s) {
    if (isspace((unsigned char)*s)) {
      in_word = 0;
    } else if (!in_word) {
      in_word = 1;
      ++n;
    }
  }
  return n;
}

static void* counter(void* arg) {
  const long id = (long)arg;
  long words = 0;
  for (int i = id; i < nlines; i += nthreads) words += count_words(lines[i]);
  words_of[id] = words;
  return NULL;
}

int main(int argc, char** argv) {
  nthreads = argc > 1 ? atoi(argv[1]) : 2;
  if (nthreads < 1 || nthreads > MAX_THREADS) {
    fprintf(stderr, "usage: %s THREADS (1..%d) < text\n", argv[0], MAX_THREADS);
    return 2;
  }
  char buf[256];
  while (nlines < MAX_LINES && fgets(buf, sizeof buf, stdin)) lines[nlines++] = strdup(buf);

  pthread_t t[MAX_THREADS];
  for (long i = 0; i < nthreads; ++i) pthread_create(&t[i], NULL, counter, (void*)i);
  for (int i = 0; i < nthreads; ++i) {
    pthread_join(t[i], NULL);
    total_words += words_of[i];
  }

  long expected = 0;
  for (int i = 0; i < nlines; ++i) expected += count_words(lines[i]);
  printf("%d lines, %ld words\n", nlines, total_words);
  if (total_words != expected) {
    fprintf(stderr, "miscounted: %ld words, expected %ld\n", total_words, expected);
    return 1;
  }
  return 0;
}
