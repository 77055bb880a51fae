// The asset cache: one import per file, shared immutable models, clips by
// name, failed loads not cached (a repaired file loads on the next call), and no
// global state (two caches are independent). Then the same from several threads at
// once: one import per file however many threads ask, one set of faults for all
// callers of a failed import, and clear() while an import is in progress.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "kinema/io/asset_cache.hpp"
#include "kinema/io/image.hpp"
#include "support/assets.hpp"
#include "support/gltf_writer.hpp"

namespace {

namespace fs = std::filesystem;
using kinema::AssetCache;

fs::path scratchDir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("kinema_cache_test_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

TEST(AssetCache, LoadsEachFileOnceAndSharesTheModel) {
    KINEMA_REQUIRE_ASSET(file, "InterpolationTest/InterpolationTest.glb");
    AssetCache cache;
    auto first = cache.load(file);
    ASSERT_TRUE(first.ok()) << first.message();
    auto second = cache.load(file.parent_path() / ".." / file.parent_path().filename() / file.filename());
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(first.value().get(), second.value().get()) << "the same file, spelled differently, is one model";
    EXPECT_EQ(cache.modelCount(), 1u);
    EXPECT_EQ(cache.find(file).get(), first.value().get());
    // Its clips are registered by name.
    const auto& clips = first.value()->clips;
    ASSERT_FALSE(clips.empty());
    for (const auto& c : clips) {
        if (c.name().empty()) continue;
        const auto handle = cache.clip(c.name());
        ASSERT_TRUE(handle.has_value()) << c.name();
        EXPECT_EQ(handle->clip->name(), c.name());
        EXPECT_EQ(handle->model.get(), first.value().get());
    }
    EXPECT_FALSE(cache.clip("no such clip").has_value());
}

// A model shared by the cache is decoded later, maybe after the program has changed
// its working folder: its external images are found wherever it is, even when the
// file was named by a relative path.
TEST(AssetCache, ImagesOfAModelNamedRelativelyDecodeAfterTheWorkingFolderChanges) {
    KINEMA_REQUIRE_ASSET(file, "AnimatedCube/AnimatedCube.gltf");
    const auto absolute = std::filesystem::absolute(file);
    const auto before = std::filesystem::current_path();
    std::filesystem::current_path(absolute.parent_path().parent_path());
    AssetCache cache;
    auto model = cache.load(std::filesystem::path("AnimatedCube") / ".." / "AnimatedCube" / "AnimatedCube.gltf");
    std::filesystem::current_path("/");
    ASSERT_TRUE(model.ok()) << model.message();
    ASSERT_FALSE(model.value()->images.empty());
    const auto image = decodeImage(*model.value(), 0);
    std::filesystem::current_path(before);
    ASSERT_TRUE(image.ok()) << image.message();
    EXPECT_GT(image->width, 0u);
}

// An empty path names itself as what is wrong, not an empty location.
TEST(AssetCache, AnEmptyPathIsSaidToBeEmpty) {
    AssetCache cache;
    const auto empty = cache.load("");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.message(), "path: is empty: no file to read");
    EXPECT_EQ(cache.modelCount(), 0u);
}

TEST(AssetCache, AFailedLoadIsNotCachedSoARepairedFileLoads) {
    KINEMA_REQUIRE_ASSET(good, "BoxAnimated/BoxAnimated.glb");
    const fs::path dir = scratchDir("repair");
    const fs::path file = dir / "model.glb";
    std::ofstream(file, std::ios::binary) << "glTF but not really";
    AssetCache cache;
    const auto broken = cache.load(file);
    EXPECT_FALSE(broken.ok());
    EXPECT_NE(broken.message().find("model.glb"), std::string::npos) << broken.message();
    EXPECT_EQ(cache.modelCount(), 0u);
    EXPECT_EQ(cache.find(file), nullptr);
    fs::copy_file(good, file, fs::copy_options::overwrite_existing);
    const auto repaired = cache.load(file);
    EXPECT_TRUE(repaired.ok()) << repaired.message();
    EXPECT_EQ(cache.modelCount(), 1u);
    fs::remove_all(dir);
}

TEST(AssetCache, NamesAreFirstComeAndHandlesOutliveTheCache) {
    KINEMA_REQUIRE_ASSET(file, "CesiumMan/CesiumMan.glb");
    kinema::ClipHandle kept;
    {
        AssetCache cache;
        auto model = cache.load(file);
        ASSERT_TRUE(model.ok());
        EXPECT_TRUE(cache.registerClip("walk", model.value(), 0));
        EXPECT_FALSE(cache.registerClip("walk", model.value(), 0)) << "a taken name stays with its first owner";
        EXPECT_FALSE(cache.registerClip("run", model.value(), 99)) << "no such clip";
        EXPECT_FALSE(cache.registerClip("run", nullptr, 0));
        kept = *cache.clip("walk");
        AssetCache other;
        EXPECT_FALSE(other.clip("walk").has_value()) << "caches share nothing";
        cache.clear();
        EXPECT_EQ(cache.modelCount(), 0u);
        EXPECT_FALSE(cache.clip("walk").has_value());
    }
    ASSERT_NE(kept.clip, nullptr);
    EXPECT_GT(kept.clip->duration(), 0.0f) << "the handle keeps its model alive";
}

// ---- several threads on one cache ---------------------------------------------------

// A valid glTF: one node moved by one animation named `clip` over `keys` keyframes.
// Many keys make an import slow enough for other calls to land while it runs.
kinema::test::GltfWriter animatedWriter(const std::string& clip, std::size_t keys = 2) {
    kinema::test::GltfWriter w;
    std::vector<float> times(keys);
    std::vector<float> moves(keys * 3, 0.0f);
    for (std::size_t i = 0; i < keys; ++i) {
        times[i] = static_cast<float>(i) / 30.0f;
        moves[i * 3] = static_cast<float>(i);
    }
    const auto input = w.addFloats("SCALAR", times);
    const auto output = w.addFloats("VEC3", moves);
    const auto node = w.addNode({.name = "mover"});
    w.addScene({node});
    w.addAnimation({{.input = input, .output = output}}, {{.sampler = 0, .node = node, .path = "translation"}}, clip);
    return w;
}

std::string animatedGltf(const std::string& clip, std::size_t keys = 2) { return animatedWriter(clip, keys).gltf(); }

// Replaces the file in one step (write beside it, rename), so a reader sees the old
// bytes or the new ones, never a mix.
void writeAtomically(const fs::path& file, const std::string& text) {
    const fs::path part = file.string() + ".part";
    std::ofstream(part, std::ios::binary) << text;
    fs::rename(part, file);
}

// Counts how often each watched file is opened (Linux inotify): how these tests see
// how many times the cache imported a file, without a hook in the cache. Reading a
// file is one open; resolving its canonical path opens nothing.
class OpenCounter {
public:
#ifdef __linux__
    OpenCounter() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}
    ~OpenCounter() {
        if (fd_ >= 0) ::close(fd_);
    }
    bool available() const { return fd_ >= 0; }
    void watch(const fs::path& file) {
        if (fd_ < 0) return;
        const int wd = ::inotify_add_watch(fd_, file.c_str(), IN_OPEN);
        if (wd >= 0) files_[wd] = file;
    }
    // Opens since the last call, per file (files not opened are absent).
    std::map<fs::path, int> take() {
        std::map<fs::path, int> opens;
        alignas(inotify_event) char buffer[4096];
        for (;;) {
            const ssize_t got = ::read(fd_, buffer, sizeof buffer);
            if (got <= 0) break;
            for (ssize_t at = 0; at < got;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
                if (event->mask & IN_OPEN) ++opens[files_[event->wd]];
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
        return opens;
    }
#else
    bool available() const { return false; }
    void watch(const fs::path&) {}
    std::map<fs::path, int> take() { return {}; }
#endif
    OpenCounter(const OpenCounter&) = delete;
    OpenCounter& operator=(const OpenCounter&) = delete;

private:
#ifdef __linux__
    int fd_ = -1;
    std::map<int, fs::path> files_;
#endif
};

constexpr int kThreads = 8;

// What one thread saw: for each load it made, the file's index and the model it got.
struct Seen {
    std::vector<std::pair<std::size_t, const kinema::Model*>> loads;
    std::vector<std::string> faults;
};

// kThreads threads, released together, each loading `files` `rounds` times: the
// first file (the hot one) on every step, the others in an order of its own.
std::vector<Seen> loadTogether(AssetCache& cache, const std::vector<fs::path>& files, int rounds,
                               std::vector<std::shared_ptr<const kinema::Model>>* keep = nullptr) {
    std::vector<Seen> seen(kThreads);
    std::mutex keepMutex;
    std::latch start(kThreads);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            for (int r = 0; r < rounds; ++r) {
                for (std::size_t step = 0; step < files.size(); ++step) {
                    for (const std::size_t index : {std::size_t{0}, (step + t) % files.size()}) {
                        auto result = cache.load(files[index]);
                        if (!result.ok()) {
                            seen[t].faults.push_back(result.message());
                            continue;
                        }
                        seen[t].loads.emplace_back(index, result.value().get());
                        if (keep && r == 0) {
                            const std::lock_guard lock(keepMutex);
                            keep->push_back(result.value());
                        }
                    }
                }
            }
        });
    }
    for (auto& thread : threads) thread.join();
    return seen;
}

