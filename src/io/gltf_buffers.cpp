// External resources (URIs confined to the file's folder, a resolver), buffers and
// buffer views.
#include "gltf_importer.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "container.hpp"

namespace kinema::gltf_import {

// The path of a URI that is not a data: URI, judged from its text alone: `ok` when
// the options let it be opened, else a fault at `at`.
gltf::UriPath Importer::checkedUri(std::string_view uri, const Pointer& at, bool& ok) {
    ok = false;
    if (!opt_.allowExternalFiles) {
        fault(at, "external resources are disabled for this import");
        return {};
    }
    std::string error;
    gltf::UriPath path = gltf::parseUriPath(uri, error);
    if (!error.empty()) {
        fault(at, error);
        return path;
    }
    // Refused before anything is touched, so a refusal says nothing about
    // whether the path exists.
    if (path.leaves && !opt_.allowExternalPaths && (opt_.resolver || opt_.allowedFolders.empty())) {
        fault(at,
              path.absolute ? "an absolute path leads outside the file's folder, which this import does not allow"
                            : "'..' leads outside the file's folder, which this import does not allow");
        return path;
    }
    ok = true;
    return path;
}

gltf::ResourceLocation Importer::locate(const gltf::UriPath& path, std::string& error) const {
    return gltf::locateResource(src_.baseDir, path, gltf::PathPolicy{opt_.allowExternalPaths, opt_.allowedFolders},
                                error);
}

// The bytes behind a URI that is not a data: URI, through the resolver or the
// file system, confined by the options; at least `wanted` bytes (a buffer's
// byteLength: a shorter file is a fault at `lengthAt`), of which only those are
// read from a file. Null, with a fault recorded at `at`, when they cannot be had.
ResourceBytes Importer::fetchResource(std::string_view uri, std::size_t wanted, const Pointer& at,
                                      const Pointer& lengthAt) {
    bool ok = false;
    const gltf::UriPath path = checkedUri(uri, at, ok);
    if (!ok) return nullptr;
    if (opt_.resolver) {
        auto got = opt_.resolver(ResourceRequest{uri, path.path, wanted});
        if (!got) {
            for (const Fault& f : got.faults())
                fault(at, f.what.empty() ? "the resolver could not provide it" : f.what);
            return nullptr;
        }
        if (!*got) {
            fault(at, "the resolver returned no bytes");
            return nullptr;
        }
        return std::move(*got);
    }
    std::string error;
    const gltf::ResourceLocation location = locate(path, error);
    const gltf::OpenFile file = error.empty() ? gltf::openLocated(location, error) : gltf::OpenFile{};
    if (!file.isOpen()) {
        fault(at, error);
        return nullptr;
    }
    if (file.size() < wanted) {
        fault(lengthAt, "declares " + std::to_string(wanted) + " bytes, the file has " + std::to_string(file.size()));
        return nullptr;
    }
    auto bytes = std::make_shared<const std::vector<std::byte>>(file.readPrefix(wanted, error));
    if (!error.empty()) {
        fault(at, error);
        return nullptr;
    }
    return bytes;
}

void Importer::readBuffers() {
    buffers_.resize(table("buffers", sizeof(Buffer) + sizeof(ResourceBytes)));
    if (stopped_) return;  // out of budget
    forEachObject("buffers", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        Buffer& b = buffers_[i];
        std::uint64_t byteLength = 0;
        const bool hasLength = getUint(o, "byteLength", at, byteLength, true);
        if (hasLength && byteLength == 0) fault(at / "byteLength", "must be at least 1");
        std::string_view uri;
        if (!getString(o, "uri", at, uri, false)) {
            if (i != 0 || !hasGlbBin_) {
                fault(at, "buffer has no uri and is not the GLB binary chunk");
                return;
            }
            b.owner = src_.bytes;
            b.bytes = glbBin_;
        } else if (gltf::isDataUri(uri)) {
            // The decoded bytes are never more than the URI's characters.
            if (!charge(uri.size(), at / "uri", "buffer " + std::to_string(i) + "'s data URI")) return;
            std::string error;
            auto data = gltf::decodeDataUri(uri, error);
            if (!data) {
                fault(at / "uri", error);
                return;
            }
            if (data->mimeType != "application/octet-stream" && data->mimeType != "application/gltf-buffer") {
                recoverable(at / "uri",
                            "a buffer's data URI has media type '" + data->mimeType +
                                "'; application/octet-stream or application/gltf-buffer is required",
                            "read as bytes");
            }
            refund(uri.size() - std::min(uri.size(), data->bytes.size()));
            auto owned = std::make_shared<const std::vector<std::byte>>(std::move(data->bytes));
            b.bytes = *owned;
            b.owner = std::move(owned);
        } else {
            // Only the declared bytes are read: a buffer that names a huge file
            // costs its byteLength, and the byteLength is charged first.
            if (!hasLength || byteLength == 0) return;
            if (byteLength > std::numeric_limits<std::size_t>::max() ||
                !charge(static_cast<std::size_t>(byteLength), at / "byteLength", "buffer " + std::to_string(i))) {
                return;
            }
            b.owner = fetchResource(uri, static_cast<std::size_t>(byteLength), at / "uri", at / "byteLength");
            if (!b.owner) return;
            b.bytes = *b.owner;
        }
        if (hasLength && byteLength > b.bytes.size()) {
            fault(at / "byteLength",
                  "declares " + std::to_string(byteLength) + " bytes, the data has " + std::to_string(b.bytes.size()));
            return;
        }
        if (hasLength) b.bytes = b.bytes.first(static_cast<std::size_t>(byteLength));
        b.ok = hasLength && byteLength > 0;
        if (b.ok) {
            b.modelBuffer = static_cast<std::int32_t>(model_.buffers.size());
            model_.buffers.push_back(b.owner);
        }
    });
}

