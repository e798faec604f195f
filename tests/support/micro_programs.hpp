#pragma once
// The POS paper's micro-benchmark (Yuan, Yang, Gu, CAV 2018, section 6.1): random
// programs of t threads x m events over o objects, each event one access, and what it
// measures: every partial order of such a program, found by brute force, and the hit
// ratio of each under a strategy. Header-only, shared by tests/strategy and bench/.
//
// Partial orders are Mazurkiewicz traces of `conflicting()`: per object, the order of
// its accesses with runs of consecutive reads unordered (two reads commute; the POS*
// setting of the paper's Table 2). With writes only this is the paper's definition
// (events are dependent when they share a thread or an object).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "core/rng.hpp"
#include "support/model_program.hpp"

namespace weft::model::micro {

inline constexpr std::size_t kMaxEvents = 16;  // keys pack an event id in 4 bits

struct MicroEvent {
  std::uint8_t thread = 0;
  std::uint8_t index = 0;  // place in its thread
  std::uint8_t object = 0;
  bool read = false;
};

// Events are numbered thread-major: id = thread * events_per_thread + index.
struct MicroProgram {
  std::size_t threads = 0;
  std::size_t events_per_thread = 0;
  std::size_t objects = 0;
  std::vector<MicroEvent> events;

  std::size_t id(std::size_t thread, std::size_t index) const {
    return thread * events_per_thread + index;
  }
  // The model program: each event a read or a write of its object.
  Program program() const {
    Program p;
    std::vector<ObjectId> obj;
    for (std::size_t o = 0; o < objects; ++o) obj.push_back(p.variable("o" + std::to_string(o)));
    for (std::size_t t = 0; t < threads; ++t) {
      ThreadBuilder b = p.thread("T" + std::to_string(t));
      for (std::size_t i = 0; i < events_per_thread; ++i) {
        const MicroEvent& e = events[id(t, i)];
        if (e.read)
          b.read(obj[e.object], 0);
        else
          b.write(obj[e.object], static_cast<Value>(id(t, i) + 1));
      }
    }
    return p;
  }
  // "T0: w0 r1 ...; T1: ..." for tables.
  std::string text() const {
    std::string s;
    for (std::size_t t = 0; t < threads; ++t) {
      if (t) s += " | ";
      for (std::size_t i = 0; i < events_per_thread; ++i) {
        const MicroEvent& e = events[id(t, i)];
        s += e.read ? 'r' : 'w';
        s += static_cast<char>('0' + e.object);
      }
    }
    return s;
  }
};

// A random program: object o has pattern[o] accesses (the pattern sums to
// threads * events_per_thread), placed uniformly at random; `reads` of the events,
// chosen uniformly, are reads (the paper's 50%-read variant: half of them).
inline MicroProgram random_program(Rng& rng, std::size_t threads, std::size_t events_per_thread,
                                   std::span<const int> pattern, std::size_t reads = 0) {
  MicroProgram p;
  p.threads = threads;
  p.events_per_thread = events_per_thread;
  p.objects = pattern.size();
  const std::size_t n = threads * events_per_thread;
  if (n > kMaxEvents || p.objects > 16 || reads > n)
    throw std::invalid_argument("micro: at most 16 events and 16 objects");
  std::vector<std::uint8_t> objs;
  for (std::size_t o = 0; o < pattern.size(); ++o)
    for (int k = 0; k < pattern[o]; ++k) objs.push_back(static_cast<std::uint8_t>(o));
  if (objs.size() != n) throw std::invalid_argument("micro: the pattern must cover every event");
  auto shuffle = [&rng](auto& v) {
    for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
  };
  shuffle(objs);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  shuffle(order);
  p.events.resize(n);
  for (std::size_t e = 0; e < n; ++e) {
    p.events[e].thread = static_cast<std::uint8_t>(e / events_per_thread);
    p.events[e].index = static_cast<std::uint8_t>(e % events_per_thread);
    p.events[e].object = objs[e];
  }
  for (std::size_t k = 0; k < reads; ++k) p.events[order[k]].read = true;
  return p;
}

// Every partial order of a micro program, by brute force: per object, every order of its
// accesses that keeps program order (read runs sorted: one representative each), then
// every combination across objects whose union with program order is acyclic.
class PartialOrders {
 public:
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();

