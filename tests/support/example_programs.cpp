#include "support/example_programs.hpp"

#include <string>

namespace weft::model {

Program independent_threads(std::size_t n, std::size_t k) {
  Program p;
  for (std::size_t t = 0; t < n; ++t) {
    const ObjectId v = p.variable("v" + std::to_string(t));
    ThreadBuilder b = p.thread("T" + std::to_string(t));
    for (std::size_t i = 0; i < k; ++i) b.write(v, static_cast<Value>(i + 1));
  }
  return p;
}

Program pos_running_example(bool with_main) {
  Program p;
  const ObjectId x = p.variable("x");
  const ObjectId y = p.variable("y");
  const ObjectId z = p.variable("z");
  const ObjectId w = p.event("w");
  const ThreadIndex main = with_main ? p.thread("main").index() : 0;
  ThreadBuilder a = p.thread("A", !with_main);
  ThreadBuilder b = p.thread("B", !with_main);
  enum { kA1, kA2, kA4 };  // A's registers
  enum { kB2 };            // B's
  a.exchange(x, 2, kA1).label("A1");
  a.exchange(y, 2, kA2).label("A2");
  a.signal(w).label("A3");
  a.exchange(z, 9, kA4).label("A4").check(
      [](const State& s, ThreadIndex self) {
        return !(s.reg(self, kA1) == 1 && s.reg(self, kA2) == 1 && s.reg(self, kA4) == 1);
      },
      "A4: assert(!(a1 == 1 && a2 == 1 && a4 == 1))");
  b.write(x, 1).label("B1");
  b.exchange(x, 3, kB2).label("B2");
  b.write(y, 1).label("B3");
  b.wait(w).label("B4");
  b.write(y, 3).label("B5");
  b.access(OpKind::Write, z, [z](State& s, ThreadIndex self) {
     s[z] = s.reg(self, kB2) == 2 ? 1 : 5;
   }).label("B6");
  if (with_main)
    p.thread_at(main).spawn(a.index()).spawn(b.index()).join(a.index()).join(b.index());
  p.expect_order(kPosBugOrder);
  return p;
}

}  // namespace weft::model
