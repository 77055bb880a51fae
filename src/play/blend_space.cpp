#include "kinema/play/blend_space.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <utility>

#include "elapsed.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/core/quoted.hpp"

namespace kinema {

namespace {

using Point = std::array<double, 2>;
using Triangle = std::array<std::uint32_t, 3>;
using Edge = std::array<std::uint32_t, 2>;

// Tolerances in the unit square the 2D positions are scaled into. A parameter
// point this far outside every triangle (in barycentric terms) still counts as in
// one, so points on a shared or hull edge never fall through to the projection.
constexpr double kInsideTolerance = 1e-12;
// Four positions whose in-circle test is within this of zero are co-circular
// (a square, a grid): either diagonal is Delaunay, and flipping between them must
// not go on for ever.
constexpr double kCircleTolerance = 1e-12;
// A set of positions whose farthest distance from one line is below this is a line.
constexpr double kCollinearTolerance = 1e-9;

std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", v);
    return buffer;
}

std::string at(std::size_t i) { return "clips/" + std::to_string(i); }

// Twice the signed area of (a, b, c): positive when counter-clockwise.
double orient(const Point& a, const Point& b, const Point& c) noexcept {
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

// Positive when d lies inside the circle through the counter-clockwise a, b, c.
double inCircle(const Point& a, const Point& b, const Point& c, const Point& d) noexcept {
    const double adx = a[0] - d[0], ady = a[1] - d[1];
    const double bdx = b[0] - d[0], bdy = b[1] - d[1];
    const double cdx = c[0] - d[0], cdy = c[1] - d[1];
    const double ad = adx * adx + ady * ady, bd = bdx * bdx + bdy * bdy, cd = cdx * cdx + cdy * cdy;
    return adx * (bdy * cd - bd * cdy) - ady * (bdx * cd - bd * cdx) + ad * (bdx * cdy - bdy * cdx);
}

// Wraps a clip's unwrapped time (which lies in [-d, 2d)) into [0, d). A value that
// rounds onto d is the loop's start, as in Player.
double wrapTime(double u, double d) noexcept {
    if (u < 0.0)
        u += d;
    else if (u >= d)
        u -= d;
    return u >= d || u < 0.0 ? 0.0 : u;
}

double wrapPhase(double p) noexcept {
    double r = std::fmod(p, 1.0);
    if (r < 0.0) r += 1.0;
    return r >= 1.0 ? 0.0 : r;
}

// Triangulates `p` (distinct, not all on one line): a sweep in lexicographic order
// builds a valid triangulation, then Lawson's edge flips make it Delaunay. The sweep
// only ever attaches a point to the hull edges it sees, so every triangle is
// counter-clockwise by construction; the flips only flip convex quadrilaterals, so
// the result stays a triangulation even where rounding blurs the in-circle test.
// Returns "" or what went wrong.
std::string triangulate(std::span<const Point> p, std::vector<Triangle>& tris, std::vector<Edge>& hullEdges) {
    const std::size_t n = p.size();
    std::vector<std::uint32_t> o(n);
    std::iota(o.begin(), o.end(), 0u);
    std::sort(o.begin(), o.end(), [&](std::uint32_t a, std::uint32_t b) { return p[a] < p[b]; });

    // The first points may lie on one line: fan them to the first point off it.
    std::size_t k = 2;
    while (k < n && orient(p[o[0]], p[o[1]], p[o[k]]) == 0.0) ++k;
    if (k == n) return "all positions lie on one line";
    const bool left = orient(p[o[0]], p[o[1]], p[o[k]]) > 0.0;
    std::vector<std::uint32_t> hull;
    for (std::size_t i = 0; i + 1 < k; ++i) {
        tris.push_back(left ? Triangle{o[i], o[i + 1], o[k]} : Triangle{o[i + 1], o[i], o[k]});
    }
    if (left) {
        for (std::size_t i = 0; i <= k; ++i) hull.push_back(o[i]);
    } else {
        hull.push_back(o[0]);
        hull.push_back(o[k]);
        for (std::size_t i = k - 1; i >= 1; --i) hull.push_back(o[i]);
    }

    // Each further point lies outside the hull so far (it is lexicographically
    // last); it sees one connected run of hull edges.
    std::vector<char> visible;
    for (std::size_t m = k + 1; m < n; ++m) {
        const std::uint32_t q = o[m];
        const std::size_t h = hull.size();
        visible.assign(h, 0);
        for (std::size_t j = 0; j < h; ++j) visible[j] = orient(p[hull[j]], p[hull[(j + 1) % h]], p[q]) < 0.0;
        std::size_t starts = 0, s = 0;
        for (std::size_t j = 0; j < h; ++j) {
            if (visible[j] && !visible[(j + h - 1) % h]) {
                ++starts;
                s = j;
            }
        }
        if (starts != 1) return "could not place " + at(q) + " (too close to the line through others)";
        std::size_t run = 0;
        while (run < h && visible[(s + run) % h]) {
            tris.push_back({hull[(s + run + 1) % h], hull[(s + run) % h], q});
            ++run;
        }
        std::vector<std::uint32_t> next;
        for (std::size_t j = 0; j <= h - run; ++j) next.push_back(hull[(s + run + j) % h]);
        next.push_back(q);
        hull = std::move(next);
    }

    // Lawson flips: an edge whose opposite vertex lies inside the other triangle's
    // circumcircle is replaced by the other diagonal. The pass limit only guards
    // against rounding cycles; exact arithmetic finishes far sooner.
    const auto twin = [&](std::uint32_t a, std::uint32_t b, std::size_t& tri, std::size_t& edge) {
        for (std::size_t t = 0; t < tris.size(); ++t) {
            for (std::size_t e = 0; e < 3; ++e) {
                if (tris[t][e] == a && tris[t][(e + 1) % 3] == b) {
                    tri = t;
                    edge = e;
                    return true;
                }
            }
        }
        return false;
    };
    for (std::size_t pass = 0, limit = 64 + 4 * n; pass < limit; ++pass) {
        bool flipped = false;
        for (std::size_t t = 0; t < tris.size(); ++t) {
            for (std::size_t e = 0; e < 3; ++e) {
                const std::uint32_t a = tris[t][e], b = tris[t][(e + 1) % 3], c = tris[t][(e + 2) % 3];
                std::size_t u = 0, f = 0;
                if (!twin(b, a, u, f)) continue;
                const std::uint32_t d = tris[u][(f + 2) % 3];
                if (inCircle(p[a], p[b], p[c], p[d]) <= kCircleTolerance) continue;
                if (orient(p[a], p[d], p[c]) <= 0.0 || orient(p[d], p[b], p[c]) <= 0.0) continue;
                tris[t] = {a, d, c};
                tris[u] = {d, b, c};
                flipped = true;
                break;  // tris[t] changed: its edges are looked at again on the next pass
            }
        }
        if (!flipped) break;
    }

    std::vector<char> used(n, 0);
    for (const Triangle& t : tris) {
        if (orient(p[t[0]], p[t[1]], p[t[2]]) <= 0.0) return "could not triangulate the positions (rounding)";
        for (std::size_t e = 0; e < 3; ++e) {
            used[t[e]] = 1;
            std::size_t u = 0, f = 0;
            if (!twin(t[(e + 1) % 3], t[e], u, f)) hullEdges.push_back({t[e], t[(e + 1) % 3]});
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!used[i]) return "could not place " + at(i) + " (too close to the line through others)";
    }
    return {};
}

}  // namespace

Result<BlendSpace> BlendSpace::create1D(std::vector<BlendSpaceClip> clips, BlendSync sync) {
    return create(std::move(clips), sync, 1);
}

Result<BlendSpace> BlendSpace::create2D(std::vector<BlendSpaceClip> clips, BlendSync sync) {
    return create(std::move(clips), sync, 2);
}

Result<BlendSpace> BlendSpace::create(std::vector<BlendSpaceClip> clips, BlendSync sync, std::size_t dimensions) {
    std::vector<Fault> faults;
    const std::size_t n = clips.size();
    const std::size_t needed = dimensions == 1 ? 1 : 3;
    if (n < needed) {
        faults.push_back({"clips",
                          "a " + std::to_string(dimensions) + "D blend space needs at least " + std::to_string(needed) +
                              " clip" + (needed == 1 ? "" : "s") + ", got " + std::to_string(n)});
    }
    if (n > kMaxBlendSpaceClips) {
        // Checked and triangulated in time that grows faster than the count.
        return std::vector<Fault>{{"clips",
                                   "a blend space holds at most " + std::to_string(kMaxBlendSpaceClips) +
                                       " clips, got " + std::to_string(n)}};
    }
    std::vector<char> usable(n, 0);  // a clip with a positive duration, so its markers can be judged
    for (std::size_t i = 0; i < n; ++i) {
        const BlendSpaceClip& c = clips[i];
        if (c.clip == nullptr) {
            faults.push_back({at(i) + "/clip", "is null"});
        } else if (!(c.clip->duration() > 0.0f)) {
            faults.push_back(
                {at(i) + "/clip",
                 "clip \"" + std::string(c.clip->name()) + "\" has duration 0 (a blend space loops its clips)"});
        } else {
            usable[i] = 1;
        }
        const bool xFinite = std::isfinite(c.x);
        const bool yFinite = dimensions == 1 || std::isfinite(c.y);
        if (!xFinite) faults.push_back({at(i) + "/x", "position " + number(c.x) + " is not finite"});
        if (!yFinite) faults.push_back({at(i) + "/y", "position " + number(c.y) + " is not finite"});
        if (!xFinite || !yFinite) continue;
        for (std::size_t j = 0; j < i; ++j) {
            const BlendSpaceClip& e = clips[j];
            if (e.x == c.x && (dimensions == 1 || e.y == c.y)) {
                std::string where = number(c.x);
                if (dimensions == 2)
                    where = std::string("(").append(where).append(", ").append(number(c.y)).append(")");
                faults.push_back(
                    {at(i), "position " + where + " is the same as " + at(j) + "'s (positions must be distinct)"});
                break;
            }
        }
    }

    std::size_t markerCount = 0;
    if (sync == BlendSync::Markers) {
        const auto why = std::string(" (marker sync needs the same marker names in the same order in every clip)");
        for (std::size_t i = 0; i < n; ++i) {
            if (!usable[i]) continue;
            const Clip& clip = *clips[i].clip;
            const auto markers = clip.markers();
            if (markers.empty()) {
                faults.push_back(
                    {at(i) + "/markers",
                     "clip " + inQuotes(clip.name(), '"') + " has no markers (marker sync needs at least 1)"});
                continue;
            }
            for (std::size_t k = 0; k < markers.size(); ++k) {
                const std::string where = at(i) + "/markers/" + std::to_string(k);
                if (k > 0 && !(markers[k].time > markers[k - 1].time)) {
                    faults.push_back({where,
                                      inQuotes(markers[k].name, '"') + " at " + number(markers[k].time) +
                                          " s is not after marker " + std::to_string(k - 1) +
                                          " (sync markers need strictly increasing times)"});
                }
                if (!(markers[k].time < clip.duration())) {
                    faults.push_back({where,
                                      inQuotes(markers[k].name, '"') + " at " + number(markers[k].time) +
                                          " s is not before the clip's end at " + number(clip.duration()) +
                                          " s (the end of a loop is its start: put it at 0)"});
                }
            }
            if (i == 0) {
                markerCount = markers.size();
                continue;
            }
            if (!usable[0] || clips[0].clip->markers().empty()) continue;  // reported for clips/0
            const auto reference = clips[0].clip->markers();
            if (markers.size() != reference.size()) {
                faults.push_back({at(i) + "/markers",
                                  "has " + counted(markers.size(), "marker") + " where " + at(0) + " has " +
                                      std::to_string(reference.size()) + why});
                continue;
            }
            for (std::size_t k = 0; k < markers.size(); ++k) {
                if (markers[k].name != reference[k].name) {
                    faults.push_back({at(i) + "/markers/" + std::to_string(k),
                                      "is " + inQuotes(markers[k].name, '"') + " where " + at(0) + "'s marker " +
                                          std::to_string(k) + " is " + inQuotes(reference[k].name, '"') + why});
                }
            }
        }
    }
    if (!faults.empty()) return faults;

    BlendSpace s;
    s.clips_ = std::move(clips);
    s.dimensions_ = dimensions;
    s.sync_ = sync;
    if (dimensions == 1) {
        s.order_.resize(n);
        std::iota(s.order_.begin(), s.order_.end(), 0u);
        std::sort(s.order_.begin(), s.order_.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return s.clips_[a].x < s.clips_[b].x; });
    } else {
        double minX = s.clips_[0].x, maxX = minX, minY = s.clips_[0].y, maxY = minY;
        for (const BlendSpaceClip& c : s.clips_) {
            minX = std::min(minX, double{c.x});
            maxX = std::max(maxX, double{c.x});
            minY = std::min(minY, double{c.y});
            maxY = std::max(maxY, double{c.y});
        }
        s.originX_ = minX;
        s.originY_ = minY;
        s.scale_ = std::max(maxX - minX, maxY - minY);  // > 0: the positions are distinct
        for (const BlendSpaceClip& c : s.clips_) {
            s.unit_.push_back({(c.x - s.originX_) / s.scale_, (c.y - s.originY_) / s.scale_});
        }
        // One line through the first position and the one farthest from it; the
        // set is a line when no position stands off it by the tolerance.
        std::size_t far = 0;
        double farthest = 0.0;
        for (std::size_t i = 1; i < n; ++i) {
            const double dx = s.unit_[i][0] - s.unit_[0][0], dy = s.unit_[i][1] - s.unit_[0][1];
            if (dx * dx + dy * dy > farthest) {
                farthest = dx * dx + dy * dy;
                far = i;
            }
        }
        double off = 0.0;
        for (std::size_t i = 1; i < n; ++i) {
            off = std::max(off, std::fabs(orient(s.unit_[0], s.unit_[far], s.unit_[i])) / std::sqrt(farthest));
        }
        if (off <= kCollinearTolerance) {
            return Fault{"clips",
                         "all " + std::to_string(n) +
                             " positions lie on one line: a 2D blend space needs 3 positions not on one "
                             "line (use create1D for a line)"};
        }
        const std::string problem = triangulate(s.unit_, s.triangles_, s.hull_);
        if (!problem.empty()) return Fault{"clips", problem};
    }
    if (sync == BlendSync::Markers) {
        s.markerCount_ = markerCount;
        for (const BlendSpaceClip& c : s.clips_) {
            for (const Marker& m : c.clip->markers()) s.markerTimes_.push_back(m.time);
        }
        const double d0 = s.clips_[0].clip->duration();
        for (std::size_t k = 0; k < markerCount; ++k) s.referencePhases_.push_back(s.markerTimes_[k] / d0);
    }
    return s;
}

