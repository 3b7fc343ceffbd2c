#include "cluster_fit.h"

#include <flak/bvh/segment_query.h>
#include <flak/bvh/sphere_query.h>
#include <flak/shooter/blob_sections.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace flak::bake {

namespace {

struct P3 {
    double x, y, z;
};
P3 p3(const Vec3& v) { return {v.x, v.y, v.z}; }
double dist(const P3& a, const P3& b) {
    const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
    return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Deterministic generator (SplitMix64) for the verification points.
struct Mix {
    std::uint64_t s;
    double u() {
        s += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = s;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return double((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0);
    }
};

struct Fit {
    std::vector<P3> c;
    std::vector<double> r;
    double volume = 0.0;
};

// Radii as the farthest assigned sample (plus pad); empty spheres collapse onto the worst sample.
void radii(const std::vector<P3>& s, const std::vector<std::uint32_t>& owner, double pad, Fit& f) {
    std::fill(f.r.begin(), f.r.end(), -1.0);
    for (std::size_t i = 0; i < s.size(); ++i)
        f.r[owner[i]] = std::max(f.r[owner[i]], dist(s[i], f.c[owner[i]]));
    f.volume = 0.0;
    for (std::size_t k = 0; k < f.r.size(); ++k) {
        if (f.r[k] < 0.0) f.r[k] = 0.0;
        f.r[k] += pad;
        f.volume += f.r[k] * f.r[k] * f.r[k];
    }
}

// Whether q is inside the closed mesh: parity of the crossings of a fixed, slightly skewed ray.
bool insideMesh(const MeshBlob& blob, const P3& q, double reach) {
    const P3 dir{0.1234567, 0.0765432, 0.9889};
    Vec3 from{float(q.x), float(q.y), float(q.z)};
    const Vec3 to{float(q.x + dir.x * reach), float(q.y + dir.y * reach), float(q.z + dir.z * reach)};
    int crossings = 0;
    for (int guard = 0; guard < 10000; ++guard) {
        MeshRayHit h;
        if (!segmentClosestHit(blob, from, to, h)) break;
        ++crossings;
        // Restart just past the hit (a shared edge hit twice at one t counts once).
        Vec3 d;
        sub(to, from, d);
        const float step = std::max(h.hit.t, 0.0f) + 1e-5f;
        if (step >= 1.0f) break;
        addScaled(from, d, step, from);
    }
    return crossings % 2 == 1;
}

// Distance from q to the mesh surface by bisection on sphereAnyHit.
double surfaceDistance(const MeshBlob& blob, const P3& q, double reach, int steps = 30) {
    double lo = 0.0, hi = reach;
    Sphere s;
    set(float(q.x), float(q.y), float(q.z), s.center);
    for (int i = 0; i < steps; ++i) {
        const double mid = 0.5 * (lo + hi);
        s.radius = float(mid);
        if (sphereAnyHit(blob, s))
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

// A triangle's corners in double.
void triangleCorners(const SourceMesh& mesh, std::uint32_t t, P3& out_a, P3& out_b, P3& out_c) {
    out_a = p3(mesh.positions[mesh.indices[3 * t]]);
    out_b = p3(mesh.positions[mesh.indices[3 * t + 1]]);
    out_c = p3(mesh.positions[mesh.indices[3 * t + 2]]);
}

// The diagonal of the mesh's bounding box.
double boxDiagonal(const SourceMesh& mesh) {
    P3 lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (const Vec3& v : mesh.positions) {
        lo = {std::min(lo.x, double(v.x)), std::min(lo.y, double(v.y)), std::min(lo.z, double(v.z))};
        hi = {std::max(hi.x, double(v.x)), std::max(hi.y, double(v.y)), std::max(hi.z, double(v.z))};
    }
    return dist(lo, hi);
}

// Grid steps per triangle for a grid step of `step` (k from its longest edge, 1..256), and in
// out_total the samples they make.
std::vector<std::uint32_t> gridSteps(const SourceMesh& mesh, double step, std::size_t& out_total) {
    std::vector<std::uint32_t> ks(mesh.triangleCount());
    out_total = 0;
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        P3 a, b, c;
        triangleCorners(mesh, t, a, b, c);
        const double longest = std::max({dist(a, b), dist(b, c), dist(c, a)});
        ks[t] = std::max<std::uint32_t>(
            1, std::min<std::uint32_t>(256, std::uint32_t(std::ceil(longest / step))));
        out_total += std::size_t(ks[t] + 1) * (ks[t] + 2) / 2;
    }
    return ks;
}

// Grid steps for at most ~400k samples in all: the step grows from `spacing` when a mesh would
// need more. The count takes three per triangle at the least (one step each), so a mesh of more
// than about 133,000 triangles cannot get under it: the growth stops once every triangle is down
// to one step (its corners alone), which no larger step changes.
std::vector<std::uint32_t> boundedGridSteps(const SourceMesh& mesh, double spacing, std::size_t& out_total) {
    std::vector<std::uint32_t> ks = gridSteps(mesh, spacing, out_total);
    while (out_total > 400000 && std::any_of(ks.begin(), ks.end(), [](std::uint32_t k) { return k > 1; })) {
        spacing *= 1.5;
        ks = gridSteps(mesh, spacing, out_total);
    }
    return ks;
}

// Surface samples: every vertex, then a barycentric grid of ks[t] steps per triangle t, with the
// unit normal of each sample's triangle (0 for vertices). Returns the covering pad: the largest
// grid step / sqrt(3), a hair wider.
double sampleSurface(const SourceMesh& mesh, const std::vector<std::uint32_t>& ks, std::size_t total,
                     std::vector<P3>& out_samples, std::vector<P3>& out_normals) {
    out_samples.reserve(total + mesh.positions.size());
    for (const Vec3& v : mesh.positions) out_samples.push_back(p3(v)), out_normals.push_back(P3{0, 0, 0});
    double pad = 0.0;
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        P3 a, b, c;
        triangleCorners(mesh, t, a, b, c);
        const std::uint32_t k = ks[t];
        const P3 e1{b.x - a.x, b.y - a.y, b.z - a.z}, e2{c.x - a.x, c.y - a.y, c.z - a.z};
        P3 nrm{e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x};
        const double nl = std::sqrt(nrm.x * nrm.x + nrm.y * nrm.y + nrm.z * nrm.z);
        nrm = nl > 0 ? P3{nrm.x / nl, nrm.y / nl, nrm.z / nl} : P3{0, 0, 0};
        pad = std::max(pad, std::max({dist(a, b), dist(b, c), dist(c, a)}) / k / std::sqrt(3.0));
        for (std::uint32_t i = 0; i <= k; ++i)
            for (std::uint32_t j = 0; i + j <= k; ++j) {
                if ((i == 0 && j == 0) || (i == k && j == 0) || (i == 0 && j == k))
                    continue; // vertices already in
                const double u = double(i) / k, v = double(j) / k, w = 1.0 - u - v;
                out_samples.push_back(
                    {w * a.x + u * b.x + v * c.x, w * a.y + u * b.y + v * c.y, w * a.z + u * b.z + v * c.z});
                out_normals.push_back(nrm);
            }
    }
    return pad * (1.0 + 1e-9);
}

// Farthest-point seeds, starting from the sample farthest from the samples' mean: n centres.
std::vector<P3> seedFarthestPoints(const std::vector<P3>& samples, std::uint32_t n) {
    const std::size_t s_count = samples.size();
    P3 mean{0, 0, 0};
    for (const P3& s : samples) mean = {mean.x + s.x, mean.y + s.y, mean.z + s.z};
    mean = {mean.x / double(s_count), mean.y / double(s_count), mean.z / double(s_count)};
    std::vector<P3> centres;
    std::vector<double> nearest(s_count, HUGE_VAL);
    std::size_t next = 0;
    for (std::size_t i = 0; i < s_count; ++i)
        if (dist(samples[i], mean) > dist(samples[next], mean)) next = i;
    for (std::uint32_t k = 0; k < n; ++k) {
        centres.push_back(samples[next]);
        std::size_t far = 0;
        for (std::size_t i = 0; i < s_count; ++i) {
            nearest[i] = std::min(nearest[i], dist(samples[i], centres.back()));
            if (nearest[i] > nearest[far]) far = i;
        }
        next = far;
    }
    return centres;
}

// Lloyd (k-means) iterations: each sample to its nearest centre, each centre to its samples' mean.
void runLloyd(const std::vector<P3>& samples, Fit& inout_fit, std::vector<std::uint32_t>& out_owner) {
    const std::size_t s_count = samples.size();
    const std::uint32_t n = static_cast<std::uint32_t>(inout_fit.c.size());
    for (int it = 0; it < 10; ++it) {
        std::vector<P3> sum(n, P3{0, 0, 0});
        std::vector<std::size_t> cnt(n, 0);
        for (std::size_t i = 0; i < s_count; ++i) {
            std::uint32_t best = 0;
            double bd = HUGE_VAL;
            for (std::uint32_t k = 0; k < n; ++k) {
                const double d = dist(samples[i], inout_fit.c[k]);
                if (d < bd) bd = d, best = k;
            }
            out_owner[i] = best;
            sum[best] = {sum[best].x + samples[i].x, sum[best].y + samples[i].y, sum[best].z + samples[i].z};
            ++cnt[best];
        }
        for (std::uint32_t k = 0; k < n; ++k)
            if (cnt[k] > 0)
                inout_fit.c[k] = {sum[k].x / double(cnt[k]), sum[k].y / double(cnt[k]),
                                  sum[k].z / double(cnt[k])};
    }
}

// Each sample to the sphere it is deepest inside (least distance to the centre minus the radius;
// the first such sphere on ties).
void assignDeepest(const std::vector<P3>& samples, const Fit& fit, std::vector<std::uint32_t>& out_owner) {
    const std::uint32_t n = static_cast<std::uint32_t>(fit.c.size());
    for (std::size_t i = 0; i < samples.size(); ++i) {
        double bd = HUGE_VAL;
        for (std::uint32_t k = 0; k < n; ++k) {
            const double d = dist(samples[i], fit.c[k]) - fit.r[k];
            if (d < bd) bd = d, out_owner[i] = k;
        }
    }
}

// The approximate centre of the smallest ball around the samples `members`, from `start`: 60
// Badoiu-Clarkson steps, each a shrinking fraction of the way to the farthest member.
P3 approxSmallestBallCentre(const std::vector<P3>& samples, const std::vector<std::uint32_t>& members,
                            const P3& start) {
    P3 c = start;
    for (int it = 0; it < 60; ++it) {
        std::uint32_t far = members[0];
        double fd = -1.0;
        for (std::uint32_t i : members) {
            const double d = dist(samples[i], c);
            if (d > fd) fd = d, far = i;
        }
        const double f = 1.0 / double(it + 2);
        c = {c.x + (samples[far].x - c.x) * f, c.y + (samples[far].y - c.y) * f,
             c.z + (samples[far].z - c.z) * f};
    }
    return c;
}

// Minimax rounds: reassign to the sphere a sample is deepest inside, then move each sphere to
// the approximate smallest ball of its samples (Badoiu & Clarkson 2003, 1/(i+1) steps).
// `inout_best` keeps the fit of least total volume.
void refineMinimax(const std::vector<P3>& samples, double pad, std::uint32_t rounds, Fit& inout_fit,
                   std::vector<std::uint32_t>& inout_owner, Fit& inout_best) {
    const std::uint32_t n = static_cast<std::uint32_t>(inout_fit.c.size());
    for (std::uint32_t round = 0; round < rounds; ++round) {
        assignDeepest(samples, inout_fit, inout_owner);
        std::vector<std::vector<std::uint32_t>> members(n);
        for (std::size_t i = 0; i < samples.size(); ++i)
            members[inout_owner[i]].push_back(static_cast<std::uint32_t>(i));
        for (std::uint32_t k = 0; k < n; ++k) {
            if (members[k].empty()) continue;
            inout_fit.c[k] = approxSmallestBallCentre(samples, members[k], inout_fit.c[k]);
        }
        radii(samples, inout_owner, pad, inout_fit);
        if (inout_fit.volume < inout_best.volume) inout_best = inout_fit;
    }
}

// How far the sphere (c, r) sticks out of the mesh, measured on 32 points of its surface: the
// largest distance to the mesh of those outside it.
double sphereOvershoot(const MeshBlob& blob, const P3& c, double r, double reach) {
    double cost = 0.0;
    for (int q = 0; q < 32; ++q) {
        const double z = 1.0 - (2.0 * q + 1.0) / 32.0, rr = std::sqrt(1.0 - z * z),
                     phi = 2.39996322972865332 * q;
        const P3 x{c.x + r * rr * std::cos(phi), c.y + r * rr * std::sin(phi), c.z + r * z};
        if (!insideMesh(blob, x, reach)) cost = std::max(cost, surfaceDistance(blob, x, reach, 16));
    }
    return cost;
}

// The offset (in radii r0, among a few) along `dir` from `base` where sphere k, its radius the
// farthest of its samples plus pad, sticks out of the mesh least; the first such on ties.
double leastOvershootOffset(const MeshBlob& blob, const std::vector<P3>& samples,
                            const std::vector<std::uint32_t>& owner, std::uint32_t k, const P3& base,
                            const P3& dir, double r0, double pad, double reach) {
    double best_cost = HUGE_VAL, best_off = 0.0;
    for (double f : {0.0, 0.125, 0.25, 0.375, 0.5, 0.75, 1.0, 1.5, 2.0}) {
        const P3 c{base.x + dir.x * f * r0, base.y + dir.y * f * r0, base.z + dir.z * f * r0};
        double r = 0.0;
        for (std::size_t i = 0; i < samples.size(); ++i)
            if (owner[i] == k) r = std::max(r, dist(samples[i], c));
        r += pad;
        const double cost = sphereOvershoot(blob, c, r, reach);
        if (cost < best_cost) best_cost = cost, best_off = f;
    }
    return best_off;
}

// Overshoot descent: each sphere slides inwards along its patch's mean normal (against it) to
// the offset, among a few, whose sphere (radius = its samples' farthest, so coverage holds)
// sticks out of the mesh least (sphereOvershoot: on 32 points of its surface).
void descendOvershoot(const MeshBlob& blob, const std::vector<P3>& samples, const std::vector<P3>& normals,
                      double pad, double reach, std::vector<std::uint32_t>& inout_owner, Fit& inout_fit) {
    const std::uint32_t n = static_cast<std::uint32_t>(inout_fit.c.size());
    assignDeepest(samples, inout_fit, inout_owner);
    std::vector<P3> mean_n(n, P3{0, 0, 0});
    for (std::size_t i = 0; i < samples.size(); ++i) {
        P3& m = mean_n[inout_owner[i]];
        m = {m.x + normals[i].x, m.y + normals[i].y, m.z + normals[i].z};
    }
    radii(samples, inout_owner, pad, inout_fit);
    for (std::uint32_t k = 0; k < n; ++k) {
        const double ml =
            std::sqrt(mean_n[k].x * mean_n[k].x + mean_n[k].y * mean_n[k].y + mean_n[k].z * mean_n[k].z);
        if (!(ml > 0.0)) continue;
        const P3 dir{-mean_n[k].x / ml, -mean_n[k].y / ml, -mean_n[k].z / ml};
        const P3 base = inout_fit.c[k];
        const double r0 = inout_fit.r[k];
        const double best_off =
            leastOvershootOffset(blob, samples, inout_owner, k, base, dir, r0, pad, reach);
        inout_fit.c[k] = {base.x + dir.x * best_off * r0, base.y + dir.y * best_off * r0,
                          base.z + dir.z * best_off * r0};
    }
    radii(samples, inout_owner, pad, inout_fit);
}

// To float, radii rounded up so the float spheres hold every double-checked point.
void toFloatSpheres(const Fit& fit, std::vector<Sphere>& out_spheres) {
    for (std::size_t k = 0; k < fit.c.size(); ++k) {
        Sphere s;
        set(float(fit.c[k].x), float(fit.c[k].y), float(fit.c[k].z), s.center);
        const double shift = dist(fit.c[k], p3(s.center));
        float r = float(fit.r[k] + shift);
        while (double(r) < fit.r[k] + shift) r = std::nextafter(r, std::numeric_limits<float>::infinity());
        s.radius = r;
        out_spheres.push_back(s);
    }
}

// 20,000 uniform random surface points (area-weighted triangle, then uniform barycentrics),
// appended to `inout_points`; deterministic.
void appendRandomSurfacePoints(const SourceMesh& mesh, std::vector<P3>& inout_points) {
    std::vector<double> area(mesh.triangleCount());
    double area_sum = 0.0;
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        P3 a, b, c;
        triangleCorners(mesh, t, a, b, c);
        const P3 u{b.x - a.x, b.y - a.y, b.z - a.z}, v{c.x - a.x, c.y - a.y, c.z - a.z};
        const P3 x{u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x};
        area_sum += 0.5 * std::sqrt(x.x * x.x + x.y * x.y + x.z * x.z);
        area[t] = area_sum;
    }
    Mix mix{0x5EEDC1u};
    for (int i = 0; i < 20000; ++i) {
        const double pick = mix.u() * area_sum;
        const std::uint32_t t = static_cast<std::uint32_t>(std::min<std::size_t>(
            static_cast<std::size_t>(std::lower_bound(area.begin(), area.end(), pick) - area.begin()),
            area.size() - 1));
        double u = mix.u(), v = mix.u();
        if (u + v > 1.0) u = 1.0 - u, v = 1.0 - v;
        P3 a, b, c;
        triangleCorners(mesh, t, a, b, c);
        const double w = 1.0 - u - v;
        inout_points.push_back(
            {w * a.x + u * b.x + v * c.x, w * a.y + u * b.y + v * c.y, w * a.z + u * b.z + v * c.z});
    }
}

bool insideSomeSphere(const P3& q, const std::vector<Sphere>& spheres) {
    for (const Sphere& s : spheres)
        if (dist(q, p3(s.center)) <= double(s.radius)) return true;
    return false;
}

// Coverage: the fit's own samples (vertices included) and 20,000 uniform random surface points.
void measureCoverage(const SourceMesh& mesh, std::vector<P3> points, ClusterFit& inout) {
    appendRandomSurfacePoints(mesh, points);
    std::size_t covered = 0;
    for (const P3& q : points)
        if (insideSomeSphere(q, inout.spheres)) ++covered;
    inout.coverage_points = static_cast<std::uint32_t>(points.size());
    inout.coverage_percent = 100.0 * double(covered) / double(points.size());
}

// Overshoot: 128 Fibonacci points on every sphere; those outside the mesh, their distance to it.
void measureOvershoot(const MeshBlob& blob, double reach, ClusterFit& inout) {
    const double golden = 3.14159265358979323846 * (3.0 - std::sqrt(5.0));
    for (const Sphere& s : inout.spheres) {
        for (int i = 0; i < 128; ++i) {
            const double z = 1.0 - (2.0 * i + 1.0) / 128.0, rr = std::sqrt(1.0 - z * z), phi = golden * i;
            const P3 q{s.center.x + s.radius * rr * std::cos(phi), s.center.y + s.radius * rr * std::sin(phi),
                       s.center.z + s.radius * z};
            if (insideMesh(blob, q, reach)) continue;
            inout.max_overshoot = std::max(inout.max_overshoot, surfaceDistance(blob, q, reach));
        }
    }
}

// The mesh's volume by the divergence theorem.
double meshVolume(const SourceMesh& mesh) {
    double vol6 = 0.0;
    for (std::uint32_t t = 0; t < mesh.triangleCount(); ++t) {
        P3 a, b, c;
        triangleCorners(mesh, t, a, b, c);
        vol6 += a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x);
    }
    return std::fabs(vol6) / 6.0;
}

// The volume of the spheres' union on a 64^3 grid over its box.
double unionVolume(const std::vector<Sphere>& spheres) {
    P3 ulo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, uhi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (const Sphere& s : spheres) {
        ulo = {std::min(ulo.x, double(s.center.x) - s.radius), std::min(ulo.y, double(s.center.y) - s.radius),
               std::min(ulo.z, double(s.center.z) - s.radius)};
        uhi = {std::max(uhi.x, double(s.center.x) + s.radius), std::max(uhi.y, double(s.center.y) + s.radius),
               std::max(uhi.z, double(s.center.z) + s.radius)};
    }
    constexpr int kGrid = 64;
    const P3 cell{(uhi.x - ulo.x) / kGrid, (uhi.y - ulo.y) / kGrid, (uhi.z - ulo.z) / kGrid};
    std::size_t inside = 0;
    for (int i = 0; i < kGrid; ++i)
        for (int j = 0; j < kGrid; ++j)
            for (int k = 0; k < kGrid; ++k) {
                const P3 q{ulo.x + (i + 0.5) * cell.x, ulo.y + (j + 0.5) * cell.y,
                           ulo.z + (k + 0.5) * cell.z};
                if (insideSomeSphere(q, spheres)) ++inside;
            }
    return double(inside) * cell.x * cell.y * cell.z;
}

// Volumes: the mesh by the divergence theorem, the union on a 64^3 grid over its box.
void measureVolumes(const SourceMesh& mesh, ClusterFit& inout) {
    inout.mesh_volume = meshVolume(mesh);
    inout.union_volume = unionVolume(inout.spheres);
    inout.volume_ratio = inout.mesh_volume > 0.0 ? inout.union_volume / inout.mesh_volume : 0.0;
}

} // namespace

