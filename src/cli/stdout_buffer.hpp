#pragma once
// weft's stdout (the report, --json -, help), kept until the command ends and written
// there, checked: a closed, full or broken stdout cannot lose the report silently, and
// every file weft writes is written first, so that a reader that stops early
// (`weft run ... | head -1`) ends weft only once its run is done and cleaned up.
#include <sstream>
#include <string>

namespace weft::cli {

class StdoutBuffer {
 public:
  // Takes std::cout over. A closed descriptor 0, 1 or 2 gets /dev/null, so that no file
  // weft opens lands there (its report would then go into that file); a closed stdout is
  // remembered, to be reported if weft has something to print.
  StdoutBuffer();
  ~StdoutBuffer();
  StdoutBuffer(const StdoutBuffer&) = delete;
  StdoutBuffer& operator=(const StdoutBuffer&) = delete;

  // What stdout holds, for the error ("the report" unless said otherwise).
  void holds(std::string what) { what_ = std::move(what); }

  // Writes what was printed to stdout: "" or one line, "cannot write the report to
  // stdout: <why>". A reader gone (EPIPE) ends weft by SIGPIPE, as any filter whose
  // reader has gone ends.
  std::string flush();

 private:
  std::stringbuf buffer_;
  std::streambuf* previous_ = nullptr;
  bool closed_ = false;
  std::string what_ = "the report";
};

// SIGPIPE turned into EPIPE while weft runs: a write to a stderr whose reader has gone
// must not end weft in the middle of a run (its programs, its temporary directory). A
// handler, not SIG_IGN, which the program under test would inherit through exec.
void catch_broken_pipes();

}  // namespace weft::cli
