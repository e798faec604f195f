#pragma once
// The processes of a weft run: each worker (the program under weft's runtime, which
// becomes its fork server), started, waited for, and stopped in order on SIGINT or
// SIGTERM (the first is passed on, a second kills them); what each left in the run
// directory; and the --jobs control file the workers share.
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/result_file.hpp"

namespace weft::cli {

// One weft run process tree: the program, its fork server and the executions it forks.
struct Instance {
  pid_t pid = -1;
  int status = 0;
  bool reaped = false;
  bool group = true;  // the program leads a process group of its own (not under --gdb)
  std::filesystem::path results;
  // What the fork server wrote.
  std::string json, report, output, found;
  std::string error;  // the run's error ("" none)
  ResultFile trace, page;
};

// SIGINT (unless gdb's, to interrupt the program) and SIGTERM end the run in order: the
// first is passed on to the workers (the fork servers, or gdb), whose searches end and
// leave their partial result (explore/stop_request.hpp); a second kills them at once.
void catch_stop_signals(bool gdb);
int stop_signal();  // the first SIGINT or SIGTERM weft got; 0 none
int stops();        // how many it got
// The exit status: 128 + the signal when one interrupted the run (130 SIGINT, 143 SIGTERM).
int status_of(int code);

// Whether each worker leads a process group (not under gdb): what the handler signals.
void workers_lead_groups(bool groups);
// A worker weft started: the handler may signal it; and one that has a signal to catch up
// on (it came while the worker was being started).
void add_worker(pid_t pid);
// Every worker started so far, killed (a later one could not be started).
void kill_workers();

// A process group of its own (own_group), which weft kills when the program ends; else
// weft's, so that a debugger stays in the terminal's foreground group. fixed_layout: no
// address-space randomisation (where the kernel allows it): the workers of one --jobs run
// then lay the program out alike, so that the states one worker's cache learnt (which
// name objects by address) mean the same to the others.
// Nothing it starts outlives weft: the child dies with weft (PR_SET_PDEATHSIG, kept
// across exec), whatever kills weft. A fork server (own_group) starts with SIGINT and
// SIGTERM blocked, weft's requests to stop that it polls (explore/stop_request.hpp);
// `lifeline`: a pipe's read end to keep open across exec (-1 none).
pid_t spawn(const std::vector<std::string>& env, const std::vector<std::string>& argv,
            bool own_group = true, bool fixed_layout = false, int lifeline = -1);

// "" when the instance left its result; else the error to report ("-": said already).
std::string collect(Instance& in);

// The --jobs control file (core/jobs_layout.hpp), made and mapped once: the words the
// progress line reads, and the team area (explore/work_team.hpp). Inactive (nothing
// mapped) for one worker.
class ControlFile {
 public:
  // Makes it for `workers` (> 1): the first-bug word unset, the barrier counting them all,
  // the rest a hole until a worker writes there. "" or the error.
  std::string make(const std::filesystem::path& path, std::size_t workers);
  ~ControlFile();
  const std::atomic<std::uint64_t>* words() const { return words_; }
  // A worker that ended without leaving its team (it died, or failed before it joined)
  // would keep the others waiting at the team's barrier: they are told to leave.
  void release_team(const std::vector<Instance>& instances);

 private:
  std::atomic<std::uint64_t>* words_ = nullptr;
  std::atomic<std::uint64_t>* team_ = nullptr;
  std::size_t bytes_ = 0;
};

// Waits for every worker; with several, any that ends early releases the others' team.
void wait_for_workers(std::vector<Instance>& instances, ControlFile& control);
// --jobs on a terminal: the workers' executions and bugs (fork_server.cpp's JobsControl
// words), four times a second, cleared when they are done.
void wait_with_progress(std::vector<Instance>& instances, ControlFile& control);

}  // namespace weft::cli
