// kinema/gpu: draws a frame of a scene (a DrawList over a RenderCatalogue) into an
// offscreen image and reads it back.
//
// Pipeline: depth-tested triangles, colour = base colour texture (a white one when
// the material has none) x base colour factor x vertex colour, lit by one
// directional light plus ambient; alpha mask discards below the cutoff, alpha blend
// draws after the opaque objects, back to front, without writing depth; single-sided
// materials cull back faces (the winding flips with a mirroring world matrix).
// Skinned draws are deformed on the GPU: every palette of the frame in one storage
// buffer, each draw reading its slice from a base offset; morph targets likewise
// from the frame's weights. A frame with no skinned or morphed draw binds neither.
//
// The colour target is sRGB-encoded RGBA8 (what a PNG holds): shading happens in
// linear space and the store encodes it. Alpha is coverage: 1 where an opaque
// surface was drawn, the background's alpha elsewhere.
//
// Two ways to draw a frame (FrameDesc::raster). The graphics path is the pipeline
// above. The compute path draws with compute shaders only, for GPUs whose compute
// units far outnumber their graphics units (data-centre GPUs shade vertices and
// fragments on a few of their multiprocessors): a transform pass deforms every vertex
// to clip space, a raster pass keeps the nearest triangle of each pixel in a 64-bit
// visibility buffer (depth, triangle id) by atomic minimum, and a resolve pass shades
// each pixel from its triangle exactly as the fragment stage does. It covers frames
// whose draws are all opaque, that use at most 16 materials and draw no overlay, on a
// device with 64-bit integers and 64-bit buffer atomics; any other frame is drawn by
// the graphics path, and FrameStats::computeRaster says which one ran.
//
// GPU resources (meshes, textures) are built from the catalogue through a
// RenderPreparation: frames that draw the same objects of an unchanged catalogue
// reuse them; animation changes only the per-frame buffers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "kinema/asset/model.hpp"
#include "kinema/core/result.hpp"
#include "kinema/gpu/gpu_context.hpp"
#include "kinema/math/mat4.hpp"
#include "kinema/render/catalogue.hpp"
#include "kinema/render/overlay.hpp"
#include "kinema/scene/scene.hpp"

namespace kinema {

// Which units draw a frame's triangles.
enum class RasterPath {
    Graphics,  // the graphics pipeline: vertex and fragment shaders, fixed-function raster
    Compute,   // compute shaders only, where the frame allows it (else the graphics path)
};

// What one frame draws and from where.
struct FrameDesc {
    const RenderCatalogue* catalogue = nullptr;
    const DrawList* draws = nullptr;
    // World to Vulkan clip space (x right, y down, depth 0..1): render/camera.hpp makes it.
    Mat4 viewProjection;
    Vec3 eye;                                                 // camera position, world space
    Vec3 toLight{0.35f, 0.8f, 0.5f};                          // towards the light (normalised here)
    std::array<float, 3> lightColor{0.85f, 0.85f, 0.85f};     // linear RGB
    std::array<float, 3> ambientColor{0.3f, 0.3f, 0.32f};     // linear RGB
    std::array<float, 4> background{0.0f, 0.0f, 0.0f, 0.0f};  // linear RGBA clear colour
    const Overlay* overlay = nullptr;                         // drawn over the meshes; may be null
    // Compute: drawn by the compute rasteriser when every draw's material is opaque,
    // the catalogue's prepared materials are at most 16, the overlay draws nothing and
    // the device has the features; else by the graphics path.
    RasterPath raster = RasterPath::Graphics;
};

struct FrameStats {
    std::uint32_t draws = 0;        // draw items drawn
    std::uint32_t drawCalls = 0;    // instanced draw calls: a run of draws of one object is one (0: compute path)
    bool resourcesBuilt = false;    // the catalogue's GPU resources were (re)built for this frame
    bool deformationBound = false;  // palettes and morph weights were uploaded and bound (a deformed draw)
    bool computeRaster = false;     // the compute rasteriser drew the frame (else the graphics pipeline)
    // Device time from the first to the last command of the frame, when the queue
    // has timestamps.
    std::optional<double> gpuMilliseconds;
    // The compute path's share of it: transform (with the visibility buffer's clear),
    // raster, resolve (with the copy into the image), when the queue has timestamps.
    // Where one pass per draw transforms and rasterises (docs/GPU.md), the raster
    // share holds both and the transform share only the clear.
    std::optional<std::array<double, 3>> computePassMilliseconds;
};

class OffscreenRenderer {
public:
    // A renderer with a width x height target (1..16384 each).
    static Result<OffscreenRenderer> create(const GpuContext& context, std::uint32_t width, std::uint32_t height);

    // A renderer moved from has no target: its size is 0 x 0 and render() and
    // deformedPositions() refuse ("renderer: moved from").
    OffscreenRenderer(OffscreenRenderer&&) noexcept;
    OffscreenRenderer& operator=(OffscreenRenderer&&) noexcept;
    ~OffscreenRenderer();

    std::uint32_t width() const noexcept;
    std::uint32_t height() const noexcept;

    // Renders the frame and waits for it; with `pixels`, reads the image back into
    // it (width * height RGBA8, rows top to bottom). Faults: a null catalogue or draw
    // list, a catalogue that fails validation, a draw whose palette or weight slice
    // lies outside the draw list, a non-finite camera, a Vulkan error.
    Result<FrameStats> render(const FrameDesc& frame, ImageRGBA8* pixels = nullptr);

    // World-space positions of draw `item` of the frame as the GPU deforms them (a
    // compute pass running the vertex stage's morphing and skinning), read back: the
    // check of GPU skinning against the CPU reference.
    Result<std::vector<Vec3>> deformedPositions(const FrameDesc& frame, std::size_t item);

private:
    friend class WindowView;  // renders the same frame into a window's swapchain
    struct State;
    explicit OffscreenRenderer(std::unique_ptr<State> state) noexcept;
    std::unique_ptr<State> state_;
};

}  // namespace kinema
