// Animations: samplers, channels and their tracks, the rotation keys' unit length,
// and markers from the animation's extras.
#include "gltf_importer.hpp"

#include <cmath>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace kinema::gltf_import {

void Importer::readAnimations() {
    // Key times by input accessor (empty: not decoded yet).
    std::vector<std::vector<float>> timesByAccessor(accessors_.size());
    std::vector<std::uint8_t> refusedTimes(accessors_.size(), 0);  // faulted once, skipped after
    model_.clips.reserve(table("animations", sizeof(Clip)));
    if (stopped_) return;  // out of budget
    forEachObject("animations", [&](std::size_t, const dom::object& o, const Pointer& at) {
        std::string name;
        readName(o, at, name);
        dom::array samplers, channels;
        const bool hasSamplers = getArray(o, "samplers", at, samplers, true);
        const bool hasChannels = getArray(o, "channels", at, channels, true);
        if (!hasSamplers || !hasChannels) return;
        struct SamplerInfo {
            std::int64_t input = -1, output = -1;
            Interpolation interpolation = Interpolation::Linear;
            bool ok = false;
        };
        if (!charged(samplers.size() + channels.size(), sizeof(Track) + 2 * sizeof(std::size_t), at,
                     "the samplers and channels")) {
            return;
        }
        std::vector<SamplerInfo> infos(samplers.size());
        std::size_t i = 0;
        for (dom::element e : samplers) {
            const Pointer sat = at / "samplers" / i;
            dom::object so;
            SamplerInfo& si = infos[i++];
            if (!asObject(e, sat, so)) continue;
            std::uint64_t input = 0, output = 0;
            enum { kInput, kOutput, kInterpolation };
            static constexpr std::array<std::string_view, 3> kKeys{"input", "output", "interpolation"};
            const Members<3> m(so, kKeys);
            const bool hi = getUint(m[kInput], "input", sat, input, true);
            const bool ho = getUint(m[kOutput], "output", sat, output, true);
            std::string_view interp = "LINEAR";
            getString(m[kInterpolation], "interpolation", sat, interp, false);
            if (interp == "LINEAR")
                si.interpolation = Interpolation::Linear;
            else if (interp == "STEP")
                si.interpolation = Interpolation::Step;
            else if (interp == "CUBICSPLINE")
                si.interpolation = Interpolation::CubicSpline;
            else {
                fault(sat / "interpolation", inQuotes(interp) + " is not LINEAR, STEP or CUBICSPLINE");
                continue;
            }
            if (hi && input >= accessors_.size()) fault(sat / "input", "no such accessor");
            if (ho && output >= accessors_.size()) fault(sat / "output", "no such accessor");
            if (!hi || !ho || input >= accessors_.size() || output >= accessors_.size()) continue;
            si.input = static_cast<std::int64_t>(input);
            si.output = static_cast<std::int64_t>(output);
            // Sampler data is read as packed arrays: the specification allows
            // byteStride only on buffer views of vertex attributes.
            bool packed = true;
            for (const auto& [key, index] :
                 {std::pair<std::string_view, std::uint64_t>{"input", input}, {"output", output}}) {
                const Accessor& a = accessors_[static_cast<std::size_t>(index)];
                if (a.ok && a.desc.byteStride != 0) {
                    fault(sat / key,
                          "accessor " + std::to_string(index) + "'s bufferView has byteStride " +
                              std::to_string(a.desc.byteStride) +
                              "; animation sampler data must be tightly packed (no byteStride)");
                    packed = false;
                }
            }
            si.ok = packed;
        }
        std::vector<Track> tracks;
        std::vector<std::size_t> channelOfTrack;
        tracks.reserve(channels.size());
        channelOfTrack.reserve(channels.size());
        std::size_t c = 0;
        // Faults about the data's values (bounds, unit length) do not stop the clip's
        // own checks, which name other problems of the same data.
        const std::size_t faultsBefore = faults_.size() - valueFaults_;
        for (dom::element e : channels) {
            const Pointer cat = at / "channels" / c;
            dom::object co, target;
            const std::size_t channelIndex = c++;
            if (!asObject(e, cat, co)) continue;
            enum { kSampler, kTarget, kNode = 0, kPath = 1 };
            static constexpr std::array<std::string_view, 2> kChannelKeys{"sampler", "target"};
            static constexpr std::array<std::string_view, 2> kTargetKeys{"node", "path"};
            const Members<2> cm(co, kChannelKeys);
            const std::int32_t sampler = getIndex(cm[kSampler], "sampler", cat, infos.size(), "sampler", true);
            if (!getObject(cm[kTarget], "target", cat, target, true)) continue;
            const Pointer tat = cat / "target";
            const Members<2> tm(target, kTargetKeys);
            std::string_view path;
            if (!getString(tm[kPath], "path", tat, path, true)) continue;
            if (!tm.has(kNode)) {
                // KHR_animation_pointer and other extensions target things that
                // are not nodes; without the extension such a channel is skipped.
                continue;
            }
            const std::int32_t node = getIndex(tm[kNode], "node", tat, nodes_.size(), "node", true);
            TrackPath tp;
            if (path == "translation")
                tp = TrackPath::Translation;
            else if (path == "rotation")
                tp = TrackPath::Rotation;
            else if (path == "scale")
                tp = TrackPath::Scale;
            else if (path == "weights")
                tp = TrackPath::Weights;
            else {
                fault(tat / "path", inQuotes(path) + " is not translation, rotation, scale or weights");
                continue;
            }
            if (node >= 0 && nodes_[static_cast<std::size_t>(node)].hasMatrix) {
                fault(tat / "node", "node " + std::to_string(node) + " is given by a matrix and cannot be animated");
                continue;
            }
            if (node < 0 || sampler < 0 || !infos[static_cast<std::size_t>(sampler)].ok) continue;
            const SamplerInfo& si = infos[static_cast<std::size_t>(sampler)];
            const Pointer sat = at / "samplers" / static_cast<std::size_t>(sampler);
            Track track;
            track.target = model_.jointOfNode[static_cast<std::size_t>(node)];
            track.path = tp;
            track.interpolation = si.interpolation;
            std::uint32_t width = 3;
            // Only rotation and weights outputs may be normalized integers;
            // KHR_mesh_quantization covers mesh attributes, not animation.
            unsigned allow = kFloat;
            ElementShape shape{3, 1};
            if (tp == TrackPath::Rotation) {
                width = 4;
                shape = {4, 1};
                allow = kFloat | kInt8Norm | kInt16Norm;
            } else if (tp == TrackPath::Weights) {
                const Node& n = nodes_[static_cast<std::size_t>(node)];
                const std::uint32_t targets =
                    n.mesh >= 0 ? model_.meshes[static_cast<std::size_t>(n.mesh)].targetCount : 0;
                if (targets == 0) {
                    fault(tat / "node",
                          "weights animated on node " + std::to_string(node) + ", whose mesh has no morph targets");
                    continue;
                }
                width = targets;
                shape = {1, 1};
                allow = kFloat | kInt8Norm | kInt16Norm;
                track.weightOffset = static_cast<std::uint32_t>(model_.weightOffsetOfJoint[track.target]);
            }
            track.width = width;
            // Key times: a float scalar accessor, decoded once however many channels share it.
            std::vector<float>& cached = timesByAccessor[static_cast<std::size_t>(si.input)];
            if (refusedTimes[static_cast<std::size_t>(si.input)]) continue;
            if (cached.empty()) {
                if (!decodeInto(si.input, sat / "input", {{1, 1}}, kFloat, "sampler input", cached) ||
                    !checkKeyTimes(cached, si.input, sat / "input")) {
                    cached.clear();
                    refusedTimes[static_cast<std::size_t>(si.input)] = 1;
                    continue;
                }
                checkBounds(si.input, cached, true, "an animation input");
            }
            // Each track holds its own copy of the shared times.
            if (!reserveDecoded(cached.size() * sizeof(float), sat / "input")) continue;
            track.times = cached;
            const std::size_t keys = track.times.size();
            const std::size_t perKey =
                (si.interpolation == Interpolation::CubicSpline ? 3u : 1u) * (tp == TrackPath::Weights ? width : 1u);
            if (allow == kFloat) {
                const Accessor& out = accessors_[static_cast<std::size_t>(si.output)];
                if (out.ok && out.desc.componentType != ComponentType::Float) {
                    fault(sat / "output",
                          std::string(path) + " output accessor " + std::to_string(si.output) +
                              " must be float (componentType 5126), not " +
                              std::to_string(static_cast<unsigned>(out.desc.componentType)) +
                              "; only rotation and weights outputs may be normalized integers "
                              "(KHR_mesh_quantization does not extend to animation)");
                    continue;
                }
            }
            const AccessorDesc* od = useAccessor(si.output, sat / "output", {shape}, allow, "sampler output");
            if (!od) continue;
            if (od->count != keys * perKey) {
                fault(sat / "output",
                      "output accessor " + std::to_string(si.output) + " has " + std::to_string(od->count) +
                          " elements; " + std::to_string(keys) + " keys need " + std::to_string(keys * perKey));
                continue;
            }
            if (!reserveDecoded(od->count * shape.components() * sizeof(float), sat / "output")) continue;
            if (!assignPacked(track.values, gltf::packedFloats(*od))) {
                track.values.resize(od->count * shape.components());
                if (!decodeFloats(*od, si.output, track.values)) continue;
            }
            checkBounds(si.output, track.values, false, "an animation output");
            if (tp == TrackPath::Rotation) checkUnitRotations(si.output, track);
            tracks.push_back(std::move(track));
            channelOfTrack.push_back(channelIndex);
        }
        std::vector<Marker> markers = readMarkers(o, at);
        if (faults_.size() - valueFaults_ != faultsBefore) return;
        if (!jointNames_ && skeletonOk_) {
            // One list for every clip of the file: the skeleton's names, so each clip
            // is refused on a skeleton it was not made for (Clip::skeletonFingerprint).
            const auto names = model_.skeleton.names();
            jointNames_ = std::make_shared<const std::vector<std::string>>(names.begin(), names.end());
        }
        auto clip = Clip::create(name, std::move(tracks), std::move(markers), jointNames_);
        if (!clip) {
            for (const Fault& f : clip.faults()) {
                // "tracks/<i>/..." -> the channel that produced track i.
                std::size_t t = 0;
                std::string rest = f.where;
                if (rest.rfind("tracks/", 0) == 0) {
                    t = std::stoul(rest.substr(7));
                    const std::size_t slash = rest.find('/', 7);
                    rest = slash == std::string::npos ? "" : rest.substr(slash + 1);
                    fault(at / "channels" / channelOfTrack[t], (rest.empty() ? "" : rest + ": ") + f.what);
                } else {
                    fault(at, f.where + ": " + f.what);
                }
            }
            return;
        }
        model_.clips.push_back(withCurvesAndLength(std::move(*clip), o, at));
    });
}

