// The playback head and the marker sweep: one test per row of the sweep table in
// player.hpp (and docs/DECISIONS.md), the bit-for-bit hand-over between steps, the
// playOnStart latch, elapsed-time validation that changes nothing, ping-pong legs,
// and long runs at a fixed tick whose event counts are worked out independently by
// arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kinema/asset/clip.hpp"
#include "kinema/play/player.hpp"

namespace {

using namespace kinema;

// A 1 s clip (one translation track) with markers start@0, a@0.25, b@0.5.
Clip testClip() {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f, 1.0f};
    t.values = {0, 0, 0, 1, 0, 0};
    auto clip = Clip::create("walk", {t}, {{"b", 0.5f}, {"start", 0.0f}, {"a", 0.25f}});
    EXPECT_TRUE(clip.ok()) << clip.message();
    return std::move(clip).value();
}

std::vector<std::string> crossed(const Clip& clip, LoopMode mode, const PlaybackStep& step) {
    std::vector<std::uint32_t> idx(clip.markers().size());
    idx.resize(markersCrossed(clip, mode, step, idx));
    std::vector<std::string> names;
    for (const std::uint32_t i : idx) names.push_back(clip.markers()[i].name);
    return names;
}

using Names = std::vector<std::string>;

PlaybackStep updated(Player& p, double elapsed) {
    PlaybackStep s;
    EXPECT_TRUE(p.update(elapsed, s).ok());
    return s;
}

TEST(MarkerSweep, LandingExactlyOnAMarkerAnnouncesIt) {
    const Clip clip = testClip();
    Player p(clip);
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.25)), Names{"a"});
}

TEST(MarkerSweep, MovingOffAMarkerEitherWayDoesNotAnnounceIt) {
    const Clip clip = testClip();
    Player p(clip);
    ASSERT_TRUE(p.seek(0.25));
    PlaybackStep s;
    ASSERT_TRUE(p.scrub(0.1, s).ok());
    EXPECT_EQ(crossed(clip, p.mode(), s), Names{});
    ASSERT_TRUE(p.seek(0.25));
    ASSERT_TRUE(p.scrub(-0.1, s).ok());
    EXPECT_EQ(crossed(clip, p.mode(), s), Names{});
}

TEST(MarkerSweep, WrappingPastTheEndAnnouncesOnTheLapItWrapsInto) {
    const Clip clip = testClip();
    Player p(clip);
    ASSERT_TRUE(p.seek(0.9));
    const PlaybackStep s = updated(p, 0.2);
    EXPECT_LT(s.to, s.from);  // it wrapped
    EXPECT_EQ(crossed(clip, p.mode(), s), Names{"start"});
    // Landing exactly on the end of the loop is landing on its start.
    Player q(clip);
    ASSERT_TRUE(q.seek(0.75));
    const PlaybackStep e = updated(q, 0.25);
    EXPECT_EQ(e.to, 0.0);
    EXPECT_EQ(crossed(clip, q.mode(), e), Names{"start"});
    EXPECT_EQ(crossed(clip, q.mode(), updated(q, 0.1)), Names{}) << "departure from the start is open";
}

TEST(MarkerSweep, RunningBackwardsOverAMarkerAnnouncesItOnce) {
    const Clip clip = testClip();
    Player p(clip);
    ASSERT_TRUE(p.setSpeed(-1.0));
    ASSERT_TRUE(p.seek(0.6));
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.2)), Names{"b"});
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.15)), Names{"a"});     // lands exactly at 0.25
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.3)), Names{"start"});  // 0.25 open, wraps through 0
    EXPECT_NEAR(p.position(), 0.95, 1e-12);
}

TEST(MarkerSweep, SeveralWholeLapsInOneStepAnnounceEachMarkerOnceInTheOrderMet) {
    const Clip clip = testClip();
    Player p(clip);
    ASSERT_TRUE(p.seek(0.1));
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 2.5)), (Names{"a", "b", "start"}));
    ASSERT_TRUE(p.setSpeed(-3.0));
    ASSERT_TRUE(p.seek(0.3));
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 1.0)), (Names{"a", "start", "b"}));
}

TEST(MarkerSweep, ToOfOneStepIsBitForBitTheNextFrom) {
    const Clip clip = testClip();
    for (const LoopMode mode : {LoopMode::Loop, LoopMode::PingPong, LoopMode::Clamp}) {
        Player p(clip, mode);
        ASSERT_TRUE(p.setSpeed(1.37));
        PlaybackStep prev = updated(p, 0.0);
        for (int i = 0; i < 500; ++i) {
            const PlaybackStep s = updated(p, 1.0 / 60.0 + 1e-4 * (i % 7));
            ASSERT_EQ(std::memcmp(&s.from, &prev.to, sizeof(double)), 0) << "step " << i;
            const double pos = p.position();
            ASSERT_EQ(std::memcmp(&s.to, &pos, sizeof(double)), 0);
            prev = s;
        }
    }
}

