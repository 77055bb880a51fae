// Transforms and matrices: toMatrix against T * R * S built factor by factor,
// decompose round trips (mirrored and collapsed axes included), inverseAffine,
// and the matrix products against a plain triple loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "kinema/math/mat4.hpp"
#include "kinema/math/transform.hpp"
#include "math/reference.hpp"

namespace {

using kinema::Mat4;
using kinema::Quat;
using kinema::Transform;
using kinema::Vec3;

Mat4 narrow(const kref::M4& m) {
    Mat4 r;
    for (std::size_t i = 0; i < 16; ++i) r.m[i] = static_cast<float>(m[i]);
    return r;
}

void expectMatNear(const kref::M4& want, const Mat4& got, double tol, const char* what = "") {
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col)
            EXPECT_NEAR(got(row, col), kref::at(want, row, col), tol)
                << what << " element (" << row << ", " << col << ")";
}

void expectMatNear(const Mat4& want, const Mat4& got, double tol, const char* what = "") {
    expectMatNear(kref::widen(want), got, tol, what);
}

bool allFinite(const Mat4& m) {
    for (float v : m.m)
        if (!std::isfinite(v)) return false;
    return true;
}

bool allFinite(const Transform& t) {
    const float v[] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                       t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
    for (float f : v)
        if (!std::isfinite(f)) return false;
    return true;
}

Transform randomTransform(std::mt19937& rng, float minScale = 0.2f, float maxScale = 3.0f) {
    std::uniform_real_distribution<float> pos(-10.0f, 10.0f);
    std::uniform_real_distribution<float> sc(minScale, maxScale);
    Transform t;
    t.translation = {pos(rng), pos(rng), pos(rng)};
    t.rotation = kref::randomUnitQuat(rng);
    t.scale = {sc(rng), sc(rng), sc(rng)};
    return t;
}

double det3(const Mat4& m) {
    const double a = m(0, 0), b = m(0, 1), c = m(0, 2);
    const double d = m(1, 0), e = m(1, 1), f = m(1, 2);
    const double g = m(2, 0), h = m(2, 1), i = m(2, 2);
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

double quatLength(Quat q) {
    return std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z + double(q.w) * q.w);
}

// ---- toMatrix ------------------------------------------------------------------

TEST(TransformToMatrix, HandCalculatedQuarterTurnAboutZ) {
    // R = 90 deg about z takes x to y and y to -x. T * R * S with S = (2, 3, 4):
    // column 0 = R (2, 0, 0) = (0, 2, 0); column 1 = R (0, 3, 0) = (-3, 0, 0);
    // column 2 = (0, 0, 4); column 3 = (1, 2, 3, 1).
    Transform t;
    t.translation = {1, 2, 3};
    t.rotation = {0, 0, std::sqrt(0.5f), std::sqrt(0.5f)};
    t.scale = {2, 3, 4};
    const kref::M4 want{0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1};
    expectMatNear(want, kinema::toMatrix(t), 1e-6);
}

TEST(TransformToMatrix, IdentityTransformIsIdentityMatrix) {
    EXPECT_EQ(kinema::toMatrix(Transform{}), Mat4::identity());
}

TEST(TransformToMatrix, MatchesTranslationTimesRotationTimesScaleBuiltSeparately) {
    std::mt19937 rng(301);
    for (int n = 0; n < 1000; ++n) {
        Transform t = randomTransform(rng);
        if (n % 3 == 0) t.scale.y = -t.scale.y;  // negative scales compose the same way
        expectMatNear(kref::trs(t), kinema::toMatrix(t), 1e-5);
    }
}

// ---- products ------------------------------------------------------------------

TEST(MatrixProduct, GeneralAndAffineProductsMatchATripleLoop) {
    std::mt19937 rng(302);
    for (int n = 0; n < 300; ++n) {
        const Mat4 a = kinema::toMatrix(randomTransform(rng)), b = kinema::toMatrix(randomTransform(rng));
        const kref::M4 want = kref::mul(kref::widen(a), kref::widen(b));
        expectMatNear(want, a * b, 1e-4, "a * b");
        expectMatNear(want, kinema::mulAffine(a, b), 1e-4, "mulAffine");
    }
}

