#include "import.h"

#include "float_narrow.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <new>

namespace flak::bake {

bool parseAxes(const std::string& spec, int out_axes[3]) {
    int axes[3];
    std::size_t pos = 0;
    for (int k = 0; k < 3; ++k) {
        const std::size_t comma = spec.find(',', pos);
        std::string item = spec.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        int sign = 1;
        if (!item.empty() && (item[0] == '-' || item[0] == '+')) {
            sign = item[0] == '-' ? -1 : 1;
            item = item.substr(1);
        }
        if (item != "x" && item != "y" && item != "z") return false;
        axes[k] = sign * (item[0] - 'x' + 1);
        if ((k < 2) != (comma != std::string::npos)) return false;
        pos = comma + 1;
    }
    if (std::abs(axes[0]) == std::abs(axes[1]) || std::abs(axes[1]) == std::abs(axes[2]) ||
        std::abs(axes[0]) == std::abs(axes[2]))
        return false;
    std::copy(axes, axes + 3, out_axes);
    return true;
}

namespace {

// Whether a --mesh value names the mesh (by name or by its index in the scene).
bool meshNamed(const std::string& value, const aiMesh* mesh, unsigned index) {
    return value == mesh->mName.C_Str() || value == std::to_string(index);
}

bool meshSelected(const ImportOptions& options, const aiMesh* mesh, unsigned index) {
    if (options.meshes.empty()) return true;
    for (const std::string& m : options.meshes)
        if (meshNamed(m, mesh, index)) return true;
    return false;
}

// Triangulate polygons, split primitive types so points and lines can be skipped. Welding and
// degenerate handling are the baker's own (prepare.cpp), so Assimp's are not asked for.
constexpr unsigned kImportSteps = aiProcess_Triangulate | aiProcess_SortByPType;

// The selected meshes of an imported scene as triangles, with transforms, scale and axes applied.
BakeError convertScene(const aiScene* scene, const std::string& path, const ImportOptions& options,
                       SourceMesh& out) {
    const aiNode* start = scene->mRootNode;
    if (!options.node.empty()) {
        start = scene->mRootNode->FindNode(options.node.c_str());
        if (start == nullptr) return {"no node named '" + options.node + "' in '" + path + "'"};
    }
    // The selected node's own ancestors' transforms still apply.
    aiMatrix4x4 base;
    for (const aiNode* p = start->mParent; p != nullptr; p = p->mParent) base = p->mTransformation * base;

    out = SourceMesh{};
    bool any_materials = false;
    struct Item {
        const aiNode* node;
        aiMatrix4x4 parent;
    };
    std::vector<Item> work = {{start, base}};
    std::size_t meshes_used = 0;
    std::vector<bool> value_used(options.meshes.size(), false); // each --mesh value selected a mesh
    while (!work.empty()) {
        const Item item = work.back();
        work.pop_back();
        const aiMatrix4x4 xf = item.parent * item.node->mTransformation;
        for (unsigned m = 0; m < item.node->mNumMeshes; ++m) {
            const unsigned mesh_index = item.node->mMeshes[m];
            const aiMesh* mesh = scene->mMeshes[mesh_index];
            if (!(mesh->mPrimitiveTypes & aiPrimitiveType_TRIANGLE) ||
                !meshSelected(options, mesh, mesh_index))
                continue;
            ++meshes_used;
            for (std::size_t v = 0; v < options.meshes.size(); ++v)
                if (meshNamed(options.meshes[v], mesh, mesh_index)) value_used[v] = true;
            const std::uint32_t first = static_cast<std::uint32_t>(out.positions.size());
            out.mesh_first_vertex.push_back(first);
            out.mesh_names.push_back(mesh->mName.C_Str());
            for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
                const aiVector3D& p = mesh->mVertices[v];
                const double in[3] = {double(xf.a1) * p.x + double(xf.a2) * p.y + double(xf.a3) * p.z + xf.a4,
                                      double(xf.b1) * p.x + double(xf.b2) * p.y + double(xf.b3) * p.z + xf.b4,
                                      double(xf.c1) * p.x + double(xf.c2) * p.y + double(xf.c3) * p.z +
                                          xf.c4};
                Vec3 q;
                for (int k = 0; k < 3; ++k) {
                    const int axis = std::abs(options.axes[k]) - 1;
                    q[k] = narrowToFloat((options.axes[k] < 0 ? -in[axis] : in[axis]) * options.scale);
                }
                out.positions.push_back(q);
            }
            for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
                const aiFace& face = mesh->mFaces[f];
                if (face.mNumIndices != 3) continue;
                for (int k = 0; k < 3; ++k) out.indices.push_back(first + face.mIndices[k]);
                out.materials.push_back(static_cast<std::uint16_t>(std::min(mesh->mMaterialIndex, 65535u)));
                if (mesh->mMaterialIndex != 0) any_materials = true;
            }
        }
        for (unsigned c = item.node->mNumChildren; c-- > 0;) work.push_back({item.node->mChildren[c], xf});
    }
    if (!any_materials) out.materials.clear();
    if (meshes_used == 0) return {"no triangle meshes selected in '" + path + "'"};
    // A value that selects nothing is a typo or a stale name: a bake that silently leaves a mesh
    // out is worse than one that stops.
    for (std::size_t v = 0; v < options.meshes.size(); ++v)
        if (!value_used[v])
            return {"--mesh '" + options.meshes[v] + "' selects no triangle mesh in '" + path + "'" +
                    (options.node.empty() ? std::string() : " under node '" + options.node + "'")};
    return {};
}

// Assimp catches what its readers throw and keeps it beside its error text. Running out of
// memory is passed on as itself, so that a caller with a memory limit tells it from a bad file by
// its type and not by words in a message that also quotes the caller's path.
void rethrowOutOfMemory(const Assimp::Importer& importer) {
    const std::exception_ptr& caught = importer.GetException();
    if (!caught) return;
    try {
        std::rethrow_exception(caught);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (...) {
    }
}

} // namespace

BakeError importMesh(const std::string& path, const ImportOptions& options, SourceMesh& out) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path, kImportSteps);
    if (scene == nullptr) rethrowOutOfMemory(importer);
    if (scene == nullptr || scene->mRootNode == nullptr)
        return {"cannot import '" + path + "': " + importer.GetErrorString()};
    return convertScene(scene, path, options, out);
}

BakeError importMeshFromMemory(const void* data, std::size_t size, const std::string& format,
                               const ImportOptions& options, SourceMesh& out) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFileFromMemory(data, size, kImportSteps, format.c_str());
    if (scene == nullptr) rethrowOutOfMemory(importer);
    const std::string name = "<memory>." + format;
    if (scene == nullptr || scene->mRootNode == nullptr)
        return {"cannot import '" + name + "': " + importer.GetErrorString()};
    return convertScene(scene, name, options, out);
}

} // namespace flak::bake
