// kinema/render: the typed ids of a render catalogue. Each is meaningful only with
// the RenderCatalogue that issued it.
#pragma once

#include "kinema/core/typed_id.hpp"

namespace kinema {

using MeshId = TypedId<struct MeshIdTag>;
using ImageId = TypedId<struct ImageIdTag>;
using TextureId = TypedId<struct TextureIdTag>;
using MaterialId = TypedId<struct MaterialIdTag>;
using RenderObjectId = TypedId<struct RenderObjectIdTag>;

}  // namespace kinema