TEST(MatrixProduct, GeneralProductKeepsAProjectiveLastRow) {
    Mat4 p;  // a perspective-like last row
    p(3, 2) = -1.0f;
    p(3, 3) = 0.0f;
    Mat4 t;
    t(0, 3) = 5.0f;
    const Mat4 r = p * t;
    EXPECT_EQ(r(3, 2), -1.0f);
    EXPECT_EQ(r(3, 3), 0.0f);
    EXPECT_EQ(r(0, 3), 5.0f);
}

TEST(MatrixTransformPoint, PointsGetTranslationDirectionsDoNot) {
    Transform t;
    t.translation = {1, 2, 3};
    t.scale = {2, 2, 2};
    const Mat4 m = kinema::toMatrix(t);
    EXPECT_EQ(kinema::transformPoint(m, {1, 0, 0}), (Vec3{3, 2, 3}));
    EXPECT_EQ(kinema::transformDirection(m, {1, 0, 0}), (Vec3{2, 0, 0}));
}

// ---- decompose -------------------------------------------------------------------

TEST(TransformDecompose, RecoversRandomTrsWithPositiveScale) {
    std::mt19937 rng(303);
    for (int n = 0; n < 1000; ++n) {
        const Transform t = randomTransform(rng);
        const Transform d = kinema::decompose(kinema::toMatrix(t));
        EXPECT_NEAR(d.translation.x, t.translation.x, 1e-6);
        EXPECT_NEAR(d.translation.y, t.translation.y, 1e-6);
        EXPECT_NEAR(d.translation.z, t.translation.z, 1e-6);
        EXPECT_NEAR(d.scale.x, t.scale.x, 1e-5);
        EXPECT_NEAR(d.scale.y, t.scale.y, 1e-5);
        EXPECT_NEAR(d.scale.z, t.scale.z, 1e-5);
        // q and -q are the same rotation
        const double dq = std::fabs(double(d.rotation.x) * t.rotation.x + double(d.rotation.y) * t.rotation.y +
                                    double(d.rotation.z) * t.rotation.z + double(d.rotation.w) * t.rotation.w);
        EXPECT_NEAR(dq, 1.0, 1e-5);
        EXPECT_NEAR(quatLength(d.rotation), 1.0, 1e-6);
    }
}

TEST(TransformDecompose, RoundTripsRandomTrs) {
    std::mt19937 rng(304);
    for (int n = 0; n < 1000; ++n) {
        const Mat4 m = kinema::toMatrix(randomTransform(rng));
        expectMatNear(m, kinema::toMatrix(kinema::decompose(m)), 1e-5);
    }
}

TEST(TransformDecompose, RoundTripsNegativeScaleOnOneAxis) {
    std::mt19937 rng(305);
    for (int n = 0; n < 1000; ++n) {
        Transform t = randomTransform(rng);
        const int axis = n % 3;
        (axis == 0 ? t.scale.x : axis == 1 ? t.scale.y : t.scale.z) *= -1.0f;
        const Mat4 m = kinema::toMatrix(t);
        const Transform d = kinema::decompose(m);
        ASSERT_TRUE(allFinite(d));
        expectMatNear(m, kinema::toMatrix(d), 1e-5);
        // the contract: the mirror comes back on scale.x, with a proper rotation
        EXPECT_LT(d.scale.x, 0.0f);
        EXPECT_GT(d.scale.y, 0.0f);
        EXPECT_GT(d.scale.z, 0.0f);
        EXPECT_NEAR(quatLength(d.rotation), 1.0, 1e-6);
    }
}

TEST(TransformDecompose, MirroredMatrixAcrossAnArbitraryPlane) {
    // Householder reflection I - 2 n n^T, then a translation: det = -1.
    const kref::D3 n{0.48, -0.6, 0.64};  // unit: 0.2304 + 0.36 + 0.4096 = 1
    kref::M4 h = kref::identity();
    const double nv[3] = {n.x, n.y, n.z};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) kref::at(h, r, c) -= 2 * nv[r] * nv[c];
    kref::at(h, 0, 3) = 0.5;
    kref::at(h, 1, 3) = -1.5;
    kref::at(h, 2, 3) = 2.0;
    const Mat4 m = narrow(h);
    ASSERT_LT(det3(m), 0.0);
    const Transform d = kinema::decompose(m);
    ASSERT_TRUE(allFinite(d));
    EXPECT_NEAR(d.scale.x, -1.0, 1e-6);
    EXPECT_NEAR(d.scale.y, 1.0, 1e-6);
    EXPECT_NEAR(d.scale.z, 1.0, 1e-6);
    expectMatNear(m, kinema::toMatrix(d), 1e-5);
}