// Every thread got one model per file, the same one, and different files gave
// different models; returns them by file.
std::vector<const kinema::Model*> checkOneModelPerFile(const std::vector<Seen>& seen, std::size_t fileCount) {
    std::vector<const kinema::Model*> model(fileCount, nullptr);
    for (std::size_t t = 0; t < kThreads; ++t) {
        EXPECT_TRUE(seen[t].faults.empty()) << "thread " << t << ": " << seen[t].faults.front();
        for (const auto& [index, got] : seen[t].loads) {
            if (!model[index]) model[index] = got;
            EXPECT_EQ(got, model[index]) << "thread " << t << " got another model for file " << index;
        }
    }
    const std::set<const kinema::Model*> distinct(model.begin(), model.end());
    EXPECT_EQ(distinct.size(), fileCount) << "each file is its own model";
    EXPECT_EQ(distinct.count(nullptr), 0u);
    return model;
}

void checkEachFileOpenedOnce(OpenCounter& opens, const std::vector<fs::path>& files) {
    const auto counted = opens.take();
    for (const auto& file : files) {
        const auto it = counted.find(file);
        EXPECT_EQ(it == counted.end() ? 0 : it->second, 1) << file << " is imported exactly once";
    }
}

TEST(AssetCache, ConcurrentLoadsImportEachFileOnceAndShareTheModel) {
    const fs::path dir = scratchDir("concurrent");
    // The hot file is slow to import, so that threads arrive while it runs.
    std::vector<fs::path> files;
    for (int i = 0; i < 5; ++i) {
        files.push_back(dir / ("model" + std::to_string(i) + ".gltf"));
        writeAtomically(files.back(), animatedGltf("clip" + std::to_string(i), i == 0 ? 20000 : 50));
    }
    // Two files name a clip "shared": whichever finishes first keeps the name.
    writeAtomically(dir / "extra.gltf", animatedGltf("shared"));
    writeAtomically(dir / "extra2.gltf", animatedGltf("shared"));
    files.push_back(dir / "extra.gltf");
    files.push_back(dir / "extra2.gltf");
    OpenCounter opens;
    for (const auto& file : files) opens.watch(file);

    AssetCache cache;
    const auto seen = loadTogether(cache, files, 20);
    const auto model = checkOneModelPerFile(seen, files.size());
    if (opens.available()) checkEachFileOpenedOnce(opens, files);
    EXPECT_EQ(cache.modelCount(), files.size());
    for (std::size_t i = 0; i < files.size(); ++i) EXPECT_EQ(cache.find(files[i]).get(), model[i]);

    // Each name is registered once, to the model that holds it.
    for (int i = 0; i < 5; ++i) {
        const auto handle = cache.clip("clip" + std::to_string(i));
        ASSERT_TRUE(handle.has_value()) << i;
        EXPECT_EQ(handle->model.get(), model[static_cast<std::size_t>(i)]);
        EXPECT_EQ(handle->clip, &model[static_cast<std::size_t>(i)]->clips[0]);
    }
    const auto shared = cache.clip("shared");
    ASSERT_TRUE(shared.has_value());
    EXPECT_TRUE(shared->model.get() == model[5] || shared->model.get() == model[6]);

    // Of threads racing to register one free name, exactly one wins, and everyone
    // then sees the winner's clip.
    std::atomic<int> winners{0};
    std::atomic<int> winner{-1};
    {
        std::latch start(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t) {
            threads.emplace_back([&, t] {
                auto mine = cache.find(files[static_cast<std::size_t>(t % 5)]);
                start.arrive_and_wait();
                if (cache.registerClip("claimed", mine, 0)) {
                    ++winners;
                    winner = t % 5;
                }
                EXPECT_TRUE(cache.clip("claimed").has_value());
            });
        }
        for (auto& thread : threads) thread.join();
    }
    EXPECT_EQ(winners.load(), 1);
    ASSERT_GE(winner.load(), 0);
    EXPECT_EQ(cache.clip("claimed")->model.get(), model[static_cast<std::size_t>(winner.load())]);

    // Changed on disk, the files are not read again: every thread still gets the
    // models it had, and the new clip names do not appear.
    for (std::size_t i = 0; i < files.size(); ++i) {
        writeAtomically(files[i], animatedGltf("changed" + std::to_string(i)));
        opens.watch(files[i]);  // the new file is a new inode
    }
    opens.take();
    const auto again = loadTogether(cache, files, 3);
    EXPECT_EQ(checkOneModelPerFile(again, files.size()), model);
    EXPECT_TRUE(opens.take().empty()) << "a loaded file is not opened again";
    EXPECT_FALSE(cache.clip("changed0").has_value());
    EXPECT_EQ(model[0]->clips[0].name(), "clip0");

    fs::remove_all(dir);
    if (!opens.available())
        GTEST_SKIP() << "inotify unavailable: how many times each file was imported was not observed";
}

