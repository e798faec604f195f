#pragma once
// The execution tree of GAMBIT (Coons, Burckhardt, Musuvathi, PPoPP 2010, section 3.2):
// the engine every systematic strategy shares.
//
// A node is one execution, stored as a single delta from its parent's execution: "do
// what the parent did before decision `decision`, take `choice` there, then follow the
// default" (default_choice() for threads, 0 for values). The root is the all-default
// execution. Decisions are the calls to choose() and choose_value() of one execution, in
// order, numbered from 0: thread and value decisions share one index sequence.
//
// Only unexecuted nodes (the frontier) and the ancestors they need are alive: a node is
// held by its children and by the frontier, and frees itself, then its childless
// ancestors, when its subtree is done. The frontier is ordered by a priority (higher
// first), then depth-first: the deepest decision first, the smallest choice first, the
// newest first. With equal priorities that is exactly a depth-first search.
//
// A strategy plugs in a backtrack generator (which branches to add after an execution)
// and a priority (which branch runs next):
//
//   bool next_execution()  -> tree.start_execution()
//   choose / choose_value  -> tree.choose_thread(p) / tree.choose_value(n)
//   execution_done(trace)  -> for each alternative worth running: tree.branch(d, c, prio);
//                             then tree.finish_execution()
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/op.hpp"
#include "core/schedule.hpp"
#include "core/scheduling_point.hpp"
#include "core/shard.hpp"
#include "core/state_words.hpp"

namespace weft {

class ExecutionTree {
 public:
  struct Options {
    // Keep every decision's next ops (the lookahead DPOR needs); off for plain DFS.
    bool record_next_ops = false;
    // Remember the branches of each node so that branch() refuses a repeat. DFS adds
    // each alternative exactly once and does not need it; DPOR adds the same backtrack
    // point from several conflicts and does.
    bool track_branches = false;
  };

  // One decision of the current execution.
  struct Record {
    Decision::Kind kind = Decision::kThread;
    bool current_enabled = false;  // thread decisions: could `current` have continued?
    ThreadId current = kNoThread;  // thread decisions: who took the previous step
    std::uint32_t choice = 0;      // the thread run, or the value returned
    std::uint32_t options = 0;     // enabled threads, or n for a value decision
    std::uint32_t first = 0;       // thread decisions: offset in the enabled/op pools
    std::uint64_t step = 0;        // SchedulingPoint::step of this (or the last) thread decision
    bool in_region = false;        // thread decisions: SchedulingPoint::in_region
  };

  // With atomic regions (--no-preempt-in) a thread's move is its step and the steps it
  // then takes inside a region, alone: a sleeper must be woken by a step dependent on any
  // of them. `rest`: the ops after the first; unknown (another worker's or a checkpoint's
  // node) when !known.
  struct SiblingMove {
    bool known = false;
    std::span<const Op> rest;
  };

  // One edge of the tree: where an execution leaves its parent's.
  struct Delta {
    std::uint32_t decision = 0;
    std::uint32_t choice = 0;
    Decision::Kind kind = Decision::kThread;
  };

  // GAMBIT Figure 5: how much of the tree is in memory.
  struct Stats {
    std::uint64_t executions = 0;     // nodes executed (probes not included)
    std::uint64_t probes = 0;         // sharded: nodes run only to learn the split
    std::uint64_t nodes_created = 0;  // root included
    std::uint64_t nodes_alive = 0;
    std::uint64_t peak_alive = 0;
  };

  ExecutionTree();
  explicit ExecutionTree(Options options);
  ~ExecutionTree();
  ExecutionTree(const ExecutionTree&) = delete;
  ExecutionTree& operator=(const ExecutionTree&) = delete;

  // --- the search -------------------------------------------------------------------
  // Takes the best frontier node and prepares to replay it. false: the frontier is empty
  // (the space is exhausted). Must not be called while an execution is in progress.
  bool start_execution();
  // Ends the current execution: reports a branch that was never reached (the program did
  // not reproduce), and releases the node (freeing it if it got no children).
  void finish_execution();
  bool executing() const { return current_ != nullptr; }
  // Before the first execution: keep each decision's next ops (Options::record_next_ops).
  void set_record_next_ops(bool on) { options_.record_next_ops = on; }
  std::size_t frontier_size() const { return frontier_.size(); }

  // --- sharding (core/shard.hpp) -----------------------------------------------------
  // Before the first execution: this tree covers only `shard` of the space. The nodes
  // less than `split_depth` deltas below the root are shared: every shard runs them (a
  // shard that does not own one runs it as a probe, uncounted) and so knows their
  // branches. A branch hanging from a shared node belongs to the shard its path hashes
  // to; a shard keeps only its own at split_depth, and everything below its own. The
  // subtrees are disjoint and together the unsharded tree, provided a node's branches do
  // not depend on what other subtrees explored (TreeStrategy sees to that).
  void set_shard(const Shard& shard, std::uint32_t split_depth);
  bool sharded() const { return shard_.sharded(); }
  // The current execution is a probe: a shared node another shard owns.
  bool probing() const;
  // The current node is shared (sharded trees only): every shard runs it.
  bool current_shared() const;
  // Adds every alternative of every decision after first_new_decision(): each other
  // enabled thread, each other value.
  void branch_everything_new(std::int64_t priority);

