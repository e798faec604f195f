#pragma once
// What a schedule of weft::explore and WEFT_TEST records of the Options that shaped its
// execution (weft3, core/schedule.hpp), and how weft::replay and WEFT_REPLAY take them
// back, so that a replay runs the recorded execution whatever Options it is given.
// Named as weft run names them, without "--"; those at Options{}'s defaults left out.
#include <string>
#include <utility>
#include <vector>

#include "core/run_config.hpp"
#include "weft/weft.hpp"

namespace weft::explorer {

// The names and values are the table's (core/run_config.def), as weft run's schedules
// record them; Options' enums at their defaults read as not given.
OptionList recorded_options(const Options& o);

// *o with its execution options as recorded (those not named at their defaults); "" or
// one line naming an option or value this weft does not take.
std::string apply_recorded_options(const OptionList& recorded, Options* o);

}  // namespace weft::explorer
