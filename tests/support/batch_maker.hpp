// PoseBatch::create for tests whose options are known to be good: a refusal there
// is the test's own mistake, reported as a test failure with the faults.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <stdexcept>
#include <utility>

#include "kinema/batch/pose_batch.hpp"

namespace kinema::test {

inline PoseBatch makeBatch(const Skeleton& skeleton, std::span<const float> restWeights, std::size_t instances,
                           BatchOptions options = {}) {
    Result<PoseBatch> batch = PoseBatch::create(skeleton, restWeights, instances, options);
    if (!batch) throw std::runtime_error("PoseBatch::create: " + batch.message());
    return std::move(batch).value();
}

}  // namespace kinema::test