// Key times as glTF asks for them: finite, from 0 on, strictly increasing. Checked
// once per input accessor, at the first sampler that reads it (where the Khronos
// validator reports order), and a non-finite time at its accessor.
bool Importer::checkKeyTimes(std::span<const float> times, std::int64_t accessor, const Pointer& at) {
    for (std::size_t k = 0; k < times.size(); ++k) {
        if (!std::isfinite(times[k])) {
            fault(Pointer{} / "accessors" / static_cast<std::size_t>(accessor),
                  "key time " + std::to_string(k) + " is not finite");
            return false;
        }
    }
    bool ok = true;
    if (!times.empty() && times[0] < 0.0f) {
        fault(at, "key time 0 is negative (" + exactNumber(times[0]) + ")");
        ok = false;
    }
    for (std::size_t k = 1; k < times.size(); ++k) {
        if (!(times[k] > times[k - 1])) {
            fault(at,
                  "key times must increase: key time " + std::to_string(k) + " (" + exactNumber(times[k]) +
                      ") is not after key time " + std::to_string(k - 1) + " (" + exactNumber(times[k - 1]) + ")");
            return false;
        }
    }
    return ok;
}

// Rotation keys (the values, not cubic tangents) of unit length within the
// validator's tolerance. Within it they are renormalised silently, as the file
// means; beyond it lenient import renormalises them too (the clip does).
void Importer::checkUnitRotations(std::int64_t index, const Track& track) {
    Accessor& acc = accessors_[static_cast<std::size_t>(index)];
    if (acc.unitChecked) return;
    acc.unitChecked = true;
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    const std::size_t stride = cubic ? 12 : 4, first = cubic ? 4 : 0;
    // |length - 1| <= tolerance compared on the squared length: no square root per key.
    constexpr double kLow = (1.0 - kRotationUnitTolerance) * (1.0 - kRotationUnitTolerance);
    constexpr double kHigh = (1.0 + kRotationUnitTolerance) * (1.0 + kRotationUnitTolerance);
    std::size_t off = 0, firstKey = 0;
    double firstLength2 = 0.0;
    for (std::size_t key = 0; key * stride + first + 4 <= track.values.size(); ++key) {
        const float* q = &track.values[key * stride + first];
        const double len2 = double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3];
        if (len2 >= kLow && len2 <= kHigh) continue;
        if (off++ == 0) {
            firstKey = key;
            firstLength2 = len2;
        }
    }
    const double firstLength = std::sqrt(firstLength2);
    if (off == 0) return;
    recoverable(Pointer{} / "accessors" / static_cast<std::size_t>(index),
                std::to_string(off) + " rotation key" + (off == 1 ? " is" : "s are") +
                    " not a unit quaternion (first: key " + std::to_string(firstKey) + ", length " +
                    exactNumber(static_cast<float>(firstLength)) + "; tolerance " +
                    exactNumber(kRotationUnitTolerance) + ")",
                "renormalised");
}

