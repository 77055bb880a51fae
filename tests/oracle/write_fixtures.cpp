// kinema_spec_fixtures OUTDIR: writes every glTF conformance fixture
// (tests/support/spec_fixtures.hpp) as OUTDIR/<name>.gltf or .glb, and
// OUTDIR/manifest.json: [{file, name, validatorCode, validatorPointer, validatorAlso, pointer,
// location, recoverable, repair}].
// validate.mjs runs it and checks each file with glTF-Validator and `kinema validate`.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "support/gltf_writer.hpp"
#include "support/spec_fixtures.hpp"

namespace {

bool writeFile(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
    using namespace kinema::test;
    if (argc != 2) {
        std::cerr << "usage: kinema_spec_fixtures OUTDIR\n";
        return 2;
    }
    try {
        const std::filesystem::path dir = argv[1];
        std::filesystem::create_directories(dir);
        Json manifest = Json::array();
        for (const SpecFixture& f : specFixtures()) {
            if (!writeFile(dir / f.fileName(), f.bytes())) {
                std::cerr << "kinema_spec_fixtures: cannot write " << (dir / f.fileName()).string() << '\n';
                return 1;
            }
            Json entry = Json::object();
            entry["file"] = f.fileName();
            entry["name"] = f.name;
            entry["validatorCode"] = f.validatorCode;
            entry["validatorPointer"] = f.validatorPointer;
            Json also = Json::array();
            for (const std::string& code : f.validatorAlso) also.push(code);
            entry["validatorAlso"] = std::move(also);
            entry["pointer"] = f.pointer;
            entry["location"] = f.accepted() ? std::string() : f.location();
            entry["recoverable"] = !f.accepted() && f.recoverable;
            entry["repair"] = f.repair;
            manifest.push(std::move(entry));
        }
        const std::string text = manifest.dump() + "\n";
        if (!writeFile(dir / "manifest.json", toBytes(text))) {
            std::cerr << "kinema_spec_fixtures: cannot write manifest.json\n";
            return 1;
        }
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "kinema_spec_fixtures: " << e.what() << '\n';
        return 1;
    }
}
