#pragma once
// weft's command line around CLI11: the command word, where weft's options end and the
// program's begin, and errors that name what was wrong and what is accepted.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace weft::cli {

// "" when `args` (argv without argv[0]) starts with a command of `app` or asks for help;
// else the error: no command, an unknown one (with a guess), an option before the command.
std::string command_problem(const CLI::App& app, const std::vector<std::string>& args);

// For a command that runs a program (run, replay, minimize): removes the first "--" from
// `args` and what follows it, which is the program's, returned.
std::vector<std::string> split_at_dashes(std::vector<std::string>& args);

// The program and its arguments, after `cmd` was parsed with prefix_command (so that its
// parsing stopped at the program's path, leaving it and what follows): those, then what
// followed "--". "" or the error (an unknown option before the program).
std::string take_program(const CLI::App& cmd, const std::vector<std::string>& after_dashes,
                         std::vector<std::string>* command);

// After CLI11's ExtrasError: the first argument no command took, named ("unknown option
// --jsn (did you mean --json?)", "unexpected argument 'x' for weft strategies").
std::string unexpected_argument(const CLI::App& app);

// After any other CLI11 ParseError: what was missing, named with what is accepted
// ("no schedule given; usage: ...", "--json needs a value (FILE)"), where CLI11 said
// "schedule is required" or "--json: 1 required TEXT missing"; else CLI11's text.
std::string parse_problem(const CLI::App& app, const std::string& what);

// The WEFT_* variables with a fixed set of values that weft reads from the user (the
// numbers are read where they are used): "" or the error naming the first bad one.
std::string environment_problem();

}  // namespace weft::cli
