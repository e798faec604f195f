#include "strategy/execution_tree.hpp"

#include <algorithm>
#include <cstring>
#include <cassert>
#include <unordered_set>

namespace weft {

namespace {

constexpr std::uint32_t kRootDecision = 0xffffffffu;

// A fingerprint of a decision's options (its kind, and the enabled threads or n): a
// replayed branch whose decision shows other options means the program went elsewhere.
std::uint32_t hash_options(Decision::Kind kind, std::span<const ThreadId> enabled,
                           std::uint64_t n) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ (static_cast<std::uint64_t>(kind) << 56) ^ n;
  for (ThreadId t : enabled) h = (h ^ t) * 0x100000001b3ull;
  h ^= h >> 29;
  h *= 0xbf58476d1ce4e5b9ull;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

constexpr std::uint64_t kRootKey = 0x5eed5eed5eed5eedull;

// A stable hash of a path: the same on every shard and every run.
std::uint64_t split_key(std::uint64_t parent, std::uint32_t decision, std::uint32_t choice,
                        Decision::Kind kind) {
  std::uint64_t h = parent ^ (static_cast<std::uint64_t>(decision) << 20) ^ choice ^
                    (static_cast<std::uint64_t>(kind) << 62);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

std::string list_threads(std::span<const ThreadId> threads) {
  std::string s;
  for (ThreadId t : threads) {
    if (!s.empty()) s += ' ';
    s += std::to_string(t);
  }
  return s;
}

}  // namespace

// What sleep sets over atomic regions need of a node (ExecutionTree::SiblingMove): the
// move its parent made at its decision, when it ran, and the moves its children made at
// theirs once they ran (in the order they ran).
struct ExecutionTree::Moves {
  struct Branch {
    std::uint32_t decision = 0;
    std::uint32_t choice = 0;
    std::uint64_t ran = 0;  // the child's run_seq_
    std::vector<Op> rest;
  };
  bool replaced_known = false;
  std::vector<Op> replaced_rest;
  std::uint64_t ran = 0;  // run_seq_ when it began (0: not here)
  std::vector<Branch> branches;
  // Taken from another worker: its siblings' moves as its owner knew them.
  bool frozen = false;
  std::vector<Branch> siblings;
};

struct ExecutionTree::Node {
  Node* parent = nullptr;                        // also the free list's link
  std::unique_ptr<std::vector<Delta>> branches;  // track_branches only
  std::uint32_t decision = kRootDecision;
  std::uint32_t choice = 0;
  std::uint32_t replaced = 0;  // what the parent's execution chose at `decision`
  std::uint32_t check = 0;     // options hash at `decision` when the branch was found
  std::uint32_t refs = 0;      // children alive + 1 while in the frontier or executing
  Decision::Kind kind = Decision::kThread;
  bool stub = false;             // another worker's node (stubs_ says which)
  std::unique_ptr<Moves> moves;  // track_moves_ only
};

// Nodes come from fixed chunks and return to a free list: no allocation per node once
// the tree has reached its peak size.
struct ExecutionTree::Pool {
  static constexpr std::size_t kChunk = 1024;
  std::vector<std::unique_ptr<Node[]>> chunks;
  std::size_t used_in_last = kChunk;
  Node* free_list = nullptr;
};

ExecutionTree::ExecutionTree(Options options) : options_(options), pool_(std::make_unique<Pool>()) {
  Node* root = allocate();
  root->refs = 1;
  frontier_.push_back(Entry{0, kRootDecision, 0, seq_++, root});
}

ExecutionTree::ExecutionTree() : ExecutionTree(Options{}) {}

ExecutionTree::~ExecutionTree() = default;

ExecutionTree::Node* ExecutionTree::allocate() {
  Node* n;
  if (pool_->free_list != nullptr) {
    n = pool_->free_list;
    pool_->free_list = n->parent;
  } else {
    if (pool_->used_in_last == Pool::kChunk) {
      pool_->chunks.push_back(std::make_unique<Node[]>(Pool::kChunk));
      pool_->used_in_last = 0;
    }
    n = &pool_->chunks.back()[pool_->used_in_last++];
  }
  *n = Node{};
  ++stats_.nodes_created;
  stats_.peak_alive = std::max(stats_.peak_alive, ++stats_.nodes_alive);
  return n;
}

// Drops one hold on `node`; a node nobody holds frees itself and drops its hold on its
// parent (GAMBIT's Detach).
void ExecutionTree::release(Node* node) {
  while (node != nullptr && --node->refs == 0) {
    Node* parent = node->parent;
    node->branches.reset();
    node->moves.reset();
    if (node->stub) stubs_.erase(node);
    node->parent = pool_->free_list;
    pool_->free_list = node;
    --stats_.nodes_alive;
    node = parent;
  }
}

bool ExecutionTree::worse(const Entry& a, const Entry& b) {
  if (a.priority != b.priority) return a.priority < b.priority;
  // The root's decision (all ones) never competes: it is alone in the first frontier.
  if (a.decision != b.decision) return a.decision < b.decision;
  if (a.choice != b.choice) return a.choice > b.choice;
  return a.seq < b.seq;
}

bool ExecutionTree::start_execution() {
  assert(current_ == nullptr && "finish_execution() first");
  if (frontier_.empty()) return false;
  std::pop_heap(frontier_.begin(), frontier_.end(), worse);
  current_entry_ = frontier_.back();
  current_ = current_entry_.node;
  frontier_.pop_back();

  replay_.clear();
  for (Node* n = current_; n->parent != nullptr; n = n->parent)
    replay_.push_back(Replay{Delta{n->decision, n->choice, n->kind}, n->check, n});
  std::reverse(replay_.begin(), replay_.end());
  path_.clear();
  for (const Replay& r : replay_) path_.push_back(r.delta);
  cursor_ = 0;
  first_new_ = replay_.empty() ? 0 : replay_.back().delta.decision + 1;
  records_.clear();
  enabled_pool_.clear();
  op_pool_.clear();
  last_step_ = 0;
  diverged_ = false;
  ++(mine(current_) ? stats_.executions : stats_.probes);
  if (track_moves_) moves_of(current_).ran = ++run_seq_;
  return true;
}

void ExecutionTree::set_shard(const Shard& shard, std::uint32_t split_depth) {
  assert(stats_.executions + stats_.probes == 0 && "set_shard() before the first execution");
  shard_ = shard;
  split_depth_ = shard.sharded() ? split_depth : 0;
}

// What sharding needs of a node is derived from its few ancestors (the split depth is
// small), not stored in every node of every search.
std::uint32_t ExecutionTree::depth_to_split(const Node* node) const {
  std::uint32_t depth = 0;
  for (; node->parent != nullptr && depth < split_depth_; node = node->parent) ++depth;
  return depth;
}

bool ExecutionTree::shared(const Node* node) const { return depth_to_split(node) < split_depth_; }

std::uint64_t ExecutionTree::path_key(const Node* node) {
  return node->parent == nullptr
             ? kRootKey
             : split_key(path_key(node->parent), node->decision, node->choice, node->kind);
}

// A node below the split depth exists here only below one of this shard's own.
bool ExecutionTree::mine(const Node* node) const {
  return !shared(node) || path_key(node) % shard_.count == shard_.index;
}

bool ExecutionTree::probing() const { return current_ != nullptr && !mine(current_); }

bool ExecutionTree::current_shared() const { return current_ != nullptr && shared(current_); }

void ExecutionTree::branch_everything_new(std::int64_t priority) {
  for (std::size_t d = first_new_; d < records_.size(); ++d) {
    const Record& r = records_[d];
    if (r.kind == Decision::kThread) {
      for (ThreadId t : enabled(r)) branch(d, t, priority);
    } else {
      for (std::uint32_t v = 0; v < r.options; ++v) branch(d, v, priority);
    }
  }
}

void ExecutionTree::note_nondeterminism(std::size_t decision, const std::string& what) {
  if (!diverged_) {
    diverged_ = true;
    ++nondeterministic_executions_;
  }
  if (nondeterminism_.empty())
    nondeterminism_ = "not reproducible: execution " + std::to_string(stats_.executions) +
                      ", decision " + std::to_string(decision) + ": " + what +
                      "; the program does not behave the same under the same schedule";
}

ThreadId ExecutionTree::choose_thread(const SchedulingPoint& p, ThreadId fallback) {
  const std::size_t index = records_.size();
  ThreadId pick = fallback != kNoThread ? fallback : default_choice(p);
  siblings_.clear();
  sibling_moves_.clear();
  if (cursor_ < replay_.size() && replay_[cursor_].delta.decision == index) {
    const Replay& r = replay_[cursor_++];
    note_siblings(r.node);
    if (r.delta.kind != Decision::kThread) {
      note_nondeterminism(index, "a value choice was expected, a thread choice came");
    } else if (!p.is_enabled(r.delta.choice)) {
      note_nondeterminism(
          index, "thread " + std::to_string(r.delta.choice) +
                     " should run but is not enabled (enabled: " + list_threads(p.enabled) + ")");
    } else {
      pick = r.delta.choice;
      if (hash_options(Decision::kThread, p.enabled, p.enabled.size()) != r.check)
        note_nondeterminism(index, "the enabled threads (" + list_threads(p.enabled) +
                                       ") differ from those when this branch was found");
    }
  }
  Record rec;
  rec.kind = Decision::kThread;
  rec.current = p.current;
  rec.current_enabled = p.current_enabled;
  rec.choice = pick;
  rec.options = static_cast<std::uint32_t>(p.enabled.size());
  rec.first = static_cast<std::uint32_t>(enabled_pool_.size());
  rec.step = last_step_ = p.step;
  rec.in_region = p.in_region;
  records_.push_back(rec);
  enabled_pool_.insert(enabled_pool_.end(), p.enabled.begin(), p.enabled.end());
  if (options_.record_next_ops)
    op_pool_.insert(op_pool_.end(), p.next_ops.begin(), p.next_ops.end());
  return pick;
}

void ExecutionTree::note_siblings(const Node* node) {
  if (track_moves_) return note_sibling_moves(node);
  siblings_.push_back(node->replaced);
  if (!node->parent->branches) return;
  for (const Delta& d : *node->parent->branches) {
    if (d.decision != node->decision) continue;
    if (d.choice == node->choice) break;
    siblings_.push_back(d.choice);
  }
}

// The branches at node's decision that ran before run `before`, as this worker knows them,
// or as the worker the node came from did.
template <typename F>
void ExecutionTree::for_sibling_moves(const Node* node, std::uint64_t before, F&& f) const {
  const Moves* own = node->moves.get();
  if (own != nullptr && own->frozen) {
    for (const Moves::Branch& b : own->siblings) f(b);
    return;
  }
  const Moves* at = node->parent->moves.get();
  if (at == nullptr) return;
  for (const Moves::Branch& b : at->branches)
    if (b.decision == node->decision && b.ran < before && b.choice != node->choice) f(b);
}

// Sleep sets over moves (track_moves_): the parent's choice, and the branches at the same
// decision that ran before the node began, whose moves are known. A function of the tree,
// so that every replay of the node's prefix puts the same threads to sleep.
void ExecutionTree::note_sibling_moves(const Node* node) {
  sibling_moves_.clear();
  const Moves* own = node->moves.get();
  siblings_.push_back(node->replaced);
  sibling_moves_.push_back(own != nullptr && own->replaced_known
                               ? SiblingMove{true, own->replaced_rest}
                               : SiblingMove{});
  for_sibling_moves(node, own != nullptr ? own->ran : 0, [&](const Moves::Branch& b) {
    siblings_.push_back(b.choice);
    sibling_moves_.push_back(SiblingMove{true, b.rest});
  });
}

namespace {
constexpr std::size_t kOpWords = (sizeof(Op) + 7) / 8;

void put_ops(std::span<const Op> ops, std::vector<std::uint64_t>* out) {
  out->push_back(ops.size());
  for (const Op& op : ops) {
    std::uint64_t w[kOpWords] = {};
    std::memcpy(w, &op, sizeof op);
    out->insert(out->end(), w, w + kOpWords);
  }
}

// false: the words end too soon.
bool take_ops(std::span<const std::uint64_t> words, std::size_t* at, std::vector<Op>* ops) {
  if (*at >= words.size()) return false;
  const std::uint64_t n = words[(*at)++];
  if (n > (words.size() - *at) / kOpWords) return false;
  ops->resize(n);
  for (Op& op : *ops) {
    std::memcpy(static_cast<void*>(&op), &words[*at], sizeof op);  // Op is plain words
    *at += kOpWords;
  }
  return true;
}
}  // namespace

// [replaced known, its rest, siblings, per sibling: choice, its rest]: what the node's
// replays here put to sleep at its decision (for a frontier node, all that ran so far).
void ExecutionTree::put_moves(const Node* node, std::vector<std::uint64_t>* out) const {
  const Moves* own = node->moves.get();
  const bool known = own != nullptr && own->replaced_known;
  out->push_back(known ? 1 : 0);
  put_ops(known ? std::span<const Op>(own->replaced_rest) : std::span<const Op>(), out);
  const std::size_t count = out->size();
  out->push_back(0);
  // Not begun here (the frontier node given): every branch that ran is explored.
  const std::uint64_t before = own != nullptr && own->ran != 0 ? own->ran : run_seq_ + 1;
  for_sibling_moves(node, before, [&](const Moves::Branch& b) {
    ++(*out)[count];
    out->push_back(b.choice);
    put_ops(b.rest, out);
  });
}

void ExecutionTree::take_moves(Node* node, std::span<const std::uint64_t> words) {
  Moves& m = moves_of(node);
  m.frozen = true;
  std::size_t at = 0;
  if (words.empty()) return;
  m.replaced_known = words[at++] != 0;
  if (!take_ops(words, &at, &m.replaced_rest)) m.replaced_known = false;
  if (at >= words.size()) return;
  const std::uint64_t n = words[at++];
  for (std::uint64_t i = 0; i < n && at < words.size(); ++i) {
    Moves::Branch b;
    b.decision = node->decision;
    b.choice = static_cast<std::uint32_t>(words[at++]);
    if (!take_ops(words, &at, &b.rest)) return;
    m.siblings.push_back(std::move(b));
  }
}

ExecutionTree::Moves& ExecutionTree::moves_of(Node* node) {
  if (!node->moves) node->moves = std::make_unique<Moves>();
  return *node->moves;
}

std::vector<Op> ExecutionTree::move_rest(std::size_t decision) const {
  std::vector<Op> rest;
  const std::uint32_t t = records_[decision].choice;
  for (std::size_t k = decision + 1; k < records_.size(); ++k) {
    const Record& r = records_[k];
    if (r.kind != Decision::kThread) continue;  // a value chosen inside the region
    if (!r.in_region || r.choice != t) break;
    const auto en = enabled(r);
    const auto ops = next_ops(r);
    for (std::size_t i = 0; i < en.size() && i < ops.size(); ++i)
      if (en[i] == t) rest.push_back(ops[i]);
  }
  return rest;
}

// A new branch at `decision` replacing `own`: the move made there, as words [known, its
// rest (put_ops)], if this execution made it (or this node's parent did, the branch being
// its sibling).
std::vector<std::uint64_t> ExecutionTree::replaced_move(std::size_t decision,
                                                        std::uint32_t own) const {
  std::vector<std::uint64_t> words{1};
  if (records_[decision].choice == own) {
    put_ops(move_rest(decision), &words);
  } else if (decision == current_->decision && current_->moves && current_->moves->replaced_known) {
    put_ops(current_->moves->replaced_rest, &words);
  } else {
    words = {0, 0};
  }
  return words;
}

// The node's replaced move from words replaced_move() wrote.
void ExecutionTree::take_replaced_move(Node* n, std::span<const std::uint64_t> words) {
  Moves& m = moves_of(n);
  std::size_t at = 1;
  m.replaced_known = !words.empty() && words[0] != 0 && take_ops(words, &at, &m.replaced_rest);
}

// The move this execution made at its node's own decision, for the siblings that run next.
void ExecutionTree::note_own_move() {
  Node* n = current_;
  if (n->parent == nullptr || n->kind != Decision::kThread || n->decision >= records_.size() ||
      records_[n->decision].kind != Decision::kThread || records_[n->decision].choice != n->choice)
    return;
  moves_of(n->parent).branches.push_back(
      Moves::Branch{n->decision, n->choice, moves_of(n).ran, move_rest(n->decision)});
}

std::size_t ExecutionTree::choose_value(std::size_t n) {
  const std::size_t index = records_.size();
  std::size_t pick = 0;
  siblings_.clear();
  sibling_moves_.clear();
  if (cursor_ < replay_.size() && replay_[cursor_].delta.decision == index) {
    const Replay& r = replay_[cursor_++];
    if (r.delta.kind != Decision::kValue) {
      note_nondeterminism(index, "a thread choice was expected, a value choice came");
    } else if (r.delta.choice >= n) {
      note_nondeterminism(index, "value " + std::to_string(r.delta.choice) +
                                     " should be chosen but only " + std::to_string(n) +
                                     " are possible");
    } else {
      pick = r.delta.choice;
      if (hash_options(Decision::kValue, {}, n) != r.check)
        note_nondeterminism(index, "a choice among " + std::to_string(n) +
                                       " values differs from when this branch was found");
    }
  }
  Record rec;
  rec.kind = Decision::kValue;
  rec.choice = static_cast<std::uint32_t>(pick);
  rec.options = static_cast<std::uint32_t>(n);
  rec.first = static_cast<std::uint32_t>(enabled_pool_.size());
  rec.step = last_step_;
  records_.push_back(rec);
  return pick;
}

std::span<const ThreadId> ExecutionTree::enabled(const Record& r) const {
  if (r.kind != Decision::kThread) return {};
  return std::span<const ThreadId>(enabled_pool_).subspan(r.first, r.options);
}

std::span<const Op> ExecutionTree::next_ops(const Record& r) const {
  if (r.kind != Decision::kThread || !options_.record_next_ops) return {};
  return std::span<const Op>(op_pool_).subspan(r.first, r.options);
}

std::uint32_t ExecutionTree::options_hash(const Record& r) const {
  return hash_options(r.kind, enabled(r), r.options);
}

// The deepest node whose own delta comes before `decision`: the current execution agrees
// with that node's execution up to `decision` (exclusive), so branches there hang from
// it. *own: what that node's execution chose at `decision`.
ExecutionTree::Node* ExecutionTree::owner(std::size_t decision, std::uint32_t* own) const {
  Node* at = current_;
  Node* below = nullptr;  // the child of `at` on the way to current_
  while (at->parent != nullptr && at->decision >= decision) {
    below = at;
    at = at->parent;
  }
  // The current choice, unless `below` replaced it.
  *own = (below == nullptr || below->decision > decision) ? records_[decision].choice
                                                          : below->replaced;
  return at;
}

bool ExecutionTree::has_branch(std::size_t decision, std::uint32_t choice) const {
  if (current_ == nullptr || decision >= records_.size()) return false;
  std::uint32_t own = 0;
  const Node* at = owner(decision, &own);
  if (choice == own) return true;
  if (at->branches)
    for (const Delta& d : *at->branches)
      if (d.decision == decision && d.choice == choice) return true;
  return false;
}

bool ExecutionTree::branch(std::size_t decision, std::uint32_t choice, std::int64_t priority) {
  assert(current_ != nullptr && "branch() belongs between start_ and finish_execution()");
  if (current_ == nullptr || decision >= records_.size()) return false;
  const Record& r = records_[decision];
  if (r.kind == Decision::kThread) {
    const auto en = enabled(r);
    if (std::find(en.begin(), en.end(), choice) == en.end()) return false;
  } else if (choice >= r.options) {
    return false;
  }

  std::uint32_t own = 0;
  Node* at = owner(decision, &own);
  const auto move = track_moves_ && r.kind == Decision::kThread ? replaced_move(decision, own)
                                                                : std::vector<std::uint64_t>{};
  return add_branch(at, static_cast<std::uint32_t>(decision), choice, r.kind, own, options_hash(r),
                    priority, move) != nullptr;
}

ExecutionTree::Node* ExecutionTree::add_branch(Node* at, std::uint32_t decision,
                                               std::uint32_t choice, Decision::Kind kind,
                                               std::uint32_t own, std::uint32_t check,
                                               std::int64_t priority,
                                               std::span<const std::uint64_t> move) {
  if (choice == own) return nullptr;
  if (options_.track_branches) {
    if (!at->branches) at->branches = std::make_unique<std::vector<Delta>>();
    for (const Delta& d : *at->branches)
      if (d.decision == decision && d.choice == choice) return nullptr;
    at->branches->push_back(Delta{decision, choice, kind});
  }

  // Sharded: a branch from a shared node is a split point; at the split depth only its
  // owner keeps it (recorded above all the same: has_branch() must see it taken care of).
  if (const std::uint32_t depth = depth_to_split(at);
      depth + 1 >= split_depth_ && depth < split_depth_ &&
      split_key(path_key(at), decision, choice, kind) % shard_.count != shard_.index)
    return nullptr;

  // A stub's branch is its owner's to add (and to tell from one it has).
  if (at->stub) {
    forward(at, decision, choice, kind, own, check, priority, move);
    return nullptr;
  }

  Node* n = allocate();
  n->parent = at;
  ++at->refs;
  n->decision = decision;
  n->choice = choice;
  n->replaced = own;
  n->check = check;
  n->kind = kind;
  n->refs = 1;
  if (!move.empty()) take_replaced_move(n, move);
  frontier_.push_back(Entry{priority, n->decision, choice, seq_++, n});
  std::push_heap(frontier_.begin(), frontier_.end(), worse);
  return n;
}

void ExecutionTree::finish_execution() {
  if (current_ == nullptr) return;
  if (cursor_ < replay_.size()) {
    const Delta& d = replay_[cursor_].delta;
    note_nondeterminism(d.decision, "the execution ended after " + std::to_string(records_.size()) +
                                        " decisions, before this branch's decision");
  }
  // A node is at most as deep as the decisions of the execution it branched from: sized
  // now, replaying a deeper node later allocates nothing.
  if (replay_.capacity() < records_.size()) {
    replay_.reserve(records_.capacity());
    path_.reserve(records_.capacity());
  }
  if (track_moves_) note_own_move();
  Node* done = current_;
  current_ = nullptr;
  release(done);
}

// --- checkpoints ------------------------------------------------------------------------
//
// save() writes: [tag, nodes, per node (parents first): parent index + 1 (0: the root),
// decision | choice << 32, replaced | check << 32, kind, branches, per branch: decision |
// choice << 32, kind], [frontier entries, per entry: priority, seq, node index], then
// seq_, the stats, the nondeterminism line and count. The frontier is a heap whose order
// is total (seq breaks ties): rebuilt, it gives the same order.
namespace {
constexpr std::uint64_t kTreeTag = 0x7765667474726565ull;  // "wefttree"
constexpr std::uint64_t kNodeWords = 5, kBranchWords = 2, kEntryWords = 3;
}  // namespace

void ExecutionTree::save(bool unfinished, StateWriter& w) const {
  assert(!team_ && "a team's tree is not saved alone");
  // Alive nodes hold a reference (free ones none); numbered parents first, by depth.
  std::vector<const Node*> alive;
  for (std::size_t c = 0; c < pool_->chunks.size(); ++c) {
    const std::size_t used = c + 1 == pool_->chunks.size() ? pool_->used_in_last : Pool::kChunk;
    for (std::size_t i = 0; i < used; ++i)
      if (pool_->chunks[c][i].refs != 0) alive.push_back(&pool_->chunks[c][i]);
  }
  std::unordered_map<const Node*, std::uint64_t> depth;
  for (const Node* n : alive) {
    std::vector<const Node*> up;
    const Node* at = n;
    for (; at != nullptr && !depth.count(at); at = at->parent) up.push_back(at);
    std::uint64_t d = at == nullptr ? 0 : depth[at] + 1;
    for (auto it = up.rbegin(); it != up.rend(); ++it) depth[*it] = d++;
  }
  std::stable_sort(alive.begin(), alive.end(),
                   [&](const Node* a, const Node* b) { return depth[a] < depth[b]; });
  std::unordered_map<const Node*, std::uint64_t> index;
  for (std::size_t i = 0; i < alive.size(); ++i) index[alive[i]] = i;
  w.put(kTreeTag);
  w.put(alive.size());
  for (const Node* n : alive) {
    w.put(n->parent == nullptr ? 0 : index.at(n->parent) + 1);
    w.put(n->decision | (std::uint64_t{n->choice} << 32));
    w.put(n->replaced | (std::uint64_t{n->check} << 32));
    w.put(n->kind);
    w.put(n->branches ? n->branches->size() : 0);
    if (n->branches)
      for (const Delta& d : *n->branches) {
        w.put(d.decision | (std::uint64_t{d.choice} << 32));
        w.put(d.kind);
      }
  }
  const bool again = unfinished && current_ != nullptr;
  w.put(frontier_.size() + (again ? 1 : 0));
  auto put_entry = [&](const Entry& e) {
    w.put_signed(e.priority);
    w.put(e.seq);
    w.put(index.at(e.node));
  };
  for (const Entry& e : frontier_) put_entry(e);
  if (again) put_entry(current_entry_);
  const bool counted = again && mine(current_);
  w.put(seq_);
  w.put(stats_.executions - (counted ? 1 : 0));
  w.put(stats_.probes - (again && !counted ? 1 : 0));
  w.put(stats_.nodes_created);
  w.put(stats_.peak_alive);
  w.put_string(nondeterminism_);
  w.put(nondeterministic_executions_);
}

bool ExecutionTree::load(StateReader& r) {
  if (current_ != nullptr || stats_.executions + stats_.probes != 0) return false;
  for (const Entry& e : frontier_) release(e.node);
  frontier_.clear();
  if (r.get() != kTreeTag) return false;
  const std::uint64_t n = r.get_count(kNodeWords);
  std::vector<Node*> nodes;
  nodes.reserve(n);
  for (std::uint64_t i = 0; i < n && r.ok(); ++i) {
    const std::uint64_t parent = r.get_at_most(i);  // an earlier node, or none
    Node* node = allocate();
    nodes.push_back(node);
    if ((parent == 0) != (i == 0)) r.fail();  // node 0, and it alone, is the root
    if (parent != 0) {
      node->parent = nodes[parent - 1];
      ++node->parent->refs;
    }
    const std::uint64_t dc = r.get(), rc = r.get();
    node->decision = static_cast<std::uint32_t>(dc);
    node->choice = static_cast<std::uint32_t>(dc >> 32);
    node->replaced = static_cast<std::uint32_t>(rc);
    node->check = static_cast<std::uint32_t>(rc >> 32);
    node->kind = static_cast<Decision::Kind>(r.get_at_most(Decision::kValue));
    // The root's decision is none; a node's delta lies past its parent's.
    const Node* up = node->parent;
    if (up == nullptr ? node->decision != kRootDecision
                      : node->decision == kRootDecision ||
                            (up->parent != nullptr && node->decision <= up->decision))
      r.fail();
    const std::uint64_t branches = r.get_count(kBranchWords);
    if (branches != 0) node->branches = std::make_unique<std::vector<Delta>>();
    for (std::uint64_t b = 0; b < branches && r.ok(); ++b) {
      const std::uint64_t bc = r.get();
      node->branches->push_back(
          Delta{static_cast<std::uint32_t>(bc), static_cast<std::uint32_t>(bc >> 32),
                static_cast<Decision::Kind>(r.get_at_most(Decision::kValue))});
    }
  }
  const std::uint64_t entries = r.get_count(kEntryWords);
  std::vector<bool> waiting(nodes.size(), false);
  for (std::uint64_t i = 0; i < entries && r.ok(); ++i) {
    const std::int64_t priority = r.get_signed();
    const std::uint64_t seq = r.get();
    const std::uint64_t at = r.get_at_most(nodes.empty() ? 0 : nodes.size() - 1);
    if (!r.ok() || nodes.empty() || waiting[at]) {
      r.fail();
      break;
    }
    waiting[at] = true;
    Node* node = nodes[at];
    ++node->refs;
    frontier_.push_back(Entry{priority, node->decision, node->choice, seq, node});
  }
  std::make_heap(frontier_.begin(), frontier_.end(), worse);
  seq_ = r.get();
  stats_.executions = r.get();
  stats_.probes = r.get();
  stats_.nodes_created = r.get();
  stats_.peak_alive = std::max<std::uint64_t>(r.get(), stats_.nodes_alive);
  nondeterminism_ = r.get_string();
  nondeterministic_executions_ = r.get();
  // A node nothing holds would never be freed nor run: not a tree a search left.
  for (const Node* node : nodes)
    if (node->refs == 0) r.fail();
  for (const Entry& e : frontier_)
    if (e.seq >= seq_) r.fail();
  return r.ok();
}

// --- teams ------------------------------------------------------------------------------
//
// give() writes, per node: [words, priority, path length, then per path node from the
// root: owner worker, owner's node, decision | choice << 32, replaced | check << 32,
// kind | siblings << 8, the siblings (the choices branched at its decision before it)].
namespace {
constexpr std::size_t kNodeHead = 3, kPathHead = 5;
}

ExecutionTree::Remote ExecutionTree::remote(const Node* node) const {
  if (node->stub) return stubs_.at(node);
  return Remote{worker_, reinterpret_cast<std::uintptr_t>(node)};
}

void ExecutionTree::forward(const Node* at, std::size_t decision, std::uint32_t choice,
                            Decision::Kind kind, std::uint32_t own, std::uint32_t check,
                            std::int64_t priority, std::span<const std::uint64_t> move) {
  const Remote to = remote(at);
  const std::uint64_t record[kForwardWords] = {
      kForwardWords + move.size(),
      to.worker,
      space_,
      to.node,
      decision | (std::uint64_t{choice} << 32),
      static_cast<std::uint64_t>(kind) | (std::uint64_t{own} << 32),
      check,
      static_cast<std::uint64_t>(priority)};
  forwards_.insert(forwards_.end(), record, record + kForwardWords);
  forwards_.insert(forwards_.end(), move.begin(), move.end());
}

std::uint64_t ExecutionTree::give(std::uint64_t max_nodes, std::size_t max_words,
                                  std::vector<std::uint64_t>* out,
                                  std::vector<std::int64_t>* given) {
  std::vector<Entry> movable;
  for (const Entry& e : frontier_)
    if (!shared(e.node)) movable.push_back(e);
  std::sort(movable.begin(), movable.end(),
            [](const Entry& a, const Entry& b) { return worse(b, a); });
  max_nodes = std::min<std::uint64_t>(max_nodes, movable.size() / 2);
  std::unordered_set<const Node*> moved;
  std::vector<const Node*> path;
  const std::size_t start = out->size();
  for (std::size_t i = movable.size(); i >= 2 && moved.size() < max_nodes; i -= 2) {
    const Entry& e = movable[i - 1];
    path.clear();
    for (const Node* n = e.node; n != nullptr; n = n->parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
    const std::size_t at = out->size();
    out->resize(at + kNodeHead);
    (*out)[at + 1] = static_cast<std::uint64_t>(e.priority);
    (*out)[at + 2] = path.size();
    for (const Node* n : path) {
      const Remote r = remote(n);
      std::vector<std::uint32_t> siblings;
      if (n->parent != nullptr && n->parent->branches)
        for (const Delta& d : *n->parent->branches) {
          if (d.decision != n->decision) continue;
          if (d.choice == n->choice) break;
          siblings.push_back(d.choice);
        }
      out->push_back(r.worker);
      out->push_back(r.node);
      out->push_back(n->decision | (std::uint64_t{n->choice} << 32));
      out->push_back(n->replaced | (std::uint64_t{n->check} << 32));
      std::vector<std::uint64_t> moves;
      if (track_moves_ && n->parent != nullptr) put_moves(n, &moves);
      out->push_back(static_cast<std::uint64_t>(n->kind) | (std::uint64_t{siblings.size()} << 8) |
                     (std::uint64_t{moves.size()} << 32));
      out->insert(out->end(), siblings.begin(), siblings.end());
      out->insert(out->end(), moves.begin(), moves.end());
    }
    if (out->size() - start > max_words) {
      out->resize(at);
      break;
    }
    (*out)[at] = out->size() - at;
    moved.insert(e.node);
    given->push_back(e.priority);
  }
  // Out of the frontier, still allocated (the header says why).
  std::erase_if(frontier_, [&](const Entry& e) { return moved.count(e.node) != 0; });
  std::make_heap(frontier_.begin(), frontier_.end(), worse);
  return moved.size();
}

void ExecutionTree::give_up_frontier(std::vector<std::int64_t>* given) {
  assert(stats_.executions + stats_.probes == 0 && "give_up_frontier() before the first execution");
  for (const Entry& e : frontier_) {
    given->push_back(e.priority);
    release(e.node);
  }
  frontier_.clear();
}

void ExecutionTree::take(std::span<const std::uint64_t> words, std::vector<std::int64_t>* taken) {
  std::size_t i = 0;
  while (i + kNodeHead <= words.size() && words[i] >= kNodeHead && i + words[i] <= words.size()) {
    const std::span<const std::uint64_t> rec = words.subspan(i, words[i]);
    i += words[i];
    const auto priority = static_cast<std::int64_t>(rec[1]);
    const std::uint64_t length = rec[2];
    Node* parent = nullptr;
    std::size_t at = kNodeHead;
    for (std::uint64_t k = 0; k < length && at + kPathHead <= rec.size(); ++k) {
      const bool last = k + 1 == length;
      Node* n = allocate();
      n->parent = parent;
      if (parent != nullptr) ++parent->refs;
      n->decision = static_cast<std::uint32_t>(rec[at + 2]);
      n->choice = static_cast<std::uint32_t>(rec[at + 2] >> 32);
      n->replaced = static_cast<std::uint32_t>(rec[at + 3]);
      n->check = static_cast<std::uint32_t>(rec[at + 3] >> 32);
      n->kind = static_cast<Decision::Kind>(rec[at + 4] & 0xff);
      const std::uint64_t siblings = (rec[at + 4] >> 8) & 0xffffff;
      const std::uint64_t moves = rec[at + 4] >> 32;
      if (parent != nullptr && options_.track_branches) {
        // The choices this node's parent branched at its decision before it: the sleep
        // sets need them as its owner knows them.
        if (!parent->branches) parent->branches = std::make_unique<std::vector<Delta>>();
        for (std::uint64_t s = 0; s < siblings && at + kPathHead + s < rec.size(); ++s)
          parent->branches->push_back(
              Delta{n->decision, static_cast<std::uint32_t>(rec[at + kPathHead + s]), n->kind});
        parent->branches->push_back(Delta{n->decision, n->choice, n->kind});
      }
      if (last) {
        n->refs = 1;
        frontier_.push_back(Entry{priority, n->decision, n->choice, seq_++, n});
        std::push_heap(frontier_.begin(), frontier_.end(), worse);
        taken->push_back(priority);
      } else {
        n->stub = true;
        stubs_[n] = Remote{rec[at], rec[at + 1]};
      }
      const std::size_t moves_at = at + kPathHead + siblings;
      if (moves != 0 && parent != nullptr && moves_at + moves <= rec.size())
        take_moves(n, rec.subspan(moves_at, moves));
      parent = n;
      at += kPathHead + siblings + moves;
    }
  }
}

bool ExecutionTree::adopt(std::span<const std::uint64_t> record, std::int64_t* priority) {
  if (record.size() < kForwardWords || record[2] != space_) return false;
  Node* at = reinterpret_cast<Node*>(static_cast<std::uintptr_t>(record[3]));
  const auto decision = static_cast<std::uint32_t>(record[4]);
  const auto choice = static_cast<std::uint32_t>(record[4] >> 32);
  const auto kind = static_cast<Decision::Kind>(record[5] & 0xff);
  const auto own = static_cast<std::uint32_t>(record[5] >> 32);
  *priority = static_cast<std::int64_t>(record[7]);
  return add_branch(at, decision, choice, kind, own, static_cast<std::uint32_t>(record[6]),
                    *priority, record.subspan(kForwardWords)) != nullptr;
}

}  // namespace weft