TEST(TransformDecompose, MirroredDiagonalMatrix) {
    Mat4 m;
    m(1, 1) = -2.0f;  // mirror in y, scaled
    m(0, 3) = 7.0f;
    const Transform d = kinema::decompose(m);
    ASSERT_TRUE(allFinite(d));
    expectMatNear(m, kinema::toMatrix(d), 1e-6);
    EXPECT_EQ(d.translation, (Vec3{7, 0, 0}));
}

Mat4 withScale(std::mt19937& rng, Vec3 scale) {
    Transform t = randomTransform(rng);
    t.scale = scale;
    return kinema::toMatrix(t);
}

TEST(TransformDecompose, ZeroScaleOnOneAxis) {
    std::mt19937 rng(306);
    const Vec3 scales[] = {{0, 2, 3}, {2, 0, 3}, {2, 3, 0}, {-2, 0, 3}};
    for (int n = 0; n < 100; ++n) {
        for (const Vec3& s : scales) {
            const Mat4 m = withScale(rng, s);
            const Transform d = kinema::decompose(m);
            ASSERT_TRUE(allFinite(d));
            EXPECT_NEAR(quatLength(d.rotation), 1.0, 1e-6);
            EXPECT_NEAR(std::fabs(d.scale.x), std::fabs(s.x), 1e-5);
            EXPECT_NEAR(std::fabs(d.scale.y), std::fabs(s.y), 1e-5);
            EXPECT_NEAR(std::fabs(d.scale.z), std::fabs(s.z), 1e-5);
            expectMatNear(m, kinema::toMatrix(d), 1e-5);
        }
    }
}

TEST(TransformDecompose, ZeroScaleOnTwoAxes) {
    std::mt19937 rng(307);
    const Vec3 scales[] = {{0, 0, 3}, {0, 2, 0}, {2, 0, 0}, {0, -2, 0}};
    for (int n = 0; n < 100; ++n) {
        for (const Vec3& s : scales) {
            const Mat4 m = withScale(rng, s);
            const Transform d = kinema::decompose(m);
            ASSERT_TRUE(allFinite(d));
            EXPECT_NEAR(quatLength(d.rotation), 1.0, 1e-6);
            EXPECT_NEAR(std::fabs(d.scale.x) + std::fabs(d.scale.y) + std::fabs(d.scale.z),
                        std::fabs(s.x) + std::fabs(s.y) + std::fabs(s.z), 1e-5);
            expectMatNear(m, kinema::toMatrix(d), 1e-5);
        }
    }
}

TEST(TransformDecompose, ZeroScaleOnAllThreeAxes) {
    std::mt19937 rng(308);
    for (int n = 0; n < 100; ++n) {
        const Mat4 m = withScale(rng, {0, 0, 0});
        const Transform d = kinema::decompose(m);
        ASSERT_TRUE(allFinite(d));
        EXPECT_EQ(d.scale, (Vec3{0, 0, 0}));
        EXPECT_NEAR(quatLength(d.rotation), 1.0, 1e-6);
        EXPECT_EQ(d.translation, (Vec3{m(0, 3), m(1, 3), m(2, 3)}));
        expectMatNear(m, kinema::toMatrix(d), 1e-6);
    }
}

// Finite matrices whose axis lengths squared leave float range (above ~1.8e19 or
// below ~1e-19): the scales must still come back relative to their size, and the
// other axes must not be disturbed.
void expectExtremeScaleComesBack(float s) {
    std::mt19937 rng(311);
    for (int axis = 0; axis < 3; ++axis) {
        Transform t = randomTransform(rng, 0.5f, 2.0f);
        float& target = axis == 0 ? t.scale.x : axis == 1 ? t.scale.y : t.scale.z;
        target = s;
        const Transform d = kinema::decompose(kinema::toMatrix(t));
        ASSERT_TRUE(allFinite(d));
        const double worst = std::max({std::fabs(d.scale.x / t.scale.x - 1.0), std::fabs(d.scale.y / t.scale.y - 1.0),
                                       std::fabs(d.scale.z / t.scale.z - 1.0)});
        EXPECT_LT(worst, 1e-5) << "scale " << s << " on axis " << axis << ": decomposed scale (" << d.scale.x << ", "
                               << d.scale.y << ", " << d.scale.z << ") for (" << t.scale.x << ", " << t.scale.y << ", "
                               << t.scale.z << ")";
    }
}

