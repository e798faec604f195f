#pragma once
// Asynchronous signals reach the thread holding the baton, at a scheduling point.
//
// Once the program has a handler for an asynchronous signal (SIGUSR1, SIGALRM, SIGINT...;
// not the faults a thread raises on itself), a controlled thread blocks those signals
// while it waits for the baton and takes its own mask back when it gets it: a signal sent
// to the process is handled by the running thread, and one sent to a waiting thread stays
// pending until that thread runs again. A handler never runs concurrently with the
// thread weft chose. Until then nothing changes, and a switch costs no system call.
#include <signal.h>

namespace weft::rt::signals {

// A signal a handler may interrupt any thread with (not a fault, not SIGKILL/SIGSTOP, not
// glibc's or weft's own).
bool is_async(int sig);
// The program set `sig`'s disposition; `handled`: to a function (not SIG_DFL/SIG_IGN).
void note_disposition(int sig, bool handled);
// Some asynchronous signal has a handler: waiting threads block them.
bool active();
// The asynchronous signals.
const sigset_t& async_set();

}  // namespace weft::rt::signals