  // --- a team of workers sharing one search (weft run --jobs) --------------------------
  // Work moves between the trees of the workers as paths from the root. A path's nodes
  // above the moved one become stubs here: never run, they stand for the node of the
  // worker that owns it, and a branch that hangs from a stub (a DPOR backtrack point
  // above the moved subtree) is forwarded to that worker instead of being added here.
  // `space` names the schedule space (its scheduling points): work of another is refused.
  void join_team(std::uint32_t worker, std::uint64_t space) {
    worker_ = worker;
    space_ = space;
    team_ = true;
  }
  bool in_team() const { return team_; }
  std::uint64_t space() const { return space_; }
  // Moves up to `max_nodes` frontier nodes, every other one from the worst end (in a
  // depth-first order, the biggest subtrees), into `out`, in at most `max_words` words;
  // a sharded tree's shared nodes stay. A moved node stays allocated here (its ancestors
  // must outlive the forwards that may come for them). Appends each one's priority to
  // *given; returns how many moved.
  std::uint64_t give(std::uint64_t max_nodes, std::size_t max_words,
                     std::vector<std::uint64_t>* out, std::vector<std::int64_t>* given);
  // Before the first execution: empties the frontier (the root), whose priorities go to
  // *given; the work will come from the other workers.
  void give_up_frontier(std::vector<std::int64_t>* given);
  // Adds the nodes give() wrote (another worker's) to the frontier; their priorities to
  // *taken. Work of another schedule space is ignored.
  void take(std::span<const std::uint64_t> words, std::vector<std::int64_t>* taken);
  // The branches found for stubs since the last call: records of kForwardWords words or
  // more, each [its length, worker it is for, ...] (with atomic regions, the move the
  // branch's parent made at its decision after them).
  void take_forwards(std::vector<std::uint64_t>* out) {
    out->insert(out->end(), forwards_.begin(), forwards_.end());
    forwards_.clear();
  }
  static constexpr std::size_t kForwardWords = 8;
  // Adds a branch another worker forwarded to this worker's node. false: not added (a
  // repeat, the node's own choice, another schedule space); *priority: its priority.
  bool adopt(std::span<const std::uint64_t> record, std::int64_t* priority);

  // --- checkpoints (Strategy::save_state) -------------------------------------------
  // Every node alive (their deltas and branches), the frontier and the counts; between
  // executions, or during one (`unfinished`: its node is saved as still in the frontier,
  // to run again). Not in a team (stubs stand for other processes' nodes).
  void save(bool unfinished, StateWriter& w) const;
  // Into a tree that has run nothing (its frontier is replaced). false: the words are not
  // a tree (a parent after its child, a node nothing holds, a count past the end...).
  bool load(StateReader& r);

  // --- during an execution ----------------------------------------------------------
  // The node's delta where it applies, the default everywhere else. If the delta cannot
  // be followed (its thread is not enabled, the decision is of the other kind, the value
  // is out of range), the program is not deterministic: the default is taken and
  // nondeterminism() says where.
  // `fallback`, when given, replaces default_choice(p) as the default: a strategy may use
  // any default that is a function of the execution so far (DPOR's avoids sleeping
  // threads); the same default must then be used whenever this tree replays.
  ThreadId choose_thread(const SchedulingPoint& p, ThreadId fallback = kNoThread);
  std::size_t choose_value(std::size_t n);
  // Right after a choice that followed the node's delta (else empty): the choices made at
  // that decision by the executions that branched there before it, the parent's own
  // first, then its earlier branches in the order they were added (those only with
  // track_branches). Sleep sets put these threads to sleep.
  std::span<const std::uint32_t> delta_siblings() const { return siblings_; }
  // Before the first execution (or at its first decision): sleep sets over moves that may
  // span atomic regions (SiblingMove). delta_siblings() are then the choices at that
  // decision of the parent and of the branches executed before the node began (their
  // moves known), and delta_sibling_moves() their moves, in the same order.
  void set_track_moves(bool on) { track_moves_ = on; }
  std::span<const SiblingMove> delta_sibling_moves() const { return sibling_moves_; }

  // --- after an execution, before finish_execution() ----------------------------------
  std::span<const Record> decisions() const { return records_; }
  // The first decision this execution did not inherit from its parent: the node's own
  // delta + 1 (0 for the root). Alternatives before it were added by an ancestor.
  // (At most the decisions made: a program that did not follow its schedule may end
  // before the node's own delta.)
  std::size_t first_new_decision() const { return std::min(first_new_, records_.size()); }
  std::span<const ThreadId> enabled(const Record& r) const;
  std::span<const Op> next_ops(const Record& r) const;  // empty unless record_next_ops
  // The current node's deltas, root first.
  std::span<const Delta> path() const { return path_; }

