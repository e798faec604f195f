#pragma once
// weft run's numeric options, read as the WEFT_* variables are (core/numbers.hpp) rather
// than by CLI11, whose reading takes "-1" for 2^64 - 1, "010" for 8 and lets "nan" through
// its range checks.
#include <CLI/CLI.hpp>

#include <string>
#include <type_traits>

#include "core/numbers.hpp"

namespace weft::cli {

// A CLI11 transform: the error names the value and what is accepted (CLI11 puts the
// option's name in front); a whole number is handed on in plain decimal.
template <typename Spec>
CLI::Validator number_option(const Spec& spec) {
  return CLI::Validator(
      [spec](std::string& text) -> std::string {
        if constexpr (std::is_same_v<Spec, WholeNumber>) {
          std::uint64_t v = 0;
          std::string error = read_number(text, spec, &v);
          if (error.empty()) text = std::to_string(v);
          return error;
        } else {
          double v = 0;
          return read_number(text, spec, &v);
        }
      },
      "");
}

}  // namespace weft::cli