// Markers: not part of glTF itself; kinema reads animation.extras.markers, an array
// of {"name": non-empty string, "time": seconds >= 0} (docs/GLTF-IMPORT.md). A
// malformed marker is a fault, or when lenient a warning and the marker is skipped;
// anything else in extras, or in a marker object, is free-form and ignored.
std::vector<Marker> Importer::readMarkers(const dom::object& animation, const Pointer& at) {
    std::vector<Marker> markers;
    dom::element e;
    dom::object extras;
    if (animation.at_key("extras").get(e) || e.get_object().get(extras)) return markers;
    if (extras.at_key("markers").get(e)) return markers;
    const Pointer mat = at / "extras" / "markers";
    dom::array list;
    if (e.get_array().get(list)) {
        recoverable(mat, "must be an array of markers", "ignored");
        return markers;
    }
    if (!charged(list.size(), sizeof(Marker), mat, "the markers")) return markers;
    markers.reserve(list.size());
    std::size_t i = 0;
    for (dom::element item : list) {
        const Pointer iat = mat / i++;
        // Strict import lists every fault of a marker; lenient import warns once and skips it.
        bool ok = true;
        const auto reject = [&](const Pointer& where, const std::string& what) {
            if (ok || !lenient()) recoverable(where, what, "the marker is skipped");
            ok = false;
        };
        dom::object mo;
        if (item.get_object().get(mo)) {
            reject(iat, "a marker must be an object with a name and a time");
            continue;
        }
        enum { kName, kTime };
        static constexpr std::array<std::string_view, 2> kKeys{"name", "time"};
        const Members<2> m(mo, kKeys);
        std::string_view name;
        if (!m.has(kName)) {
            reject(iat / "name", "required property is missing");
        } else if (m[kName]->get_string().get(name)) {
            reject(iat / "name", "must be a string");
        } else if (name.empty()) {
            reject(iat / "name", "must not be empty");
        }
        double time = 0.0;
        if (!m.has(kTime)) {
            reject(iat / "time", "required property is missing");
        } else if (m[kTime]->get_double().get(time) || !std::isfinite(static_cast<float>(time))) {
            reject(iat / "time", "must be a finite number of seconds");
        } else if (time < 0.0) {
            reject(iat / "time", "is " + exactNumber(time) + "; a marker time must be >= 0");
        }
        // + 0.0f: a time of -0 is kept as 0.
        if (ok) markers.push_back({std::string(name), static_cast<float>(time) + 0.0f});
    }
    return markers;
}