  // Adds the execution that agrees with the current one before `decision`, takes
  // `choice` there (another enabled thread, or another value in [0, n)), and then follows
  // the default. `decision` may lie before first_new_decision(): the branch then hangs
  // from the ancestor whose execution it extends (DPOR's backtrack points). false, and
  // nothing added, when that is the execution the ancestor itself ran, when the choice is
  // not one of the options, or (track_branches) when it was added before.
  bool branch(std::size_t decision, std::uint32_t choice, std::int64_t priority = 0);
  // Whether the execution that takes `choice` at `decision` (agreeing with the current one
  // before) is the ancestor's own or was added with branch() (track_branches only).
  bool has_branch(std::size_t decision, std::uint32_t choice) const;

  // --- reporting ----------------------------------------------------------------------
  const Stats& stats() const { return stats_; }
  // The first sign that the program is not deterministic under its schedule ("" if none),
  // one line; and how many executions showed one.
  const std::string& nondeterminism() const { return nondeterminism_; }
  // "<what>, but <nondeterminism>: no coverage claim": the summary when it is not empty.
  std::string no_claim(const std::string& what) const {
    return what + ", but " + nondeterminism_ + ": no coverage claim";
  }
  std::uint64_t nondeterministic_executions() const { return nondeterministic_executions_; }

 private:
  struct Node;
  struct Moves;
  struct Pool;
  struct Entry {
    std::int64_t priority;
    std::uint32_t decision;
    std::uint32_t choice;
    std::uint64_t seq;
    Node* node;
  };
  struct Replay {
    Delta delta;
    std::uint32_t check;  // options_hash at the decision when the branch was found
    const Node* node;
  };
  static bool worse(const Entry& a, const Entry& b);
  Node* allocate();
  void release(Node* node);
  void note_nondeterminism(std::size_t decision, const std::string& what);
  void note_siblings(const Node* node);
  void note_sibling_moves(const Node* node);
  template <typename F>
  void for_sibling_moves(const Node* node, std::uint64_t before, F&& f) const;
  // Teams: a path node's moves (note_sibling_moves) to words, and back (frozen).
  void put_moves(const Node* node, std::vector<std::uint64_t>* out) const;
  void take_moves(Node* node, std::span<const std::uint64_t> words);
  Moves& moves_of(Node* node);
  // The ops the thread chosen at `decision` took after its step there, alone in a region.
  std::vector<Op> move_rest(std::size_t decision) const;
  std::vector<std::uint64_t> replaced_move(std::size_t decision, std::uint32_t own) const;
  void take_replaced_move(Node* n, std::span<const std::uint64_t> words);
  void note_own_move();
  Node* owner(std::size_t decision, std::uint32_t* own) const;
  // Sharding: a node's depth, counted up to the split depth; whether every shard runs it;
  // the hash of its path; whether this shard owns it.
  std::uint32_t depth_to_split(const Node* node) const;
  bool shared(const Node* node) const;
  static std::uint64_t path_key(const Node* node);
  bool mine(const Node* node) const;
  std::uint32_t options_hash(const Record& r) const;
  // Teams: where a node lives in its owner's tree (a stub's owner, or this worker).
  struct Remote {
    std::uint64_t worker = 0;
    std::uint64_t node = 0;
  };
  Remote remote(const Node* node) const;
  // branch() and adopt(): the branch (decision, choice) from `at`, whose own choice there
  // is `own`, unless `at` has it, or another shard owns it; a stub's goes to its owner.
  // The node added to the frontier, else nullptr.
  Node* add_branch(Node* at, std::uint32_t decision, std::uint32_t choice, Decision::Kind kind,
                   std::uint32_t own, std::uint32_t check, std::int64_t priority,
                   std::span<const std::uint64_t> move = {});
  void forward(const Node* at, std::size_t decision, std::uint32_t choice, Decision::Kind kind,
               std::uint32_t own, std::uint32_t check, std::int64_t priority,
               std::span<const std::uint64_t> move);

  Options options_;
  std::unique_ptr<Pool> pool_;
  std::vector<Entry> frontier_;  // a heap: the best entry at the front
  std::uint64_t seq_ = 0;
  Node* current_ = nullptr;
  Entry current_entry_{};  // how current_ was in the frontier (a checkpoint puts it back)
  std::vector<Replay> replay_;
  std::vector<Delta> path_;
  std::size_t cursor_ = 0;
  std::size_t first_new_ = 0;
  std::vector<Record> records_;
  std::vector<std::uint32_t> siblings_;
  std::vector<SiblingMove> sibling_moves_;
  bool track_moves_ = false;
  std::uint64_t run_seq_ = 0;  // start_execution()s so far (track_moves_: who ran before whom)
  std::vector<ThreadId> enabled_pool_;
  std::vector<Op> op_pool_;
  std::uint64_t last_step_ = 0;
  bool diverged_ = false;  // this execution showed nondeterminism
  Stats stats_;
  Shard shard_;
  std::uint32_t split_depth_ = 0;
  std::string nondeterminism_;
  std::uint64_t nondeterministic_executions_ = 0;
  bool team_ = false;
  std::uint32_t worker_ = 0;
  std::uint64_t space_ = 0;
  std::unordered_map<const Node*, Remote> stubs_;  // each stub's node in its owner's tree
  std::vector<std::uint64_t> forwards_;
};

}  // namespace weft