TEST(TransformDecompose, HugeFiniteScaleOnOneAxisComesBack) {
    expectExtremeScaleComesBack(1e20f);
    expectExtremeScaleComesBack(1e30f);
}

TEST(TransformDecompose, TinyFiniteScaleOnOneAxisComesBack) {
    expectExtremeScaleComesBack(1e-22f);
    expectExtremeScaleComesBack(1e-25f);
}

// Mirrored uniform scales from 1e-31 to 1e25: the sign and the rotation survive
// (the mirror test and the axes' directions are taken in double).
TEST(TransformDecompose, MirroredUniformScalesOfAnySizeKeepTheirSignAndRotation) {
    const Quat q = kinema::normalize(Quat{0.3f, -0.5f, 0.2f, 0.8f});
    for (const float k : {1e-31f, 1e-20f, 1e-16f, 1.0f, 1e16f, 1e25f}) {
        const Transform d = kinema::decompose(kinema::toMatrix(Transform{{0, 1, 0}, q, {-k, k, k}}));
        EXPECT_NEAR(d.scale.x / -k, 1.0, 1e-6) << k;
        EXPECT_NEAR(d.scale.y / k, 1.0, 1e-6) << k;
        EXPECT_NEAR(d.scale.z / k, 1.0, 1e-6) << k;
        EXPECT_GT(std::fabs(kinema::dot(d.rotation, q)), 1.0f - 1e-6f) << k;
    }
}

// Shear: the rotation is the polar factor of the unit axes. In a plane (axes x and
// y turned about z, z untouched) that factor turns by atan2(c - b, a + d) for the
// unit axes' 2 x 2 block [a b; c d].
TEST(TransformDecompose, ShearGivesTheRotationNearestTheAxesDirections) {
    for (const double turn : {0.0, 0.5236, 0.7854, 1.2, 2.5, -2.0}) {
        for (const double stretch : {1.2, 2.0, 5.0}) {
            // Parent scale (stretch, 1, 1) times a child turned by `turn` about z.
            const double co = std::cos(turn), si = std::sin(turn);
            const double x0 = stretch * co, y0 = si, x1 = -stretch * si, y1 = co;
            Mat4 m;
            m.m[0] = static_cast<float>(x0);
            m.m[1] = static_cast<float>(y0);
            m.m[4] = static_cast<float>(x1);
            m.m[5] = static_cast<float>(y1);
            const double n0 = std::hypot(x0, y0), n1 = std::hypot(x1, y1);
            const double a = x0 / n0, c = y0 / n0, b = x1 / n1, d = y1 / n1;
            const double want = std::atan2(c - b, a + d);
            const Transform got = kinema::decompose(m);
            const Quat expected = kinema::fromAxisAngle(Vec3{0.0f, 0.0f, 1.0f}, static_cast<float>(want));
            EXPECT_GT(std::fabs(kinema::dot(got.rotation, expected)), 1.0f - 1e-6f)
                << "turn " << turn << " stretch " << stretch;
            EXPECT_NEAR(got.scale.x, n0, 1e-6 * n0);
            EXPECT_NEAR(got.scale.y, n1, 1e-6 * n1);
            EXPECT_EQ(got.scale.z, 1.0f);
        }
    }
}

// Degenerate bases: a collapsed x with y and z parallel, all three parallel, and two
// parallel with the third collapsed give a unit rotation and no NaN.
TEST(TransformDecompose, ParallelAxesGiveAUnitRotation) {
    const float bases[][9] = {{0, 0, 0, 0, 1, 0, 0, 2, 0}, {1, 1, 0, 2, 2, 0, 3, 3, 0}, {0, 0, 1, 0, 0, 0, 0, 0, 3}};
    for (const auto& b : bases) {
        Mat4 m;
        for (int c = 0; c < 3; ++c) {
            for (int r = 0; r < 3; ++r) m.m[static_cast<std::size_t>(c * 4 + r)] = b[c * 3 + r];
        }
        const Transform d = kinema::decompose(m);
        ASSERT_TRUE(allFinite(d));
        EXPECT_NEAR(kinema::dot(d.rotation, d.rotation), 1.0f, 1e-6f);
    }
}