TEST(AssetCache, ConcurrentLoadsOfTheSampleModelsShareOneImport) {
    KINEMA_REQUIRE_ASSET(cesium, "CesiumMan/CesiumMan.glb");
    KINEMA_REQUIRE_ASSET(box, "BoxAnimated/BoxAnimated.glb");
    KINEMA_REQUIRE_ASSET(interpolation, "InterpolationTest/InterpolationTest.glb");
    // Copies, so that no one else opening the shared files disturbs the count.
    const fs::path dir = scratchDir("samples");
    std::vector<fs::path> files;
    for (const auto& source : {cesium, box, interpolation}) {
        files.push_back(dir / source.filename());
        fs::copy_file(source, files.back());
    }
    OpenCounter opens;
    for (const auto& file : files) opens.watch(file);

    AssetCache cache;
    std::vector<std::shared_ptr<const kinema::Model>> kept;
    const auto seen = loadTogether(cache, files, 10, &kept);
    const auto model = checkOneModelPerFile(seen, files.size());
    if (opens.available()) checkEachFileOpenedOnce(opens, files);
    EXPECT_EQ(cache.modelCount(), files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        for (const auto& c : model[i]->clips) {
            if (c.name().empty()) continue;
            const auto handle = cache.clip(c.name());
            ASSERT_TRUE(handle.has_value()) << c.name();
            EXPECT_EQ(handle->clip->name(), c.name());
            EXPECT_NE(std::find(model.begin(), model.end(), handle->model.get()), model.end()) << c.name();
        }
    }
    // Handles outlive a clear.
    cache.clear();
    for (const auto& handle : kept) EXPECT_FALSE(handle->clips.empty());
    fs::remove_all(dir);
}

