// tinygltf's implementation, compiled once with this build's flags. The target defines
// TINYGLTF_NO_STB_IMAGE, TINYGLTF_NO_STB_IMAGE_WRITE and TINYGLTF_NO_EXTERNAL_IMAGE
// (bench/compare/CMakeLists.txt) for all its files: no image decoding (the benchmark
// installs an image loader that keeps nothing), no image writing, no external image
// files. kinema's import does not decode images either.
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