// User curves and a clip length: not part of glTF either. animation.extras.curves is
// an object of curve name -> {"times": [seconds], "values": [numbers], "interpolation":
// "LINEAR" | "STEP" (default LINEAR)}; animation.extras.length a number of seconds at
// least the last key. A bad curve or length is a fault, or when lenient a warning and
// it is skipped (docs/GLTF-IMPORT.md).
Clip Importer::withCurvesAndLength(Clip clip, const dom::object& animation, const Pointer& at) {
    dom::element e;
    dom::object extras;
    if (animation.at_key("extras").get(e) || e.get_object().get(extras)) return clip;
    const Pointer eat = at / "extras";
    dom::object curves;
    if (!extras.at_key("curves").get(e)) {
        if (e.get_object().get(curves)) {
            recoverable(eat / "curves", "must be an object of curve names", "ignored");
        } else {
            std::vector<CurveTrack> read;
            std::unordered_set<std::string_view> named;  // curve names met, each once
            for (const auto field : curves) {
                const Pointer cat = eat / "curves" / field.key;
                // A repeated name was reported as a repeated key (the first one is used).
                if (!named.insert(field.key).second) continue;
                bool ok = true;
                const auto reject = [&](const Pointer& w, const std::string& what) {
                    if (ok || !lenient()) recoverable(w, what, "the curve is skipped");
                    ok = false;
                };
                dom::object co;
                if (field.value.get_object().get(co)) {
                    reject(cat, "a curve must be an object with times and values");
                    continue;
                }
                CurveTrack curve;
                curve.name = std::string(field.key);
                if (curve.name.empty()) reject(cat, "a curve needs a name");
                const auto numbers = [&](std::string_view key, std::vector<float>& out) {
                    dom::element v;
                    dom::array list;
                    if (co.at_key(key).get(v)) {
                        reject(cat / key, "required property is missing");
                        return;
                    }
                    if (v.get_array().get(list) || !charged(list.size(), sizeof(float), cat / key, "a curve")) {
                        reject(cat / key, "must be an array of numbers");
                        return;
                    }
                    out.reserve(list.size());
                    for (dom::element item : list) {
                        double x = 0.0;
                        if (item.get_double().get(x) || !std::isfinite(static_cast<float>(x))) {
                            reject(cat / key, "must hold finite numbers only");
                            return;
                        }
                        out.push_back(static_cast<float>(x));
                    }
                };
                numbers("times", curve.times);
                numbers("values", curve.values);
                dom::element v;
                if (!co.at_key("interpolation").get(v)) {
                    std::string_view mode;
                    if (v.get_string().get(mode) || (mode != "LINEAR" && mode != "STEP")) {
                        reject(cat / "interpolation", "must be \"LINEAR\" or \"STEP\"");
                    } else {
                        curve.interpolation = mode == "STEP" ? Interpolation::Step : Interpolation::Linear;
                    }
                }
                if (!ok) continue;
                // Checked one by one, so that one bad curve is skipped and the others kept.
                auto alone = clip.withCurves({curve});
                if (!alone) {
                    reject(cat, alone.faults().front().what);
                    continue;
                }
                read.push_back(std::move(curve));
            }
            if (!read.empty()) {
                std::vector<std::string> names;
                for (const CurveTrack& c : read) names.push_back(c.name);
                auto with = clip.withCurves(std::move(read));
                if (with) {
                    // A curve past the tracks' last key lengthens the clip, said at the
                    // curve ("curves/<i>" of the curves given, here by its name).
                    for (const Fault& w : with.warnings()) {
                        const auto i = indexAfter(w.where, "curves/");
                        warn(i && *i < names.size() ? eat / "curves" / names[*i] : eat / "curves", w.what);
                    }
                    clip = std::move(*with);
                } else {
                    recoverable(eat / "curves", with.faults().front().what, "the curves are ignored");
                }
            }
        }
    }
    if (!extras.at_key("length").get(e)) {
        double length = 0.0;
        if (e.get_double().get(length) || !std::isfinite(static_cast<float>(length))) {
            recoverable(eat / "length", "must be a finite number of seconds", "ignored");
        } else if (auto longer = clip.withLength(static_cast<float>(length)); !longer) {
            recoverable(eat / "length", longer.faults().front().what, "ignored");
        } else {
            clip = std::move(*longer);
        }
    }
    return clip;
}

}  // namespace kinema::gltf_import
