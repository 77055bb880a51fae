// `kinema render`: frames of a glTF file's animation drawn by the Vulkan renderer,
// headless, into a PNG (one frame, or one file per frame) or an animated GIF.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <variant>

#include "arguments.hpp"
#include "commands.hpp"
#include "kinema/core/counted.hpp"
#include "kinema/gpu/gpu_context.hpp"
#include "kinema/gpu/offscreen_renderer.hpp"
#include "kinema/io/gltf.hpp"
#include "kinema/io/image_write.hpp"
#include "kinema/scene/model_scene.hpp"
#include "kinema/scene/skeleton_overlay.hpp"
#include "model_view.hpp"
#include "progress_bar.hpp"
#include "render_arguments.hpp"
#include "output_path.hpp"

namespace kinema::cli {
namespace {

constexpr std::size_t kMaxFrames = 100000;

// Where frame `index` of a PNG sequence goes: out.png -> out-0000.png, out-0001.png,
// ...; a name that is only ".png" gives 0000.png, with no dash to start the name.
std::string numberedPath(const std::string& out, std::size_t index) {
    const std::filesystem::path p(out);
    const std::string name = p.filename().string();
    const auto dot = name.rfind('.');
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, dot == 0 ? "%04zu" : "-%04zu", index);
    return (p.parent_path() / (name.substr(0, dot) + suffix + name.substr(dot))).string();
}

// GIF delays are whole hundredths of a second, and players stretch those under 2.
constexpr double kGifMaxFps = 50.0;

// stb's PNG writer keeps its row buffer size in an int: (4 W + 1) H bytes at most 2^29.
constexpr std::uint64_t kPngRowBytesLimit = std::uint64_t{1} << 29;

}  // namespace