TEST(AssetCache, ConcurrentFailedLoadsShareTheFaultsAndCacheNothing) {
    const fs::path dir = scratchDir("concurrent_broken");
    const fs::path file = dir / "broken.gltf";
    // Valid JSON, invalid glTF: the animation's sampler reads an accessor that does not exist.
    std::string text = animatedGltf("walk", 20000);
    const std::string from = "\"input\":0";
    ASSERT_NE(text.find(from), std::string::npos) << text.substr(0, 400);
    text.replace(text.find(from), from.size(), "\"input\":7");
    writeAtomically(file, text);

    AssetCache cache;
    const auto seen = loadTogether(cache, {file}, 10);
    std::string first;
    for (std::size_t t = 0; t < kThreads; ++t) {
        EXPECT_TRUE(seen[t].loads.empty()) << "thread " << t << " got a model from a broken file";
        EXPECT_EQ(seen[t].faults.size(), 20u);
        for (const auto& message : seen[t].faults) {
            if (first.empty()) first = message;
            EXPECT_EQ(message, first) << "every caller gets the same faults";
        }
    }
    EXPECT_NE(first.find("broken.gltf"), std::string::npos) << first;
    EXPECT_EQ(cache.modelCount(), 0u);
    EXPECT_EQ(cache.find(file), nullptr);
    EXPECT_FALSE(cache.clip("walk").has_value());

    // Repaired, it loads on the next call, and then once for everyone.
    writeAtomically(file, animatedGltf("walk", 20000));
    OpenCounter opens;
    opens.watch(file);
    const auto repaired = loadTogether(cache, {file}, 10);
    const auto model = checkOneModelPerFile(repaired, 1);
    if (opens.available()) checkEachFileOpenedOnce(opens, {file});
    EXPECT_EQ(cache.modelCount(), 1u);
    ASSERT_TRUE(cache.clip("walk").has_value());
    EXPECT_EQ(cache.clip("walk")->model.get(), model[0]);
    fs::remove_all(dir);
}

