// The progress line: points done of the total, each worker's point, an estimate; one line redrawn
// on a terminal, a plain line per finished point otherwise.
#include "tools/experiment/progress_line.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace walksim::experiment {
namespace {

TEST(ProgressLine, OnATerminalOneLineShowsDoneTotalEachWorkersPointAndTheTimeLeft) {
  std::ostringstream out;
  double now = 0;
  ProgressLine p(out, true, 120, [&] { return now; });
  p.on({true, 0, 4, 0, "linux-2.6.35 x1", "", ""});
  p.on({true, 0, 4, 1, "linux-2.6.35 x2", "", ""});
  now = 10;
  p.on({false, 1, 4, 0, "linux-2.6.35 x1", "", ""});
  const std::string s = out.str();
  const std::string last = s.substr(s.rfind('\r') + 1);
  EXPECT_EQ(last, "[1/4] eta 30s | 1: linux-2.6.35 x2 \x1b[K");
  EXPECT_EQ(s.find('\n'), std::string::npos);  // redrawn, never a new line
  p.finish();
  EXPECT_EQ(out.str().substr(out.str().size() - 4), "\r\x1b[K");
}

TEST(ProgressLine, WithoutATerminalEachFinishedPointIsALineAndALongLineIsCut) {
  std::ostringstream out;
  double now = 0;
  ProgressLine p(out, false, 60, [&] { return now; });
  p.on({true, 0, 2, 0, "a", "v-dbench (1/3)", ""});
  now = 65;
  p.on({false, 1, 2, 0, "a", "v-dbench (1/3)", ""});
  EXPECT_EQ(out.str(), "walksim: v-dbench (1/3) [1/2] a done, 1m05s elapsed\n");
  std::ostringstream tty;
  ProgressLine q(tty, true, 40, [&] { return now; });
  q.on({true, 0, 9, 0, std::string(80, 'x'), "", ""});
  const std::string line = tty.str().substr(1, tty.str().size() - 4);
  EXPECT_EQ(line.size(), 40u);
  EXPECT_EQ(line.substr(37), "...");
  EXPECT_EQ(ProgressLine::duration(7300), "2h01m");
}

}  // namespace
}  // namespace walksim::experiment