BakeError fitSphereCluster(const SourceMesh& mesh, const MeshBlob& blob, const ClusterFitOptions& options,
                           ClusterFit& out) {
    out = ClusterFit{};
    const std::uint32_t n = options.spheres;
    if (n < 1 || n > kMaxClusterSpheres)
        return {"--spheres must be 1.." + std::to_string(kMaxClusterSpheres)};
    if (mesh.triangleCount() == 0) return {"a sphere cluster needs triangles"};
    const double diag = boxDiagonal(mesh);
    double spacing = options.spacing > 0.0 ? options.spacing : diag / 100.0;
    if (!(spacing > 0.0)) spacing = 1.0;

    std::size_t total = 0;
    const std::vector<std::uint32_t> ks = boundedGridSteps(mesh, spacing, total);
    std::vector<P3> samples, normals;
    const double pad = sampleSurface(mesh, ks, total, samples, normals);

    Fit fit;
    fit.c = seedFarthestPoints(samples, n);
    fit.r.assign(n, 0.0);
    std::vector<std::uint32_t> owner(samples.size(), 0);
    runLloyd(samples, fit, owner);
    radii(samples, owner, pad, fit);
    Fit best = fit;
    refineMinimax(samples, pad, options.rounds, fit, owner, best);
    const double reach = 4.0 * diag + 1.0;
    descendOvershoot(blob, samples, normals, pad, reach, owner, best);

    toFloatSpheres(best, out.spheres);
    out.samples = static_cast<std::uint32_t>(samples.size());
    measureCoverage(mesh, std::move(samples), out);
    measureOvershoot(blob, reach, out);
    measureVolumes(mesh, out);
    return {};
}

} // namespace flak::bake