TEST(MarkerSweep, ZeroTravelSeekAndARestingOneShotAnnounceNothing) {
    const Clip clip = testClip();
    Player p(clip, LoopMode::Clamp);
    ASSERT_TRUE(p.seek(0.25));
    PlaybackStep s;
    ASSERT_TRUE(p.scrub(0.0, s).ok());
    EXPECT_EQ(crossed(clip, p.mode(), s), Names{});
    // The one-shot runs to its end, then holds it: nothing more is announced.
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 5.0)), Names{"b"});
    EXPECT_EQ(p.position(), 1.0);
    EXPECT_FALSE(p.playing()) << "a one-shot that reached its end has finished";
    ASSERT_TRUE(p.scrub(0.5, s).ok());
    EXPECT_EQ(s.travel, 0.0);
    EXPECT_EQ(crossed(clip, p.mode(), s), Names{});
}

TEST(Player, PlayOnStartLatchesOnTheFirstUpdateWithTimeToSpend) {
    const Clip clip = testClip();
    Player p(clip, LoopMode::Clamp);
    EXPECT_FALSE(p.playing());
    EXPECT_EQ(updated(p, 0.0).travel, 0.0);
    EXPECT_FALSE(p.playing()) << "a zero step (a paused editor) does not start it";
    EXPECT_DOUBLE_EQ(updated(p, 0.4).travel, 0.4);
    EXPECT_TRUE(p.playing());
    updated(p, 1.0);
    EXPECT_FALSE(p.playing());
    updated(p, 0.5);
    EXPECT_FALSE(p.playing()) << "the latch fires once: a finished one-shot is not restarted";

    Player q(clip);
    q.playOnStart = false;
    EXPECT_EQ(updated(q, 0.5).travel, 0.0);
    EXPECT_FALSE(q.playing());
    q.play();
    EXPECT_DOUBLE_EQ(updated(q, 0.5).travel, 0.5);
}

TEST(Player, BadElapsedTimeIsRefusedAndChangesNothing) {
    const Clip clip = testClip();
    Player p(clip);
    p.playOnStart = true;
    for (const double bad : {std::nan(""), -0.1, static_cast<double>(INFINITY), -static_cast<double>(INFINITY)}) {
        PlaybackStep s{7.0, 8.0, 9.0};
        EXPECT_FALSE(p.update(bad, s).ok()) << bad;
        EXPECT_EQ(s.from, 7.0) << "the step is not written";
        EXPECT_EQ(p.position(), 0.0);
        EXPECT_FALSE(p.playing()) << "the playOnStart latch did not fire";
    }
    PlaybackStep s;
    EXPECT_FALSE(p.scrub(std::nan(""), s).ok());
    EXPECT_FALSE(p.setSpeed(INFINITY));
    EXPECT_EQ(p.speed(), 1.0);
    EXPECT_FALSE(p.seek(std::nan("")));
    EXPECT_EQ(p.position(), 0.0);
}

// A finite speed and a finite elapsed time whose product overflows: refused, the
// step unwritten and the latch unfired, rather than a NaN position.
TEST(Player, TravelThatOverflowsIsRefusedAndChangesNothing) {
    const Clip clip = testClip();
    Player p(clip);
    p.playOnStart = true;
    ASSERT_TRUE(p.setSpeed(1e300).ok());
    PlaybackStep s{7.0, 8.0, 9.0};
    const Status refused = p.update(1e10, s);
    EXPECT_EQ(refused.code, StatusCode::OutOfRange);
    EXPECT_EQ(s.from, 7.0);
    EXPECT_EQ(p.position(), 0.0);
    EXPECT_FALSE(p.playing());
    ASSERT_TRUE(p.setSpeed(1.0).ok());
    ASSERT_TRUE(p.update(0.25, s).ok());
    EXPECT_EQ(p.position(), 0.25);
}

// A one-shot of no length (one key at 0) is at its end from the start: the first
// update that spends time finishes it, as a longer one-shot finishes at its end. A
// loop of no length keeps playing, and a step that spends no time finishes nothing.
TEST(Player, AOneShotOfNoLengthFinishesAtOnce) {
    Track t;
    t.path = TrackPath::Translation;
    t.times = {0.0f};
    t.values = {1, 2, 3};
    const Clip still = Clip::create("still", {t}).value();
    ASSERT_EQ(still.duration(), 0.0f);
    Player once(still, LoopMode::Clamp);
    once.play();
    PlaybackStep s;
    ASSERT_TRUE(once.update(0.0, s).ok());
    EXPECT_TRUE(once.playing());
    ASSERT_TRUE(once.update(0.5, s).ok());
    EXPECT_FALSE(once.playing());
    EXPECT_TRUE(once.reachedEnd());
    EXPECT_EQ(s.travel, 0.0);
    Player loop(still, LoopMode::Loop);
    loop.play();
    ASSERT_TRUE(loop.update(0.5, s).ok());
    EXPECT_TRUE(loop.playing());
}