// ---- imports held in progress -------------------------------------------------------

// The bytes of a file's external buffer, handed to its import by a resolver (an
// ImportOptions feature) that holds the first request until release(): that import
// stays in progress for as long as a test needs. Each import of the file requests the
// buffer once, so requests() counts the imports.
class HeldBuffer {
public:
    explicit HeldBuffer(std::vector<std::byte> bytes)
        : bytes_(std::make_shared<const std::vector<std::byte>>(std::move(bytes))) {}
    HeldBuffer(const HeldBuffer&) = delete;
    HeldBuffer& operator=(const HeldBuffer&) = delete;

    kinema::ImportOptions options() {
        kinema::ImportOptions options;
        options.resolver = [this](const kinema::ResourceRequest&) { return provide(); };
        return options;
    }
    // True once the first import asked for the buffer (and is held there).
    bool waitUntilRequested() { return requested_.wait_for(std::chrono::seconds(30)) == std::future_status::ready; }
    void release() {
        std::call_once(released_, [this] { gate_.set_value(); });
    }
    int requests() const { return requests_.load(); }
    // Refuse the buffer instead of providing it: the import fails.
    std::atomic<bool> refuse{false};

private:
    kinema::Result<kinema::ResourceBytes> provide() {
        if (requests_.fetch_add(1) == 0) {
            requestedSignal_.set_value();
            gateOpen_.wait();
        }
        if (refuse) return kinema::Fault{"", "the buffer is not available"};
        return bytes_;
    }