  explicit PartialOrders(const MicroProgram& p) : p_(p) {
    const std::size_t n = p.events.size();
    std::vector<std::vector<std::vector<std::uint8_t>>> choices(p.objects);
    for (std::size_t o = 0; o < p.objects; ++o) {
      std::vector<std::uint8_t> evs;
      for (std::size_t e = 0; e < n; ++e)
        if (p.events[e].object == o) evs.push_back(static_cast<std::uint8_t>(e));
      std::set<std::vector<std::uint8_t>> seen;
      do {
        if (keeps_program_order(evs)) seen.insert(canonical(evs));
      } while (std::next_permutation(evs.begin(), evs.end()));
      choices[o].assign(seen.begin(), seen.end());
    }
    std::vector<std::size_t> pick(p.objects, 0);
    for (;;) {
      std::array<std::uint32_t, kMaxEvents> pred{};
      for (std::size_t e = 0; e < n; ++e)
        if (p.events[e].index > 0) pred[e] |= 1u << (e - 1);
      for (std::size_t o = 0; o < p.objects; ++o) add_object_edges(choices[o][pick[o]], pred);
      if (acyclic(pred, n)) {
        std::uint64_t key = 0;
        for (std::size_t o = 0; o < p.objects; ++o)
          for (std::uint8_t e : choices[o][pick[o]]) key = key << 4 | e;
        index_.emplace(key, keys_.size());
        keys_.push_back(key);
        preds_.push_back(pred);
      }
      std::size_t o = 0;
      while (o < p.objects && ++pick[o] == choices[o].size()) pick[o++] = 0;
      if (o == p.objects) break;
    }
  }

  std::size_t size() const { return keys_.size(); }
  const MicroProgram& program() const { return p_; }

  // The partial order an execution of p.program() followed; npos if none (a bug here).
  std::size_t index_of(std::span<const Event> trace) const {
    std::array<std::array<std::uint8_t, kMaxEvents>, 16> seq;
    std::array<std::uint8_t, 16> len{};
    std::array<std::uint8_t, 16> next{};
    for (const Event& ev : trace) {
      const std::size_t t = ev.thread;
      const std::size_t e = p_.id(t, next[t]++);
      const std::size_t o = p_.events[e].object;
      seq[o][len[o]++] = static_cast<std::uint8_t>(e);
    }
    std::uint64_t key = 0;
    for (std::size_t o = 0; o < p_.objects; ++o) {
      sort_read_runs(seq[o].data(), len[o]);
      for (std::size_t i = 0; i < len[o]; ++i) key = key << 4 | seq[o][i];
    }
    const auto it = index_.find(key);
    return it == index_.end() ? npos : it->second;
  }

  // Probability that a random walk (uniform over the enabled threads at each step)
  // follows partial order i: a sum over its linearisations, by dynamic programming over
  // the threads' progress (every thread is always enabled until it ends).
  double random_walk_probability(std::size_t i) const {
    const auto& pred = preds_[i];
    std::vector<double> prob(states(), 0.0);
    prob[0] = 1.0;
    for (std::size_t s = 0; s < prob.size(); ++s) {
      if (prob[s] == 0.0) continue;
      const auto pcs = decode(s);
      const std::uint32_t done = executed(pcs);
      std::size_t unfinished = 0;
      for (std::size_t t = 0; t < p_.threads; ++t) unfinished += pcs[t] < p_.events_per_thread;
      for (std::size_t t = 0; t < p_.threads; ++t) {
        if (pcs[t] == p_.events_per_thread) continue;
        const std::size_t e = p_.id(t, pcs[t]);
        if ((pred[e] & ~done) == 0) prob[s + stride(t)] += prob[s] / double(unfinished);
      }
    }
    return prob.back();
  }

  // The fewest preemptions (switches away from a thread that could go on) of any
  // schedule following partial order i.
  int min_preemptions(std::size_t i) const {
    const auto& pred = preds_[i];
    constexpr int kInf = 1 << 20;
    const std::size_t T = p_.threads;
    std::vector<int> best(states() * (T + 1), kInf);  // (state, last thread or T: none)
    best[T] = 0;
    for (std::size_t s = 0; s < states(); ++s) {
      const auto pcs = decode(s);
      const std::uint32_t done = executed(pcs);
      for (std::size_t last = 0; last <= T; ++last) {
        const int cost = best[s * (T + 1) + last];
        if (cost == kInf) continue;
        for (std::size_t t = 0; t < T; ++t) {
          if (pcs[t] == p_.events_per_thread) continue;
          const std::size_t e = p_.id(t, pcs[t]);
          if ((pred[e] & ~done) != 0) continue;
          const bool preempts = last != T && last != t && pcs[last] < p_.events_per_thread;
          int& to = best[(s + stride(t)) * (T + 1) + t];
          to = std::min(to, cost + (preempts ? 1 : 0));
        }
      }
    }
    int m = kInf;
    for (std::size_t last = 0; last < T; ++last)
      m = std::min(m, best[(states() - 1) * (T + 1) + last]);
    return m;
  }

