#pragma once
// The report for machines. The field names and types are a contract (the command line's
// --json, CI tooling); add fields, never rename or retype them.
//
// {
//   "version": 1, "program": string, "args": [string], "strategy": string,
//   "seed": uint, "executions": uint, "elapsed_s": number, "complete": bool,
//   "instrumented": bool,
//   "warnings": [string],
//   "coverage": {"kind": string, "complete": bool, "bound": int (-1: none),
//                "executions": uint, "classes": uint (happens-before classes; 0: not
//                counted), "nodes_created": uint, "peak_nodes": uint (systematic
//                strategies' execution tree, GAMBIT Figure 5; 0: none),
//                "summary": string},
//   "error": string,                                   (only when there is one)
//   "bugs": [{
//     "kind": string (bug_kind_name), "message": string, "thread": uint | null,
//     "execution": uint, "preemptions": uint, "steps": uint, "schedule": string,
//     "location": {"function": string, "file": string, "line": int},
//     "found_by": string, "hits": uint,
//     "minimized": {"done": bool (a schedule with fewer preemptions was found),
//                   "found_preemptions": uint, "found_steps": uint (the first find's),
//                   "executions": uint (the search's)}  (only when minimisation ran),
//     "blocked": [{"thread": uint, "op": string, "object": string, "object_name": string,
//                  "location": {"function", "file", "line"}}],
//     "race": {"address": string, "variable": string ("" unless a global),  (data-race)
//              "object_name": string (as the trace's),
//              "accesses": [{"thread": uint, "access": "read"|"write", "size": uint,
//                            "location": {...}}] (the earlier access, then the later)},
//     "trace": [{"step": uint (from 1), "thread": uint, "op": string,
//                "object": string ("0x..", "" for none),
//                "object_name": string (report/object_names.hpp: "counter",
//                  "table+8", "heap#2+16", "T1", "fd 3", else the address),
//                "size": uint (memory
//                accesses; 0 for the others),
//                "preemption": bool, "location": "file:line" ("" unknown),
//                "function": string,
//                "target": uint (only for thread-create/join/detach)}],
//     "thread_names": [{"thread": uint, "name": string}] (pthread_setname_np; named only),
//     "heap_objects": [{"name": "heap#<i>", "address": string, "size": uint,
//                       "thread": uint, "step": uint (steps before its allocation),
//                       "location": {...} (where it was allocated)}]
//   }],
//   "races": [ the same objects, kind "data-race" ]     (--races=report: not bugs)
// }
// Unknown strings are "", unknown lines 0. Addresses are hex strings: 64-bit values do not
// survive JSON readers that use doubles.
#include <string>
#include <vector>

#include "core/run_record.hpp"
#include "report/symbolizer.hpp"

namespace weft {

inline constexpr int kJsonReportVersion = 1;

// Pretty-printed with two-space indentation when `indent` is >= 0, one line when -1.
std::string format_json(const RunRecord& run, Symbolizer& symbolizer,
                        const std::string& program = "",
                        const std::vector<std::string>& args = {}, int indent = 2);

}  // namespace weft