    kinema::ResourceBytes bytes_;
    std::atomic<int> requests_{0};
    std::promise<void> requestedSignal_;
    std::future<void> requested_ = requestedSignal_.get_future();
    std::promise<void> gate_;
    std::shared_future<void> gateOpen_ = gate_.get_future().share();
    std::once_flag released_;
};

// Opens the gate however the test ends, so that no import stays held forever.
struct ReleaseOnExit {
    HeldBuffer& held;
    ~ReleaseOnExit() { held.release(); }
};

// A file whose buffer is "held.bin", served by a HeldBuffer.
struct HeldFile {
    fs::path path;
    std::unique_ptr<HeldBuffer> buffer;
};

HeldFile writeHeldFile(const fs::path& dir, const std::string& clip) {
    auto w = animatedWriter(clip, 1000);
    w.json()["buffers"][0]["uri"] = "held.bin";
    HeldFile held{dir / "held.gltf", std::make_unique<HeldBuffer>(w.bin())};
    writeAtomically(held.path, w.gltf());
    return held;
}

using LoadFuture = std::future<kinema::Result<std::shared_ptr<const kinema::Model>>>;

// kThreads loads of the held file: the first has started importing (its buffer was
// requested) before the others are started, so they all find that import in progress.
std::vector<LoadFuture> startHeldLoads(AssetCache& cache, const HeldFile& held) {
    std::vector<LoadFuture> loads;
    loads.push_back(std::async(std::launch::async, [&] { return cache.load(held.path); }));
    EXPECT_TRUE(held.buffer->waitUntilRequested());
    for (int t = 1; t < kThreads; ++t)
        loads.push_back(std::async(std::launch::async, [&] { return cache.load(held.path); }));
    return loads;
}

// While a file is being imported, the rest of the cache works: other files load and
// every other call returns (the import does not hold the cache's lock); callers of
// the same file wait and share the one import.
TEST(AssetCache, AnImportInProgressBlocksOnlyLoadsOfItsOwnFile) {
    const fs::path dir = scratchDir("in_progress");
    const fs::path small = dir / "small.gltf";
    writeAtomically(small, animatedGltf("small"));
    auto held = writeHeldFile(dir, "held");
    AssetCache cache(held.buffer->options());

    std::vector<LoadFuture> loads;  // before the release: the gate opens before the futures wait
    ReleaseOnExit release{*held.buffer};
    loads = startHeldLoads(cache, held);

    auto others = std::async(std::launch::async, [&] {
        auto loaded = cache.load(small);
        EXPECT_TRUE(loaded.ok()) << loaded.message();
        EXPECT_NE(cache.find(small), nullptr);
        EXPECT_EQ(cache.find(held.path), nullptr) << "an import in progress is not in the cache yet";
        EXPECT_TRUE(cache.clip("small").has_value());
        EXPECT_FALSE(cache.clip("held").has_value());
        EXPECT_EQ(cache.modelCount(), 1u);
    });
    EXPECT_EQ(others.wait_for(std::chrono::seconds(30)), std::future_status::ready)
        << "loading another file waited for an unrelated import";
    for (auto& load : loads) EXPECT_EQ(load.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout);

    held.buffer->release();
    others.get();
    const kinema::Model* shared = nullptr;
    for (auto& load : loads) {
        const auto result = load.get();
        ASSERT_TRUE(result.ok()) << result.message();
        if (!shared) shared = result.value().get();
        EXPECT_EQ(result.value().get(), shared);
    }
    EXPECT_EQ(held.buffer->requests(), 1) << "one import served every caller";
    EXPECT_EQ(cache.find(held.path).get(), shared);
    EXPECT_EQ(cache.clip("held")->model.get(), shared);
    EXPECT_EQ(cache.modelCount(), 2u);
    fs::remove_all(dir);
}