  // The paper's D_E: ordered pairs of dependent events of different threads that some
  // schedule following partial order i has enabled at once.
  int races(std::size_t i) const {
    const auto& pred = preds_[i];
    const std::size_t n = p_.events.size();
    std::array<std::uint32_t, kMaxEvents> anc = pred;  // strict ancestors, at the fixpoint
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t e = 0; e < n; ++e) {
        std::uint32_t a = anc[e];
        for (std::size_t d = 0; d < n; ++d)
          if (anc[e] >> d & 1) a |= anc[d];
        changed |= a != anc[e];
        anc[e] = a;
      }
    }
    auto upto_prev = [&](std::size_t e) -> std::uint32_t {  // e's thread predecessor, closed
      if (p_.events[e].index == 0) return 0;
      return (1u << (e - 1)) | anc[e - 1];
    };
    int count = 0;
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) {
        const MicroEvent& ea = p_.events[a];
        const MicroEvent& eb = p_.events[b];
        if (ea.thread == eb.thread || ea.object != eb.object || (ea.read && eb.read)) continue;
        if (!(anc[b] >> a & 1)) continue;  // a before b
        const std::uint32_t ideal = upto_prev(a) | upto_prev(b);
        if (!(ideal >> a & 1) && !(ideal >> b & 1)) ++count;
      }
    return count;
  }

 private:
  bool keeps_program_order(const std::vector<std::uint8_t>& seq) const {
    for (std::size_t i = 0; i < seq.size(); ++i)
      for (std::size_t j = i + 1; j < seq.size(); ++j)
        if (p_.events[seq[i]].thread == p_.events[seq[j]].thread && seq[i] > seq[j]) return false;
    return true;
  }
  void sort_read_runs(std::uint8_t* seq, std::size_t len) const {
    std::size_t i = 0;
    while (i < len) {
      std::size_t j = i;
      while (j < len && p_.events[seq[j]].read) ++j;
      std::sort(seq + i, seq + j);
      i = j == i ? i + 1 : j;
    }
  }
  std::vector<std::uint8_t> canonical(std::vector<std::uint8_t> seq) const {
    sort_read_runs(seq.data(), seq.size());
    return seq;
  }
  // An access depends on every access of the group before it (a write, or a run of
  // reads), and nothing else on the object is needed: the rest follows by transitivity.
  void add_object_edges(const std::vector<std::uint8_t>& seq,
                        std::array<std::uint32_t, kMaxEvents>& pred) const {
    std::uint32_t previous = 0, current = 0;
    bool current_reads = false;
    for (std::uint8_t e : seq) {
      const bool r = p_.events[e].read;
      if (!(r && current_reads && current != 0)) {
        previous = current;
        current = 0;
      }
      current |= 1u << e;
      current_reads = r;
      pred[e] |= previous;
    }
  }
  static bool acyclic(const std::array<std::uint32_t, kMaxEvents>& pred, std::size_t n) {
    std::uint32_t done = 0;
    const std::uint32_t all = n == 32 ? ~0u : (1u << n) - 1;
    for (bool progress = true; progress && done != all;) {
      progress = false;
      for (std::size_t e = 0; e < n; ++e)
        if (!(done >> e & 1) && (pred[e] & ~done) == 0) {
          done |= 1u << e;
          progress = true;
        }
    }
    return done == all;
  }
  std::size_t states() const {
    std::size_t s = 1;
    for (std::size_t t = 0; t < p_.threads; ++t) s *= p_.events_per_thread + 1;
    return s;
  }
  std::size_t stride(std::size_t t) const {
    std::size_t s = 1;
    for (std::size_t u = 0; u < t; ++u) s *= p_.events_per_thread + 1;
    return s;
  }
  std::array<std::size_t, 16> decode(std::size_t s) const {
    std::array<std::size_t, 16> pcs{};
    for (std::size_t t = 0; t < p_.threads; ++t) {
      pcs[t] = s % (p_.events_per_thread + 1);
      s /= p_.events_per_thread + 1;
    }
    return pcs;
  }
  std::uint32_t executed(const std::array<std::size_t, 16>& pcs) const {
    std::uint32_t done = 0;
    for (std::size_t t = 0; t < p_.threads; ++t)
      for (std::size_t i = 0; i < pcs[t]; ++i) done |= 1u << p_.id(t, i);
    return done;
  }

  MicroProgram p_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::array<std::uint32_t, kMaxEvents>> preds_;
  std::unordered_map<std::uint64_t, std::size_t> index_;
};

}  // namespace weft::model::micro
