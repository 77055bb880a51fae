// Cameras: perspective or orthographic projections, checked as the glTF schema and
// the Khronos validator require. Nodes name them (gltf_nodes.cpp binds the two).
#include "gltf_importer.hpp"

#include <string>

namespace kinema::gltf_import {

void Importer::readCameras() {
    model_.cameras.resize(table("cameras", sizeof(Camera)));
    if (stopped_) return;  // out of budget
    forEachObject("cameras", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Camera& c = model_.cameras[i];
        enum { kName, kType, kPerspective, kOrthographic };
        static constexpr std::array<std::string_view, 4> kKeys{"name", "type", "perspective", "orthographic"};
        const Members<4> f(o, kKeys);
        std::string_view name;
        if (getString(f[kName], "name", at, name, false)) c.name = name;
        if (f.has(kPerspective) && f.has(kOrthographic)) {
            fault(at, "a camera has exactly one of perspective and orthographic");
            return;
        }
        std::string_view type;
        if (!getString(f[kType], "type", at, type, true)) return;
        // An unknown type is only a warning for the validator (the schema admits other
        // strings), but there is no projection to repair it with: a fault in both modes.
        if (type != "perspective" && type != "orthographic") {
            fault(at / "type", inQuotes(type) + " is not one of 'perspective', 'orthographic'");
            return;
        }
        const bool perspective = type == "perspective";
        const std::string_view key = perspective ? "perspective" : "orthographic";
        dom::object p;
        if (!getObject(f[perspective ? kPerspective : kOrthographic], key, at, p, true)) return;
        const Pointer pat = at / key;
        const auto positive = [&](std::string_view member, float value) {
            if (value > 0.0f) return true;
            fault(pat / member, exactNumber(value) + " must be greater than 0");
            return false;
        };
        float znear = 0.0f, zfar = 0.0f;
        const bool hasNear = getFloat(member(p, "znear"), "znear", pat, znear, true);
        const bool hasFar = getFloat(member(p, "zfar"), "zfar", pat, zfar, !perspective);
        if (perspective) {
            c.projection = CameraProjection::Perspective;
            if (getFloat(member(p, "yfov"), "yfov", pat, c.yfov, true)) positive("yfov", c.yfov);
            float aspect = 0.0f;
            if (getFloat(member(p, "aspectRatio"), "aspectRatio", pat, aspect, false) &&
                positive("aspectRatio", aspect))
                c.aspectRatio = aspect;
            if (hasNear) positive("znear", znear);
        } else {
            c.projection = CameraProjection::Orthographic;
            for (const auto& [mag, value] : {std::pair<std::string_view, float*>{"xmag", &c.xmag},
                                             std::pair<std::string_view, float*>{"ymag", &c.ymag}}) {
                // Negative magnifications (a mirrored view) are only a warning for the validator.
                if (getFloat(member(p, mag), mag, pat, *value, true) && *value == 0.0f)
                    fault(pat / mag, "must not be zero");
            }
            if (hasNear && znear < 0.0f) fault(pat / "znear", exactNumber(znear) + " must not be negative");
        }
        if (hasNear) c.znear = znear;
        if (hasFar) {
            c.zfar = zfar;
            if (positive("zfar", zfar) && hasNear && !(zfar > znear))
                fault(pat / "zfar", exactNumber(zfar) + " must be greater than znear (" + exactNumber(znear) + ")");
        }
    });
}

}  // namespace kinema::gltf_import