// Every caller waiting on a failed import gets its faults; nothing is kept, and the
// next load() imports the file again.
TEST(AssetCache, WaitersOnAFailedImportGetItsFaultsAndTheNextLoadRetries) {
    const fs::path dir = scratchDir("held_failure");
    auto held = writeHeldFile(dir, "walk");
    held.buffer->refuse = true;
    AssetCache cache(held.buffer->options());

    std::vector<LoadFuture> loads;  // before the release: the gate opens before the futures wait
    ReleaseOnExit release{*held.buffer};
    loads = startHeldLoads(cache, held);
    // Let the waiters line up; one arriving after the failure would import again.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    held.buffer->release();

    std::string first;
    for (auto& load : loads) {
        const auto result = load.get();
        ASSERT_FALSE(result.ok());
        if (first.empty()) first = result.message();
        EXPECT_EQ(result.message(), first);
    }
    EXPECT_NE(first.find("not available"), std::string::npos) << first;
    EXPECT_EQ(held.buffer->requests(), 1) << "the callers shared one failed import";
    EXPECT_EQ(cache.modelCount(), 0u);
    EXPECT_EQ(cache.find(held.path), nullptr);
    EXPECT_FALSE(cache.clip("walk").has_value());

    held.buffer->refuse = false;  // repaired
    const auto retried = cache.load(held.path);
    ASSERT_TRUE(retried.ok()) << retried.message();
    EXPECT_EQ(held.buffer->requests(), 2) << "a failure is not cached: the file was imported again";
    EXPECT_EQ(cache.find(held.path).get(), retried.value().get());
    EXPECT_TRUE(cache.clip("walk").has_value());
    fs::remove_all(dir);
}

// clear() during an import: that import's caller gets its model, but the cache does
// not keep it (it may hold the file as it was before the clear), and a load after the
// clear imports the file anew without waiting for the old import.
TEST(AssetCache, ClearDuringALoadKeepsNothingReadBeforeIt) {
    const fs::path dir = scratchDir("clear_in_flight");
    auto held = writeHeldFile(dir, "before");
    AssetCache cache(held.buffer->options());

    ReleaseOnExit release{*held.buffer};
    auto early = std::async(std::launch::async, [&] { return cache.load(held.path); });
    ASSERT_TRUE(held.buffer->waitUntilRequested());
    cache.clear();
    // The file changes: same buffer, another clip name.
    auto changed = animatedWriter("after", 1000);
    changed.json()["buffers"][0]["uri"] = "held.bin";
    writeAtomically(held.path, changed.gltf());

    auto fresh = std::async(std::launch::async, [&] { return cache.load(held.path); });
    ASSERT_EQ(fresh.wait_for(std::chrono::seconds(30)), std::future_status::ready)
        << "a load after clear() waited for an import begun before it";
    const auto freshModel = fresh.get();
    ASSERT_TRUE(freshModel.ok()) << freshModel.message();
    EXPECT_EQ(freshModel.value()->clips[0].name(), "after") << "the load after clear() read the file anew";
    EXPECT_EQ(held.buffer->requests(), 2);

    held.buffer->release();
    const auto earlyModel = early.get();
    ASSERT_TRUE(earlyModel.ok()) << earlyModel.message();
    EXPECT_EQ(earlyModel.value()->clips[0].name(), "before") << "its caller still gets the model";
    EXPECT_EQ(cache.find(held.path).get(), freshModel.value().get()) << "a model read before clear() is not kept";
    EXPECT_EQ(cache.modelCount(), 1u);
    EXPECT_FALSE(cache.clip("before").has_value());
    ASSERT_TRUE(cache.clip("after").has_value());
    EXPECT_EQ(cache.clip("after")->model.get(), freshModel.value().get());
    fs::remove_all(dir);
}

}  // namespace