int runRender(const RenderOptions& options) {
    std::string error;
    const auto size = parseImageSize(options.size, error);
    if (!size) {
        std::cerr << "kinema render: --size: " << error << '\n';
        return usageFailure("render");
    }
    const auto background = parseBackground(options.background, error);
    if (!background) {
        std::cerr << "kinema render: --background: " << error << '\n';
        return usageFailure("render");
    }
    const auto cameraChoice = parseCameraChoice(options.camera, error);
    if (!cameraChoice) {
        std::cerr << "kinema render: " << error << '\n';  // the message names the camera and its key
        return usageFailure("render");
    }
    const std::string ext = lowerExtension(options.out);
    const bool gif = ext == ".gif";
    if (!gif && ext != ".png") {
        std::cerr << "kinema render: --out: '" << options.out << "' must end in .png or .gif\n";
        return usageFailure("render");
    }
    if (options.frames && (*options.frames < 1 || *options.frames > static_cast<std::int64_t>(kMaxFrames))) {
        std::cerr << "kinema render: --frames: " << *options.frames << " is outside 1.." << kMaxFrames << '\n';
        return usageFailure("render");
    }
    if (gif && options.fps > kGifMaxFps) {
        std::cerr << "kinema render: --fps: " << options.fps
                  << " is over 50, the most a GIF plays (its frame delays are whole hundredths of a second, and "
                     "players slow delays under 0.02 s); write PNG frames instead\n";
        return usageFailure("render");
    }
    // A PNG sequence writes numbered files, checked below, never the name given.
    const bool sequence = !gif && options.frames && *options.frames > 1;
    if (auto writable = sequence ? Result<bool>(true) : checkOutputPath(options.out); !writable) {
        std::cerr << "kinema render: --out: " << writable.message() << '\n';
        return usageFailure("render");
    }
    if (!gif && (std::uint64_t{size->width} * 4 + 1) * size->height > kPngRowBytesLimit) {
        std::cerr << "kinema render: --size: " << options.size
                  << " is too large for a PNG (at most 2^29 bytes of rows: (4 x width + 1) x height)\n";
        return usageFailure("render");
    }

    const auto loaded = importForDrawing(options.file, options.import, "render");
    if (!loaded) return 1;
    auto builtResult = modelSceneFor(*loaded, options.animation);
    printWarnings(std::cerr, builtResult.warnings());
    if (!builtResult) {
        std::cerr << "kinema render: " << builtResult.message() << '\n';
        return usageFailure("render");
    }
    ModelScene& built = *builtResult;
    if (built.scene.nodeCount() == 0) {
        std::cerr << "kinema render: " << options.file << " has nothing to draw: no nodes in its scene\n";
        return 1;
    }
    const double duration = boundDuration(built);

    // The frames: at --time (default 0), --frames of them (a GIF without --frames
    // plays the whole clip once) at --fps.
    const double start = options.time.value_or(0.0);
    std::size_t frameCount = 1;
    if (options.frames) {
        frameCount = static_cast<std::size_t>(*options.frames);
    } else if (gif && !options.time && duration > 0.0) {
        const double whole = std::max(1.0, std::ceil(duration * options.fps - 1e-9));
        if (whole > static_cast<double>(kMaxFrames)) {
            // Said, not done quietly: the GIF shows the first part of the clip only.
            std::cerr << "kinema render: the clip lasts " << duration << " s, " << whole << " frames at " << options.fps
                      << " fps: the GIF takes its first " << kMaxFrames << " (give --frames or --time for others)\n";
        }
        frameCount = static_cast<std::size_t>(std::min(whole, static_cast<double>(kMaxFrames)));
    }
    const double step = 1.0 / options.fps;
    if (!gif && frameCount > 1) {
        // Numbered PNG frames: every name checked before the first is drawn.
        for (std::size_t f = 0; f < frameCount; ++f) {
            const std::string path = numberedPath(options.out, f);
            auto writable = f == 0 ? checkOutputPath(path) : checkOutputName(path);
            if (!writable) {
                std::cerr << "kinema render: --out: " << writable.message() << '\n';
                return usageFailure("render");
            }
        }
    }
    if (gif && frameCount * std::uint64_t{size->width} * size->height * 4 > kGifFrameBytesLimit) {
        std::cerr << "kinema render: " << counted(frameCount, "frame") << " of " << size->width << "x" << size->height
                  << " would hold more than 2 GiB before the GIF is written; ask for fewer --frames, a smaller --size, "
                     "or PNG frames\n";
        return usageFailure("render");
    }

    DrawList draws;
    built.scene.updateWorldTransforms();
    built.scene.fillDrawList(draws);
    const bool noMeshes = draws.items.empty();
    const std::vector<NodeId> rig = (options.skeleton || noMeshes) ? rigJoints(built.scene) : std::vector<NodeId>{};
    if (noMeshes) {
        if (rig.empty()) {
            std::cerr << "kinema render: " << options.file << " has nothing to draw: no meshes and no nodes\n";
            return 1;
        }
        std::cerr << "kinema render: " << options.file << " has no meshes; drawing its skeleton\n";
    }
    if (cameraChoice->kind == CameraChoice::Kind::File && built.cameras.empty()) {
        std::cerr << "kinema render: --camera file: " << options.file
                  << " has no camera in its scene; use --camera auto or an explicit camera\n";
        return usageFailure("render");
    }

    const float aspect = static_cast<float>(size->width) / static_cast<float>(size->height);
    CameraMatrices fixedCamera;
    if (cameraChoice->kind == CameraChoice::Kind::Auto) {
        // Bounds over the whole clip and every frame drawn, from posed vertices.
        std::vector<double> times;
        for (std::size_t f = 0; f < frameCount; ++f) times.push_back(start + static_cast<double>(f) * step);
        Vec3 lo, hi;
        if (!animatedBounds(built, rig, times, lo, hi)) lo = hi = Vec3{0, 0, 0};
        auto framed = cameraMatrices(frameBounds(lo, hi, aspect), aspect);
        if (!framed) {
            std::cerr << "kinema render: " << options.file << ": its bounds are too large to frame a camera around ("
                      << oneLine(framed.message()) << "); give one with --camera\n";
            return 1;
        }
        fixedCamera = *framed;
    } else if (cameraChoice->kind == CameraChoice::Kind::Explicit) {
        auto matrices = cameraMatrices(cameraChoice->explicitCamera, aspect);
        if (!matrices) {
            std::cerr << "kinema render: --camera: " << matrices.message() << '\n';
            return usageFailure("render");
        }
        fixedCamera = *matrices;
    }

    GpuOptions gpuOptions;
    gpuOptions.device = options.gpu;
    gpuOptions.validation = options.validation;
    gpuOptions.synchronizationValidation = options.validation;
    auto context = GpuContext::create(gpuOptions);
    if (!context) {
        std::cerr << "kinema render: " << gpuFaultText(context.faults()) << '\n';
        // A device named with --gpu that is not there is a usage error, as in bench.
        return asksForMissingDevice(context.faults()) ? usageFailure("render") : 1;
    }
    auto renderer = OffscreenRenderer::create(*context, size->width, size->height);
    if (!renderer) {
        std::cerr << "kinema render: " << renderer.message() << '\n';
        return 1;
    }

    const SkeletonOverlayStyle style;
    Overlay overlay;
    std::vector<ImageRGBA8> frames;
    ProgressBar progress("rendering", frameCount);
    if (auto s = built.scene.advance(start); !s) {
        std::cerr << "kinema render: --time: " << s.message() << '\n';
        return usageFailure("render");
    }
    for (std::size_t f = 0; f < frameCount; ++f) {
        if (f > 0) (void)built.scene.advance(step);
        built.scene.updateWorldTransforms();
        built.scene.fillDrawList(draws);
        overlay.clear();
        if (!rig.empty()) appendSkeletonOverlay(built.scene, rig, style, overlay);
        CameraMatrices camera = fixedCamera;
        if (cameraChoice->kind == CameraChoice::Kind::File) {
            const SceneCamera& c = built.cameras.front();
            camera = cameraMatricesFromGltf(c.camera, built.scene.world(c.node), aspect);
        }
        FrameDesc frame;
        frame.catalogue = &built.catalogue;
        frame.draws = &draws;
        frame.viewProjection = camera.viewProjection;
        frame.eye = camera.eye;
        frame.background = *background;
        frame.overlay = overlay.empty() ? nullptr : &overlay;
        ImageRGBA8 image;
        auto stats = renderer->render(frame, &image);
        if (!stats) {
            std::cerr << "kinema render: frame " << f << ": " << stats.message() << '\n';
            return 1;
        }
        if (gif) {
            frames.push_back(std::move(image));
        } else {
            const std::string path = frameCount > 1 ? numberedPath(options.out, f) : options.out;
            auto png = encodePng(image);
            if (!png) {
                std::cerr << "kinema render: " << png.message() << '\n';
                return 1;
            }
            if (auto written = writeFileBytes(path, *png); !written) {
                std::cerr << "kinema render: " << written.message() << '\n';
                return 1;
            }
        }
        progress.update(f + 1);
    }
    progress.finish();
    if (gif) {
        GifOptions gifOptions;
        gifOptions.fps = options.fps;
        auto bytes = encodeGif(frames, gifOptions);
        if (!bytes) {
            std::cerr << "kinema render: " << bytes.message() << '\n';
            return 1;
        }
        if (auto written = writeFileBytes(options.out, *bytes); !written) {
            std::cerr << "kinema render: " << written.message() << '\n';
            return 1;
        }
    }
    if (options.validation && context->validationMessageCount() > 0) {
        for (const std::string& m : context->validationMessages()) std::cerr << "validation: " << m << '\n';
        std::cerr << "kinema render: " << context->validationMessageCount() << " validation message(s)\n";
        return 1;
    }
    const std::string written = gif || frameCount == 1
        ? options.out
        : numberedPath(options.out, 0) + " .. " + numberedPath(options.out, frameCount - 1);
    std::printf("wrote %s: %s, %ux%u, from t = %g s at %g fps on %s\n", written.c_str(),
                counted(frameCount, "frame").c_str(), size->width, size->height, start, options.fps,
                context->device().name.c_str());
    return 0;
}

}  // namespace kinema::cli