void Importer::readViews() {
    views_.resize(table("bufferViews", sizeof(View)));
    if (stopped_) return;  // out of budget
    forEachObject("bufferViews", [&](std::size_t i, const dom::object& o, const Pointer& at) {
        View& v = views_[i];
        enum { kBuffer, kByteOffset, kByteLength, kByteStride };
        static constexpr std::array<std::string_view, 4> kKeys{"buffer", "byteOffset", "byteLength", "byteStride"};
        const Members<4> m(o, kKeys);
        const std::int32_t buffer = getIndex(m[kBuffer], "buffer", at, buffers_.size(), "buffer", true);
        std::uint64_t offset = 0, length = 0, stride = 0;
        getUint(m[kByteOffset], "byteOffset", at, offset, false);
        const bool hasLength = getUint(m[kByteLength], "byteLength", at, length, true);
        if (getUint(m[kByteStride], "byteStride", at, stride, false) &&
            (stride < 4 || stride > 252 || stride % 4 != 0)) {
            fault(at / "byteStride", "must be a multiple of 4 between 4 and 252");
            return;
        }
        if (buffer < 0 || !hasLength) return;
        if (length == 0) {
            fault(at / "byteLength", "must be at least 1");
            return;
        }
        const Buffer& b = buffers_[static_cast<std::size_t>(buffer)];
        if (!b.ok) return;  // the buffer's own fault is already recorded
        if (offset > b.bytes.size() || length > b.bytes.size() - offset) {
            fault(at,
                  "byteOffset " + std::to_string(offset) + " + byteLength " + std::to_string(length) +
                      " runs past the end of buffer " + std::to_string(buffer) + " (" + std::to_string(b.bytes.size()) +
                      " bytes)");
            return;
        }
        v.bytes = b.bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
        v.buffer = static_cast<std::size_t>(buffer);
        v.stride = static_cast<std::size_t>(stride);
        v.ok = true;
    });
}

// The span from `offset` to the end of view `index`, or nullopt (fault recorded).
std::optional<std::span<const std::byte>> Importer::viewFrom(std::int32_t index, std::uint64_t offset,
                                                             const Pointer& at) {
    if (index < 0) return std::nullopt;
    const View& v = views_[static_cast<std::size_t>(index)];
    if (!v.ok) return std::nullopt;
    if (offset > v.bytes.size()) {
        fault(at,
              "byteOffset " + std::to_string(offset) + " is past the end of buffer view " + std::to_string(index) +
                  " (" + std::to_string(v.bytes.size()) + " bytes)");
        return std::nullopt;
    }
    return v.bytes.subspan(static_cast<std::size_t>(offset));
}

}  // namespace kinema::gltf_import