// A lap or a one-shot ends on the tick that reaches its end, though the ticks sum a
// rounding short of it (120 x 1/60 s = 1.9999999999999978 s): the loop is back at 0,
// the one-shot at its end and stopped; an update that does not stop it says so too.
TEST(Player, TicksARoundingShortOfTheEndReachIt) {
    Track line;
    line.path = TrackPath::Translation;
    line.times = {0.0f, 2.0f};
    line.values = {0, 0, 0, 1, 0, 0};
    const Clip clip = Clip::create("two", {line}).value();
    Player loop(clip, LoopMode::Loop), once(clip, LoopMode::Clamp);
    PlaybackStep step;
    for (int k = 1; k <= 120; ++k) {
        ASSERT_TRUE(loop.update(1.0 / 60.0, step).ok());
        ASSERT_TRUE(once.update(1.0 / 60.0, step).ok());
        EXPECT_EQ(once.playing(), k < 120) << k;
        EXPECT_EQ(once.reachedEnd(), k == 120) << k;
    }
    EXPECT_EQ(loop.position(), 0.0);
    EXPECT_EQ(once.position(), 2.0);
    EXPECT_EQ(step.to, 2.0);
    ASSERT_TRUE(once.update(1.0 / 60.0, step).ok());
    EXPECT_FALSE(once.reachedEnd()) << "it reached its end on the update before";
    // Backwards, a one-shot a rounding above 0 is at its start.
    Player back(clip, LoopMode::Clamp);
    ASSERT_TRUE(back.seek(1e-7).ok());
    ASSERT_TRUE(back.setSpeed(-1.0).ok());
    ASSERT_TRUE(back.update(1e-7 - 1e-9, step).ok());
    EXPECT_EQ(back.position(), 0.0);
    EXPECT_TRUE(back.reachedEnd());
    // A one-shot more than a microsecond short has not ended.
    Player short1(clip, LoopMode::Clamp);
    ASSERT_TRUE(short1.update(2.0 - 2e-6, step).ok());
    EXPECT_TRUE(short1.playing());
    EXPECT_FALSE(short1.reachedEnd());
}

TEST(Player, PausedPlayersStayPutAndCanBeScrubbed) {
    const Clip clip = testClip();
    Player p(clip);
    updated(p, 0.1);
    p.pause();
    const PlaybackStep s = updated(p, 0.3);
    EXPECT_EQ(s.travel, 0.0);
    EXPECT_EQ(s.from, s.to);
    PlaybackStep scrub;
    ASSERT_TRUE(p.scrub(0.2, scrub).ok());
    EXPECT_EQ(crossed(clip, p.mode(), scrub), Names{"a"});
    EXPECT_FALSE(p.playing()) << "scrubbing does not start playback";
}

TEST(Player, PingPongRunsToTheEndAndBackAnnouncingEachLeg) {
    const Clip clip = testClip();
    Player p(clip, LoopMode::PingPong);
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.6)), (Names{"a", "b"}));
    const PlaybackStep back = updated(p, 0.8);  // to the end (1.0) and back to 0.6
    EXPECT_EQ(crossed(clip, p.mode(), back), Names{});
    EXPECT_NEAR(p.clipTime(), 0.6, 1e-12);
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.2)), Names{"b"});  // b on the way back
    EXPECT_NEAR(p.clipTime(), 0.4, 1e-12);
    EXPECT_EQ(crossed(clip, p.mode(), updated(p, 0.4)), (Names{"a", "start"}));
    EXPECT_NEAR(p.clipTime(), 0.0, 1e-12);
}

// Crossings of marker m (0 <= m < 1) by a head running forward from 0 over T seconds
// of a 1 s loop, departure open: m > 0 is met at m, m + 1, ...; m = 0 at 1, 2, ....
long expectedCount(double m, double T) {
    if (m == 0.0) return static_cast<long>(std::floor(T));
    return T < m ? 0 : static_cast<long>(std::floor(T - m)) + 1;
}

TEST(MarkerSweep, LongFixedTickRunsCountExactly) {
    const Clip clip = testClip();
    struct Run {
        double tick;
        int ticks;
        double speed;
    };
    // 1/64 is exact in binary; 1/60 is not, so T is kept away from marker times.
    for (const Run run : {Run{1.0 / 64.0, 640, 1.0}, Run{1.0 / 60.0, 627, 1.0}, Run{1.0 / 60.0, 1000, 2.3}}) {
        Player p(clip);
        ASSERT_TRUE(p.setSpeed(run.speed));
        std::vector<long> counts(clip.markers().size(), 0);
        std::vector<std::uint32_t> idx(clip.markers().size());
        for (int i = 0; i < run.ticks; ++i) {
            const PlaybackStep s = updated(p, run.tick);
            const std::size_t n = markersCrossed(clip, p.mode(), s, idx);
            for (std::size_t k = 0; k < n; ++k) ++counts[idx[k]];
        }
        const double T = run.tick * run.ticks * run.speed;
        for (std::size_t m = 0; m < counts.size(); ++m) {
            EXPECT_EQ(counts[m], expectedCount(clip.markers()[m].time, T))
                << clip.markers()[m].name << " tick " << run.tick << " x " << run.ticks << " speed " << run.speed;
        }
    }
}

}  // namespace