TEST(TransformDecompose, NonFiniteMatrixNeverGivesNaN) {
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (float bad : {inf, -inf, nan}) {
        for (int e = 0; e < 15; ++e) {
            if (e % 4 == 3) continue;  // the last row stays 0 0 0 1
            Mat4 m = kinema::toMatrix(Transform{{1, 2, 3}, {0, 0, 0, 1}, {1, 2, 3}});
            m.m[static_cast<std::size_t>(e)] = bad;
            EXPECT_TRUE(allFinite(kinema::decompose(m))) << "element " << e << " = " << bad;
        }
    }
}

// ---- inverseAffine -----------------------------------------------------------------

TEST(MatrixInverseAffine, InverseTimesMatrixIsIdentity) {
    std::mt19937 rng(309);
    for (int n = 0; n < 1000; ++n) {
        Transform t = randomTransform(rng, 0.3f, 3.0f);
        if (n % 4 == 0) t.scale.z = -t.scale.z;  // mirrored too
        const Mat4 m = kinema::toMatrix(t);
        const Mat4 inv = kinema::inverseAffine(m);
        const kref::M4 left = kref::mul(kref::widen(inv), kref::widen(m));
        const kref::M4 right = kref::mul(kref::widen(m), kref::widen(inv));
        EXPECT_LT(kref::maxAbsDiff(left, kref::identity()), 1e-5);
        EXPECT_LT(kref::maxAbsDiff(right, kref::identity()), 2e-5);
        EXPECT_EQ(inv(3, 0), 0.0f);
        EXPECT_EQ(inv(3, 1), 0.0f);
        EXPECT_EQ(inv(3, 2), 0.0f);
        EXPECT_EQ(inv(3, 3), 1.0f);
    }
}

TEST(MatrixInverseAffine, HandCalculatedScaleAndTranslation) {
    // M = T(1, 2, 3) S(2, 4, 8): M^-1 = S(1/2, 1/4, 1/8) T(-1, -2, -3)
    Mat4 m;
    m(0, 0) = 2;
    m(1, 1) = 4;
    m(2, 2) = 8;
    m(0, 3) = 1;
    m(1, 3) = 2;
    m(2, 3) = 3;
    const kref::M4 want{0.5, 0, 0, 0, 0, 0.25, 0, 0, 0, 0, 0.125, 0, -0.5, -0.5, -0.375, 1};
    expectMatNear(want, kinema::inverseAffine(m), 0.0);
}

TEST(MatrixInverseAffine, SingularInputGivesNoNaNOrInf) {
    std::mt19937 rng(310);
    std::vector<Mat4> singular;
    Mat4 zero;
    zero.m.fill(0.0f);
    zero(3, 3) = 1.0f;
    singular.push_back(zero);
    singular.push_back(withScale(rng, {0, 1, 2}));  // zero-scale bone
    singular.push_back(withScale(rng, {1, 0, 0}));
    singular.push_back(withScale(rng, {0, 0, 0}));
    Mat4 equalColumns = kinema::toMatrix(randomTransform(rng));
    for (int r = 0; r < 3; ++r) equalColumns(r, 2) = equalColumns(r, 1);
    singular.push_back(equalColumns);
    Mat4 rankOne;  // u v^T with u = (1, 2, 3), v = (4, 5, 6)
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) rankOne(r, c) = float((r + 1) * (c + 4));
    rankOne(0, 3) = 9.0f;
    singular.push_back(rankOne);
    for (const Mat4& m : singular) {
        const Mat4 inv = kinema::inverseAffine(m);
        EXPECT_TRUE(allFinite(inv));
        // documented: the 3x3 block of a singular matrix's inverse is zeros
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) EXPECT_EQ(inv(r, c), 0.0f);
        EXPECT_EQ(inv(3, 3), 1.0f);
    }
}

}  // namespace