void BlendSpace::weights(float x, float y, std::span<float> out) const noexcept {
    const std::size_t n = clips_.size();
    if (out.size() != n || n == 0) return;
    std::fill(out.begin(), out.end(), 0.0f);
    if (dimensions_ == 1) {
        if (!std::isfinite(x)) x = clips_[0].x;
        const float first = clips_[order_.front()].x, last = clips_[order_.back()].x;
        if (x <= first) {
            out[order_.front()] = 1.0f;
            return;
        }
        if (x >= last) {
            out[order_.back()] = 1.0f;
            return;
        }
        // The first position above x; the one before it is at or below x.
        const auto hi = std::upper_bound(order_.begin(), order_.end(), x,
                                         [&](float v, std::uint32_t i) { return v < clips_[i].x; });
        const std::uint32_t b = *hi, a = *(hi - 1);
        const double t = (double{x} - clips_[a].x) / (double{clips_[b].x} - clips_[a].x);
        out[a] = static_cast<float>(1.0 - t);
        out[b] = static_cast<float>(t);
        return;
    }
    if (!std::isfinite(x) || !std::isfinite(y)) {
        x = clips_[0].x;
        y = clips_[0].y;
    }
    const Point q{(x - originX_) / scale_, (y - originY_) / scale_};
    // The triangle the point is deepest inside (its smallest barycentric weight
    // largest): on a shared edge either neighbour gives the same weights.
    double best = -std::numeric_limits<double>::infinity();
    std::array<double, 3> bary{};
    const Triangle* in = nullptr;
    for (const Triangle& t : triangles_) {
        const Point &a = unit_[t[0]], &b = unit_[t[1]], &c = unit_[t[2]];
        const double area = orient(a, b, c);
        const std::array<double, 3> l{orient(q, b, c) / area, orient(a, q, c) / area, orient(a, b, q) / area};
        const double least = std::min({l[0], l[1], l[2]});
        if (least > best) {
            best = least;
            bary = l;
            in = &t;
        }
    }
    if (in != nullptr && best >= -kInsideTolerance) {
        double sum = 0.0;
        for (double& l : bary) sum += (l = std::max(l, 0.0));
        for (std::size_t e = 0; e < 3; ++e) out[(*in)[e]] = static_cast<float>(bary[e] / sum);
        return;
    }
    // Outside the hull: the nearest point of the nearest hull edge.
    double nearest = std::numeric_limits<double>::infinity();
    Edge edge{0, 0};
    double along = 0.0;
    for (const Edge& e : hull_) {
        const Point &a = unit_[e[0]], &b = unit_[e[1]];
        const double dx = b[0] - a[0], dy = b[1] - a[1];
        const double t = std::clamp(((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / (dx * dx + dy * dy), 0.0, 1.0);
        const double ex = a[0] + t * dx - q[0], ey = a[1] + t * dy - q[1];
        if (ex * ex + ey * ey < nearest) {
            nearest = ex * ex + ey * ey;
            edge = e;
            along = t;
        }
    }
    out[edge[0]] = static_cast<float>(1.0 - along);
    out[edge[1]] += static_cast<float>(along);
}

double BlendSpace::unwrappedTimeAt(std::size_t clip, double phase) const noexcept {
    if (clip >= clips_.size() || !(phase >= 0.0 && phase < 1.0)) return 0.0;
    const double d = clips_[clip].clip->duration();
    if (sync_ == BlendSync::NormalizedTime || markerCount_ == 0) return phase * d;
    const std::size_t count = markerCount_;
    const double* m = markerTimes_.data() + clip * count;
    const double* r = referencePhases_.data();
    // Segment k runs from (r[k], m[k]) to (r[k+1], m[k+1]); the last one to
    // (r[0] + 1, m[0] + d). Each clamp keeps rounding from carrying a clip past the
    // marker that ends its segment, so a clip reaches marker k exactly at r[k] and
    // never before (up to the last bit of the fraction).
    if (phase < r[0]) {
        // The wrapping segment, before the first reference marker; 1 is subtracted
        // from the time's cycle so that the result grows over the whole of [0, 1).
        const double end = m[0] + d;
        const double f = (phase + 1.0 - r[count - 1]) / (r[0] + 1.0 - r[count - 1]);
        const double t = std::min(m[count - 1] + f * (end - m[count - 1]), end);
        return std::min(t - d, m[0]);
    }
    std::size_t k = count - 1;
    while (k > 0 && phase < r[k]) --k;
    const bool last = k + 1 == count;
    const double p0 = r[k], p1 = last ? r[0] + 1.0 : r[k + 1];
    const double t0 = m[k], t1 = last ? m[0] + d : m[k + 1];
    return std::min(t0 + (phase - p0) / (p1 - p0) * (t1 - t0), t1);
}

double BlendSpace::clipTimeAt(std::size_t clip, double phase) const noexcept {
    if (clip >= clips_.size() || !(phase >= 0.0 && phase < 1.0)) return 0.0;
    return wrapTime(unwrappedTimeAt(clip, phase), clips_[clip].clip->duration());
}

BlendSpacePlayer::BlendSpacePlayer(const BlendSpace& space) : space_(&space) {
    const std::size_t n = space.clips().size();
    weights_.assign(n, 0.0f);
    times_.assign(n, 0.0);
    unwrapped_.assign(n, 0.0);
    samples_.assign(n, BlendSample{});
    space.weights(x_, y_, weights_);
    for (std::size_t i = 0; i < n; ++i) {
        unwrapped_[i] = space.unwrappedTimeAt(i, phase_);
        times_[i] = wrapTime(unwrapped_[i], space.clips()[i].clip->duration());
    }
    refreshSamples(0.0, 0.0);
}

void BlendSpacePlayer::takeFrom(BlendSpacePlayer& other) noexcept {
    space_ = std::exchange(other.space_, nullptr);
    x_ = std::exchange(other.x_, 0.0f);
    y_ = std::exchange(other.y_, 0.0f);
    speed_ = std::exchange(other.speed_, 1.0);
    phase_ = std::exchange(other.phase_, 0.0);
    weights_ = std::move(other.weights_);
    times_ = std::move(other.times_);
    unwrapped_ = std::move(other.unwrapped_);
    samples_ = std::move(other.samples_);
    sampleCount_ = std::exchange(other.sampleCount_, 0);
    other.weights_.clear();
    other.times_.clear();
    other.unwrapped_.clear();
    other.samples_.clear();
}

Status BlendSpacePlayer::setParameters(float x, float y) noexcept {
    if (!std::isfinite(x) || !std::isfinite(y)) {
        return Status::failure(StatusCode::NotFinite, "blend parameter is not finite");
    }
    x_ = x;
    y_ = y;
    if (space_ != nullptr) space_->weights(x_, y_, weights_);
    return Status::success();
}

Status BlendSpacePlayer::setSpeed(double speed) noexcept {
    if (!std::isfinite(speed)) return Status::failure(StatusCode::NotFinite, "speed is not finite");
    speed_ = speed;
    return Status::success();
}

Status BlendSpacePlayer::seekPhase(double phase) noexcept {
    if (!std::isfinite(phase)) return Status::failure(StatusCode::NotFinite, "phase is not finite");
    phase_ = wrapPhase(phase);
    if (space_ == nullptr) return Status::success();
    for (std::size_t i = 0; i < times_.size(); ++i) {
        unwrapped_[i] = space_->unwrappedTimeAt(i, phase_);
        times_[i] = wrapTime(unwrapped_[i], space_->clips()[i].clip->duration());
    }
    return Status::success();
}

double BlendSpacePlayer::clipTime(std::size_t clip) const noexcept { return clip < times_.size() ? times_[clip] : 0.0; }

double BlendSpacePlayer::cycleDuration() const noexcept {
    if (space_ == nullptr) return 0.0;
    double cycle = 0.0;
    for (std::size_t i = 0; i < weights_.size(); ++i) {
        cycle += double{weights_[i]} * space_->clips()[i].clip->duration();
    }
    return cycle;
}

Status BlendSpacePlayer::update(double elapsed) noexcept {
    if (Status s = detail::checkElapsed(elapsed); !s) return s;
    if (space_ == nullptr || times_.empty()) return {};
    const double cycle = cycleDuration();
    const double delta = cycle > 0.0 ? elapsed * speed_ / cycle : 0.0;
    if (!std::isfinite(delta)) {
        return Status::failure(StatusCode::OutOfRange, "elapsed time at this speed overflows the phase");
    }
    // Whole laps and the new phase from one floor, so the two always agree.
    const double total = phase_ + delta;
    double laps = std::floor(total);
    double next = total - laps;
    if (next >= 1.0) {
        next = 0.0;
        laps += 1.0;
    }
    phase_ = next;
    refreshSamples(delta, laps);
    return {};
}

void BlendSpacePlayer::refreshSamples(double delta, double laps) noexcept {
    sampleCount_ = 0;
    for (std::size_t i = 0; i < times_.size(); ++i) {
        const double d = space_->clips()[i].clip->duration();
        const double u = space_->unwrappedTimeAt(i, phase_);
        const double from = times_[i];
        const double to = wrapTime(u, d);
        double travel = delta == 0.0 ? 0.0 : laps * d + (u - unwrapped_[i]);
        // Rounding at the phase seam can leave a step an ulp against its direction;
        // a sweep that ran backwards by an ulp would read as nearly a whole lap.
        if ((delta > 0.0 && travel < 0.0) || (delta < 0.0 && travel > 0.0)) travel = 0.0;
        times_[i] = to;
        unwrapped_[i] = u;
        if (weights_[i] > 0.0f) {
            samples_[sampleCount_++] = {static_cast<std::uint32_t>(i), weights_[i], to, {from, to, travel}};
        }
    }
}

}  // namespace kinema
