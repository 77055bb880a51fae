// The compute rasteriser's triangle stage, shared by its per-triangle pass
// (raster_triangles.comp) and its per-draw pass (raster_draws.comp): a triangle is
// culled as the graphics pipeline culls it, clipped against the near plane, snapped to
// 1/256 of a pixel, and every pixel centre it covers (top-left rule) keeps the nearest
// (depth << 32 | triangle id) in the visibility buffer by a 64-bit atomicMin. The
// including pass declares the Visibility and VisibilityWords buffers first.

const float kSubpixel = 256.0;       // 8 bits of sub-pixel precision, as GPUs snap
const float kGuardBand = 2097152.0;  // 2^21 pixels: keeps the edge products inside 64 bits

int64_t edgeFunction(i64vec2 a, i64vec2 b, i64vec2 p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }

// With the triangle's area positive (y down), a top edge runs horizontally to the
// right and a left edge runs up: a centre exactly on one of them is covered.
bool covers(int64_t e, i64vec2 a, i64vec2 b) {
    if (e != 0l) return e > 0l;
    i64vec2 d = b - a;
    return (d.y == 0l && d.x > 0l) || d.y < 0l;
}

int64_t ceilDiv256(int64_t v) { return (v + 255l) >> 8; }  // arithmetic shift: floor for negatives too
int64_t floorDiv256(int64_t v) { return v >> 8; }

// Pixel position (y down) in float, before snapping.
vec2 pixelOf(vec4 c) { return (c.xy / c.w + 1.0) * 0.5 * vec2(pass.width, pass.height); }

// A vertex in front of the eye on screen: its pixel position before snapping (y
// down) and its depth z/w.
vec3 screenOf(vec4 c) { return vec3(pixelOf(c), c.z / c.w); }

// Pixel position in 1/256 of a pixel from the position before snapping.
i64vec2 snapped(vec2 px) { return i64vec2(round(clamp(px, -kGuardBand, kGuardBand) * kSubpixel)); }

// The triangle of three vertices in front of the eye (screenOf).
void rasteriseScreen(vec3 sa, vec3 sb, vec3 sc, uint flags, uint id) {
    // Most triangles of a distant crowd cover no pixel centre: a float test of their
    // bounds, widened by more than snapping can move a vertex, drops them before the
    // 64-bit work.
    vec2 pa = sa.xy, pb = sb.xy, pc = sc.xy;
    vec2 lo = min(pa, min(pb, pc)) - 0.5 - 1.0 / 128.0;
    vec2 hi = max(pa, max(pb, pc)) - 0.5 + 1.0 / 128.0;
    if (ceil(lo.x) > floor(hi.x) || ceil(lo.y) > floor(hi.y) || hi.x < 0.0 || hi.y < 0.0 ||
        lo.x > float(pass.width) || lo.y > float(pass.height)) {
        return;
    }
    i64vec2 fa = snapped(pa), fb = snapped(pb), fc = snapped(pc);
    int64_t area = edgeFunction(fa, fb, fc);
    if (area == 0l) return;
    // Vulkan's rule with y flipped by the projection: counter-clockwise fronts have a
    // negative area in y-down pixels; a mirroring world matrix turns that round.
    bool front = (flags & kRasterClockwise) != 0u ? area > 0l : area < 0l;
    if ((flags & kRasterCullBack) != 0u && !front) return;
    float za = sa.z, zb = sb.z, zc = sc.z;
    if (area < 0l) {
        i64vec2 t = fb;
        fb = fc;
        fc = t;
        float tz = zb;
        zb = zc;
        zc = tz;
        area = -area;
    }
    i64vec2 flo = min(fa, min(fb, fc));
    i64vec2 fhi = max(fa, max(fb, fc));
    // Pixel x's centre is x * 256 + 128.
    int x0 = int(max(ceilDiv256(flo.x - 128l), 0l));
    int y0 = int(max(ceilDiv256(flo.y - 128l), 0l));
    int x1 = int(min(floorDiv256(fhi.x - 128l), int64_t(pass.width) - 1l));
    int y1 = int(min(floorDiv256(fhi.y - 128l), int64_t(pass.height) - 1l));
    float inverseArea = 1.0 / float(area);
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            i64vec2 p = i64vec2(int64_t(x) * 256l + 128l, int64_t(y) * 256l + 128l);
            int64_t ea = edgeFunction(fb, fc, p);  // a's weight, times the area
            int64_t eb = edgeFunction(fc, fa, p);
            int64_t ec = edgeFunction(fa, fb, p);
            if (!covers(ea, fb, fc) || !covers(eb, fc, fa) || !covers(ec, fa, fb)) continue;
            float depth = (float(ea) * za + float(eb) * zb + float(ec) * zc) * inverseArea;
            if (depth > 1.0) continue;  // beyond the far plane
            depth = max(depth, 0.0);
            uint64_t entry = (uint64_t(floatBitsToUint(depth)) << 32) | uint64_t(id);
            // A pixel's stored depth only ever decreases, so a read of it, however stale,
            // is at least its depth now: a fragment behind it can skip the atomic. A
            // distant crowd piles many triangles onto each pixel, and the atomics on one
            // address are what would serialise.
            uint at = uint(y) * pass.width + uint(x);
            if (floatBitsToUint(depth) > visibilityWords[2u * at + 1u]) continue;
            atomicMin(visibility[at], entry);
        }
    }
}

