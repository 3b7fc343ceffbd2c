// Test helper: bake a generated mesh to blob bytes through the baker library, and hold bytes at
// a 16-byte aligned address.
#pragma once

#include "blob_inspect.h"
#include "blob_write.h"
#include "bvh_build.h"
#include "flak_support/mesh_gen.h"
#include "prepare.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace flak::test {

/// This host's byte order, the baker's default (bake::WriteOptions); a test that needs a foreign
/// blob bakes with big_endian = !kHostBigEndian.
constexpr bool kHostBigEndian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;

struct BakeSettings {
    bake::BuildOptions build;
    bake::PrepareOptions prepare;
    bake::WriteOptions write;
    std::vector<std::uint16_t> materials; ///< per source triangle; empty: none
};

inline std::vector<unsigned char> bakeBytes(const Mesh& mesh, const BakeSettings& settings = {},
                                            bake::SourceMesh* out_prepared = nullptr) {
    bake::SourceMesh source;
    source.positions = mesh.positions;
    source.indices = mesh.indices;
    source.materials = settings.materials;
    const bake::BakeError prep = bake::prepareMesh(source, settings.prepare);
    EXPECT_FALSE(prep.failed()) << prep.message;
    const bake::BuiltTree tree = bake::buildBvh(source.positions, source.indices, settings.build);
    std::vector<unsigned char> bytes;
    bake::WriteOptions write = settings.write;
    write.max_leaf = settings.build.max_leaf;
    const bake::BakeError err = bake::writeBlob(source, tree, write, bytes);
    EXPECT_FALSE(err.failed()) << err.message;
    if (out_prepared != nullptr) *out_prepared = std::move(source);
    return bytes;
}

/// Bytes copied to a 16-byte aligned address (vector storage alone does not promise it).
class AlignedBytes {
public:
    explicit AlignedBytes(const std::vector<unsigned char>& bytes)
        : m_storage(bytes.size() + 16), m_size(bytes.size()) {
        const std::size_t shift = (16 - (reinterpret_cast<std::uintptr_t>(m_storage.data()) & 15u)) & 15u;
        m_data = m_storage.data() + shift;
        std::memcpy(m_data, bytes.data(), bytes.size());
    }
    unsigned char* data() { return m_data; }
    std::size_t size() const { return m_size; }

private:
    std::vector<unsigned char> m_storage;
    unsigned char* m_data;
    std::size_t m_size;
};

/// The whole file at `path` (empty when it cannot be read).
inline std::vector<unsigned char> readBytes(const char* path) {
    std::vector<unsigned char> bytes;
    std::FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return bytes;
    unsigned char chunk[4096];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes.insert(bytes.end(), chunk, chunk + n);
    std::fclose(f);
    return bytes;
}

/// The bytes opened as a blob (the container checked; a failure is a test failure).
inline Blob opened(AlignedBytes& bytes) {
    Blob blob;
    EXPECT_EQ(openBlob(bytes.data(), bytes.size(), blob), Status::Ok);
    return blob;
}

/// The blob's bytes with the checksum recomputed, as a pipeline that re-seals what it damaged
/// would.
inline std::vector<unsigned char> resealed(std::vector<unsigned char> bytes) {
    const std::uint64_t sum = blobChecksum(bytes.data(), bytes.size());
    std::memcpy(bytes.data() + offsetof(BlobHeader, checksum), &sum, 8);
    return bytes;
}

/// [bytes, bytes + count) with `size` bytes at `offset` replaced by `value`, resealed.
inline std::vector<unsigned char> resealed(const unsigned char* bytes, std::size_t count, std::size_t offset,
                                           const void* value, std::size_t size) {
    std::vector<unsigned char> copy(bytes, bytes + count);
    std::memcpy(copy.data() + offset, value, size);
    return resealed(std::move(copy));
}

/// Loads the resealed bytes (above): the loader's status, and in out_error what it said.
inline Status loadResealed(const unsigned char* bytes, std::size_t count, std::size_t offset,
                           const void* value, std::size_t size, BlobError& out_error) {
    AlignedBytes aligned(resealed(bytes, count, offset, value, size));
    MeshBlob blob;
    return loadMeshBlob(aligned.data(), aligned.size(), blob, &out_error);
}

} // namespace flak::test
