#include "cli/command_line.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "weft/environment.hpp"

namespace weft::cli {
namespace {

// Edit distance with transpositions (optimal string alignment): "gbd" is one from "gdb".
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The one of `names` that `word` most likely misspells or abbreviates; "" if none is close.
std::string closest(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = word.size() <= 4 ? 1 : 2;
  std::vector<std::string> extended;
  for (const std::string& n : names) {
    if (n.starts_with(word)) extended.push_back(n);
    if (const std::size_t d = distance(word, n);
        d <= best_distance && (best.empty() || d < best_distance)) {
      best = n;
      best_distance = d;
    }
  }
  if (best.empty() && extended.size() == 1) return extended[0];
  return best;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

// "unknown option --strategey (did you mean --strategy?); see 'weft run --help'".
std::string unknown_option(const CLI::App& cmd, const std::string& arg) {
  const bool is_long = arg.starts_with("--");
  const std::string name = is_long ? arg.substr(0, arg.find('=')) : arg.substr(0, 2);
  std::vector<std::string> names;
  for (const CLI::Option* o : cmd.get_options())
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
  const std::string guess = is_long && name.size() > 3 ? closest(name, names) : "";
  const std::string help =
      cmd.get_parent() == nullptr ? "weft --help" : "weft " + cmd.get_name() + " --help";
  return "unknown option " + name + (guess.empty() ? "" : " (did you mean " + guess + "?)") +
         "; see '" + help + "'";
}

}  // namespace

std::string command_problem(const CLI::App& app, const std::vector<std::string>& args) {
  const std::vector<std::string> names = command_names(app);
  const std::string commands = "commands: " + join(names);
  if (args.empty()) return "no command given; " + commands + " (see 'weft --help')";
  const std::string& first = args[0];
  if (first == "-h" || first == "--help") return "";
  if (first.size() > 1 && first[0] == '-')
    return "unknown option " + first.substr(0, first.find('=')) +
           "; weft's options follow its command: weft run [OPTIONS] PROGRAM";
  if (std::find(names.begin(), names.end(), first) != names.end()) return "";
  const std::string guess = closest(first, names);
  return "unknown command '" + first + "'" +
         (guess.empty() ? "" : " (did you mean " + guess + "?)") + "; " + commands;
}

std::vector<std::string> split_at_dashes(std::vector<std::string>& args) {
  const auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes == args.end()) return {};
  std::vector<std::string> after(dashes + 1, args.end());
  args.erase(dashes, args.end());
  return after;
}

std::string take_program(const CLI::App& cmd, const std::vector<std::string>& after_dashes,
                         std::vector<std::string>* command) {
  std::vector<std::string> left = cmd.remaining();
  // prefix_command leaves an unknown option too, and goes on parsing: it comes first.
  if (!left.empty() && left[0].size() > 1 && left[0][0] == '-') return unknown_option(cmd, left[0]);
  // "--" after the program's path is one of its arguments.
  if (!left.empty() && !after_dashes.empty()) left.emplace_back("--");
  left.insert(left.end(), after_dashes.begin(), after_dashes.end());
  if (left.empty()) {
    // --check-output's FILE is optional: given no '--', it takes the program's path.
    const CLI::Option* check = cmd.get_option_no_throw("--check-output");
    const std::string taken =
        check != nullptr && check->count() != 0 ? check->as<std::string>() : "-";
    return "no program given; usage: weft " + cmd.get_name() +
           (cmd.get_name() == "run" ? "" : " FILE") + " [OPTIONS] [--] PROGRAM [ARGS...]" +
           (taken == "-" ? ""
                         : " (--check-output took '" + taken +
                               "' for its FILE: put '--' before the program)");
  }
  *command = std::move(left);
  return "";
}

std::string unexpected_argument(const CLI::App& app) {
  const CLI::App* cmd = &app;
  for (const CLI::App* sub : app.get_subcommands())
    if (!sub->remaining().empty()) cmd = sub;
  const std::vector<std::string> left = cmd->remaining();
  if (left.empty()) return "unexpected argument; see 'weft --help'";
  if (left[0].size() > 1 && left[0][0] == '-') return unknown_option(*cmd, left[0]);
  return "unexpected argument '" + left[0] + "' for weft " + cmd->get_name() + "; see 'weft " +
         cmd->get_name() + " --help'";
}

std::string parse_problem(const CLI::App& app, const std::string& what) {
  const CLI::App* cmd = &app;
  for (const CLI::App* sub : app.get_subcommands()) cmd = sub;
  const std::string name = cmd->get_name(), help = "; see 'weft " + name + " --help'";
  const std::string required = " is required";
  if (what.size() > required.size() && what.ends_with(required)) {
    const std::string missing = what.substr(0, what.size() - required.size());
    if (missing == "schedule")
      return "no schedule given; usage: weft " + name +
             " FILE|SCHEDULE [OPTIONS] [--] PROGRAM [ARGS...]";
    if (missing == "results") return "no result files given; usage: weft merge [OPTIONS] RESULT...";
    return "no " + missing + " given" + help;
  }
  // An option given last, without its value.
  if (const std::size_t colon = what.find(": ");
      colon != std::string::npos && what.ends_with(" missing") && what[0] == '-') {
    const std::string option = what.substr(0, colon);
    const CLI::Option* o = cmd->get_option_no_throw(option);
    const std::string text = o != nullptr ? o->get_option_text() : "";
    return option + " needs a value" + (text.empty() ? "" : " (" + text + ")") + help;
  }
  return what + " (see 'weft --help')";
}

std::string environment_problem() { return detail::fibers_error(); }

}  // namespace weft::cli