void rasterise(vec4 a, vec4 b, vec4 c, uint flags, uint id) {
    if (a.w <= 0.0 || b.w <= 0.0 || c.w <= 0.0) return;
    rasteriseScreen(screenOf(a), screenOf(b), screenOf(c), flags, id);
}

// The triangle of three clip positions: culled against the frustum, clipped against
// the near plane, rasterised.
void rasteriseClip(vec4 v[3], uint flags, uint id) {
    // A vertex at no finite place (a pose or world matrix that overflowed) puts the
    // triangle nowhere: dropped here, since min, max and clamp of a NaN, which the tests
    // below would meet, are undefined.
    for (uint i = 0u; i < 3u; ++i) {
        if (any(isnan(v[i])) || any(isinf(v[i]))) return;
    }
    // Wholly outside one plane of the frustum: nothing to draw.
    if ((v[0].x > v[0].w && v[1].x > v[1].w && v[2].x > v[2].w) ||
        (v[0].x < -v[0].w && v[1].x < -v[1].w && v[2].x < -v[2].w) ||
        (v[0].y > v[0].w && v[1].y > v[1].w && v[2].y > v[2].w) ||
        (v[0].y < -v[0].w && v[1].y < -v[1].w && v[2].y < -v[2].w) ||
        (v[0].z > v[0].w && v[1].z > v[1].w && v[2].z > v[2].w) || (v[0].z < 0.0 && v[1].z < 0.0 && v[2].z < 0.0))
        return;
    if (v[0].z >= 0.0 && v[1].z >= 0.0 && v[2].z >= 0.0) {
        rasterise(v[0], v[1], v[2], flags, id);
        return;
    }
    // Sutherland-Hodgman against the near plane z >= 0: at most four vertices, in the
    // triangle's winding. A new vertex is computed from the edge's inside end, so two
    // triangles sharing the edge make the same one.
    vec4 poly[4];
    uint n = 0u;
    for (uint i = 0u; i < 3u; ++i) {
        vec4 cur = v[i];
        vec4 next = v[(i + 1u) % 3u];
        bool curIn = cur.z >= 0.0;
        bool nextIn = next.z >= 0.0;
        if (curIn) poly[n++] = cur;
        if (curIn != nextIn) {
            vec4 inside = curIn ? cur : next;
            vec4 outside = curIn ? next : cur;
            vec4 p = mix(inside, outside, inside.z / (inside.z - outside.z));
            p.z = 0.0;
            poly[n++] = p;
        }
    }
    if (n >= 3u) rasterise(poly[0], poly[1], poly[2], flags, id);
    if (n == 4u) rasterise(poly[0], poly[2], poly[3], flags, id);
}
