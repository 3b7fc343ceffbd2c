// flak_bench_armada: the armada frame in flak (Scene::update + World::step, as the frame-budget
// runner times it) against the same frame composed from Bullet calls (bullet_armada.h), in the same
// process, on the same scripted frames, each timed with the same clock. Per frame, flak runs first;
// the Bullet frame then answers the state the script left before flak's step (armada_frame.h).
//
//   flak_bench_armada [--frames N] [--repeat R] [--clock steady|thread] [--bullet-shots sweep|contact]
//                     [--seed S] [--scene NAME] [--json FILE]
//
// --frames: frames to play (300). --repeat: passes over the same frames; each row's per-frame time
// is the quickest pass (1). --clock: steady (wall time) or thread (this thread's CPU time, for a
// shared machine). --bullet-shots: how the Bullet side asks about bullets (sweep: the World's rule;
// contact: a sphere contactTest where the step leaves every bullet). --seed: the scene seed (1, the
// frame-budget runner's default). --json: the report as one object, with every frame's total.
#include "armada_frame.h"
#include "bench_clock.h"
#include "bullet_armada.h"
#include "flak_support/cli_number.h"
#include "flak_support/host_block.h"
#include "scene.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

using namespace flak;
using namespace flak::bench;

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buffer, sizeof(buffer), fmt, args);
    va_end(args);
    return buffer;
}

struct Stats {
    double p50 = 0, p95 = 0, p99 = 0, max = 0, mean = 0; // ms
};

// Nearest rank, as the frame-budget runner: the smallest value with at least q of the samples at or below it.
Stats stats(std::vector<std::uint64_t> ns) {
    Stats s;
    if (ns.empty()) return s;
    std::sort(ns.begin(), ns.end());
    auto rank = [&ns](double q) {
        std::size_t k = static_cast<std::size_t>(q * static_cast<double>(ns.size()) + 0.999999);
        k = std::min(std::max<std::size_t>(k, 1), ns.size());
        return static_cast<double>(ns[k - 1]) / 1e6;
    };
    s.p50 = rank(0.50);
    s.p95 = rank(0.95);
    s.p99 = rank(0.99);
    s.max = static_cast<double>(ns.back()) / 1e6;
    double sum = 0;
    for (std::uint64_t v : ns) sum += static_cast<double>(v);
    s.mean = sum / static_cast<double>(ns.size()) / 1e6;
    return s;
}

// The rows of the table: flak's phases grouped as the Bullet composition's.
enum Row { kScript = 0, kBroad, kBullets, kBeams, kShips, kMeshMesh, kOutput, kStep, kTotal, kRows };
const char* const kRowNames[kRows] = {"script",    "broad",  "bullets", "beams", "ships+walls",
                                      "mesh-mesh", "output", "step",    "total"};

struct HitCounts {
    std::uint64_t bullets = 0, beams = 0, ship_ship = 0, ship_wall = 0, enemy_enemy = 0;
    std::uint64_t bullets_on[kBulletTargetKinds] = {}; ///< level, walls, enemy, player
    std::uint64_t bullets_inside_walls = 0;            ///< flak: bullets that start inside the solid
};

// Index into HitCounts::bullets_on of a body kind.
int targetIndex(BodyKind kind) {
    switch (kind) {
    case BodyKind::Level: return 0;
    case BodyKind::Walls: return 1;
    case BodyKind::Enemy: return 2;
    default: return 3;
    }
}

// One pass over the frames: a fresh World and scene script, a fresh Bullet world, every frame timed.
struct PassResult {
    std::vector<std::uint64_t> flak[kRows], bullet[kRows];
    HitCounts flak_hits, bullet_hits;
    std::uint64_t bullets_seen = 0, slow_bullets = 0, dropped = 0, hash = 0;
    std::uint32_t wall_triangles = 0;
};

bool runPass(scenes::Scene& scene, const WorldConfig& config, void* memory, std::size_t bytes,
             std::uint32_t frames, bool contact_only, PassResult& out, std::string& error) {
    const BenchClock clock = config.clock;
    World world;
    if (world.init(memory, bytes, config) != Status::Ok) {
        error = "World::init failed";
        return false;
    }
    if (!scene.setup(world, error)) return false;
    BulletArmada peer(scene);
    ArmadaFrame frame;

    const std::size_t n = frames;
    auto& flak_ns = out.flak;
    auto& bullet_ns = out.bullet;
    for (auto& v : flak_ns) v.reserve(n);
    for (auto& v : bullet_ns) v.reserve(n);
    HitCounts& flak_hits = out.flak_hits;
    HitCounts& bullet_hits = out.bullet_hits;
    std::uint64_t& bullets_seen = out.bullets_seen;
    std::uint64_t& slow_bullets = out.slow_bullets;
    std::uint64_t& dropped = out.dropped;

    for (std::uint32_t f = 0; f < frames; ++f) {
        const std::uint64_t t0 = clock(nullptr);
        scene.update(world, f);
        const std::uint64_t t1 = clock(nullptr);
        captureFrame(world, scene, frame); // not timed: the Bullet side's input
        const std::uint64_t t2 = clock(nullptr);
        (void)world.step(scene.dt()); // BufferFull shows in `dropped`
        const std::uint64_t t3 = clock(nullptr);

        const StepStats& st = world.stats();
        auto phase = [&st](WorldPhase p) { return st.phase_ns[static_cast<int>(p)]; };
        flak_ns[kScript].push_back(t1 - t0);
        flak_ns[kBroad].push_back(phase(WorldPhase::Broad));
        flak_ns[kBullets].push_back(phase(WorldPhase::Bullets));
        flak_ns[kBeams].push_back(phase(WorldPhase::Beams));
        flak_ns[kShips].push_back(phase(WorldPhase::Walls) + phase(WorldPhase::Ships));
        flak_ns[kMeshMesh].push_back(phase(WorldPhase::MeshMesh) + phase(WorldPhase::GpuWait));
        flak_ns[kOutput].push_back(phase(WorldPhase::Output));
        flak_ns[kStep].push_back(t3 - t2);
        flak_ns[kTotal].push_back((t1 - t0) + (t3 - t2));
        dropped += st.hits_dropped + st.pairs_dropped;
        for (std::uint32_t i = 0; i < world.hitCount(); ++i) {
            const Hit& h = world.hits()[i];
            switch (h.kind) {
            case HitKind::Bullet:
                ++flak_hits.bullets;
                ++flak_hits.bullets_on[targetIndex(h.b.kind)];
                if (h.b.kind == BodyKind::Walls && h.feature == kNoFeature) ++flak_hits.bullets_inside_walls;
                break;
            case HitKind::Beam: ++flak_hits.beams; break;
            case HitKind::ShipWall: ++flak_hits.ship_wall; break;
            case HitKind::ShipShip:
                if (h.a.kind == BodyKind::Enemy && h.b.kind == BodyKind::Enemy)
                    ++flak_hits.enemy_enemy;
                else
                    ++flak_hits.ship_ship;
                break;
            default: break;
            }
        }

        BulletFrameResult r;
        peer.runFrame(frame, scene.dt(), config.sweep_radii, contact_only, clock, r);
        bullet_ns[kScript].push_back(0);
        bullet_ns[kBroad].push_back(r.phase_ns[static_cast<int>(BulletPhase::Broad)]);
        bullet_ns[kBullets].push_back(r.phase_ns[static_cast<int>(BulletPhase::Bullets)]);
        bullet_ns[kBeams].push_back(r.phase_ns[static_cast<int>(BulletPhase::Beams)]);
        bullet_ns[kShips].push_back(r.phase_ns[static_cast<int>(BulletPhase::Ships)]);
        bullet_ns[kMeshMesh].push_back(r.phase_ns[static_cast<int>(BulletPhase::MeshMesh)]);
        bullet_ns[kOutput].push_back(0);
        bullet_ns[kStep].push_back(r.total_ns);
        bullet_ns[kTotal].push_back(r.total_ns);
        bullet_hits.bullets += r.bullet_hits;
        for (int k = 0; k < kBulletTargetKinds; ++k) bullet_hits.bullets_on[k] += r.bullet_hits_on[k];
        bullet_hits.beams += r.beam_hits;
        bullet_hits.ship_ship += r.ship_ship;
        bullet_hits.ship_wall += r.ship_wall;
        bullet_hits.enemy_enemy += r.enemy_enemy;
        bullets_seen += frame.bullets.size();
        for (const FrameBullet& b : frame.bullets) {
            const float move =
                scene.dt() * std::sqrt(b.velocity.x * b.velocity.x + b.velocity.y * b.velocity.y +
                                       b.velocity.z * b.velocity.z);
            slow_bullets += move > config.sweep_radii * b.radius ? 0u : 1u;
        }
        if (f % 25 == 0 || f + 1 == frames)
            std::fprintf(stderr, "\r  frame %u/%u  flak %.3f ms  bullet %.3f ms   ", f + 1, frames,
                         static_cast<double>(flak_ns[kTotal].back()) / 1e6,
                         static_cast<double>(r.total_ns) / 1e6);
    }
    std::fprintf(stderr, "\n");
    out.hash = world.hitStreamHash();
    out.wall_triangles = peer.wallTriangles();
    return true;
}

int usage(const char* message) {
    if (message != nullptr) std::fprintf(stderr, "flak_bench_armada: %s\n", message);
    std::fprintf(
        stderr,
        "usage: flak_bench_armada [--frames N] [--repeat R] [--clock steady|thread]\n"
        "                         [--bullet-shots sweep|contact] [--seed S] [--scene NAME] [--json FILE]\n");
    return 2;
}

std::string jsonStats(const Stats& s) {
    return format(
        "{\"p50_ms\": %.4f, \"p95_ms\": %.4f, \"p99_ms\": %.4f, \"max_ms\": %.4f, \"mean_ms\": %.4f}", s.p50,
        s.p95, s.p99, s.max, s.mean);
}

std::string jsonHits(const HitCounts& h) {
    auto u = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    return format("{\"bullets\": %llu, \"bullets_on\": {\"level\": %llu, \"walls\": %llu, \"enemy\": %llu, "
                  "\"player\": %llu}, \"bullets_inside_walls\": %llu, \"beams\": %llu, \"ship_ship\": %llu, "
                  "\"ship_wall\": %llu, \"enemy_enemy\": %llu}",
                  u(h.bullets), u(h.bullets_on[0]), u(h.bullets_on[1]), u(h.bullets_on[2]),
                  u(h.bullets_on[3]), u(h.bullets_inside_walls), u(h.beams), u(h.ship_ship), u(h.ship_wall),
                  u(h.enemy_enemy));
}

} // namespace

int main(int argc, char** argv) {
    std::string scene_name = "armada", json_path;
    bool thread_clock = false, contact_only = false;
    long frames = 300, repeat = 1;
    std::uint64_t seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage(nullptr);
            return 0;
        }
        if (i + 1 >= argc) return usage((arg + " needs a value").c_str());
        const char* value = argv[++i];
        unsigned long long whole = 0;
        if (arg == "--frames") {
            if (!flak::support::parseWhole(value, 1, 1000000, whole))
                return usage("--frames must be a whole number from 1 to 1,000,000");
            frames = static_cast<long>(whole);
        } else if (arg == "--repeat") {
            if (!flak::support::parseWhole(value, 1, 1000, whole))
                return usage("--repeat must be a whole number from 1 to 1000");
            repeat = static_cast<long>(whole);
        } else if (arg == "--seed") {
            if (!flak::support::parseWhole(value, 0, ~0ull, whole))
                return usage("--seed must be a whole number below 2^64");
            seed = whole;
        } else if (arg == "--clock") {
            const std::string which = value;
            if (which != "steady" && which != "thread") return usage("--clock is steady or thread");
            thread_clock = which == "thread";
        } else if (arg == "--bullet-shots") {
            const std::string which = value;
            if (which != "sweep" && which != "contact") return usage("--bullet-shots is sweep or contact");
            contact_only = which == "contact";
        } else if (arg == "--scene") {
            scene_name = value;
        } else if (arg == "--json") {
            json_path = value;
        } else {
            return usage(("unknown argument " + arg).c_str());
        }
    }
    scenes::SceneParams params;
    if (!scenes::sceneParams(scene_name, params)) return usage(("unknown scene " + scene_name).c_str());

    std::fprintf(stderr, "building scene \"%s\" and the Bullet worlds...\n", scene_name.c_str());
    scenes::Scene scene;
    std::string error;
    if (!scene.build(scene_name, params, seed, error)) {
        std::fprintf(stderr, "flak_bench_armada: cannot build the scene: %s\n", error.c_str());
        return 1;
    }
    WorldConfig config = scene.worldConfig();
    config.clock = thread_clock ? threadCpuNs : steadyNs;
    const std::size_t bytes = World::requiredBytes(config);
    flak::support::HostBlock block(bytes, World::kAlignment);
    void* memory = block.data();
    const std::uint32_t frame_count = static_cast<std::uint32_t>(frames);
    std::vector<PassResult> passes(static_cast<std::size_t>(repeat));
    for (std::size_t p = 0; p < passes.size(); ++p) {
        if (!runPass(scene, config, memory, bytes, frame_count, contact_only, passes[p], error)) {
            std::fprintf(stderr, "flak_bench_armada: %s\n", error.c_str());
            return 1;
        }
        std::fprintf(stderr, "  pass %zu/%zu done\n", p + 1, passes.size());
    }
    const PassResult& pass0 = passes.front();
    for (const PassResult& pass : passes) {
        if (pass.hash != pass0.hash || pass.bullet_hits.bullets != pass0.bullet_hits.bullets ||
            pass.bullet_hits.ship_ship != pass0.bullet_hits.ship_ship) {
            std::fprintf(stderr, "flak_bench_armada: passes differ (hit-stream hash or Bullet hit counts)\n");
            return 1;
        }
    }
    // Per frame and row, the quickest of the passes: the same work each time, so the minimum
    // drops what other processes on a shared machine added (preemption shows as +4 ms ticks).
    std::vector<std::uint64_t> flak_ns[kRows], bullet_ns[kRows];
    for (int row = 0; row < kRows; ++row) {
        flak_ns[row] = pass0.flak[row];
        bullet_ns[row] = pass0.bullet[row];
        for (const PassResult& pass : passes) {
            for (std::size_t f = 0; f < frame_count; ++f) {
                flak_ns[row][f] = std::min(flak_ns[row][f], pass.flak[row][f]);
                bullet_ns[row][f] = std::min(bullet_ns[row][f], pass.bullet[row][f]);
            }
        }
    }
    const HitCounts& flak_hits = pass0.flak_hits;
    const HitCounts& bullet_hits = pass0.bullet_hits;
    const std::uint64_t bullets_seen = pass0.bullets_seen, slow_bullets = pass0.slow_bullets,
                        dropped = pass0.dropped;

    Stats fs[kRows], bs[kRows];
    for (int row = 0; row < kRows; ++row) {
        fs[row] = stats(flak_ns[row]);
        bs[row] = stats(bullet_ns[row]);
    }
    std::printf("flak_bench_armada: scene %s, seed %llu, %ld frames, %.0f live bullets per frame on average "
                "(%.1f slow: contact tests, the rest swept)\n",
                scene_name.c_str(), static_cast<unsigned long long>(seed), frames,
                static_cast<double>(bullets_seen) / static_cast<double>(frames),
                static_cast<double>(slow_bullets) / static_cast<double>(frames));
    std::printf(
        "flak = Scene::update (script) + World::step; Bullet = the composed frame (bullet_armada.h)\n");
    std::printf("clock: %s; per frame and row: the quickest of %ld pass(es) over the same frames\n",
                thread_clock ? "this thread's CPU time (CLOCK_THREAD_CPUTIME_ID)" : "steady_clock", repeat);
    std::printf("Bullet's bullets: %s\n\n",
                contact_only
                    ? "contactTest where the step leaves them (no sweep: fast ones can tunnel)"
                    : "convexSweepTest over the step when fast, contactTest when slow (the World's rule)");
    std::printf("  %-12s | %8s %8s %8s %8s %8s | %8s %8s %8s %8s %8s | %7s %7s\n", "phase", "flak p50", "p95",
                "p99", "max", "mean", "bt p50", "p95", "p99", "max", "mean", "x p50", "x mean");
    for (int row = 0; row < kRows; ++row) {
        const bool peer_row = row != kScript && row != kOutput;
        std::printf("  %-12s | %8.3f %8.3f %8.3f %8.3f %8.3f |", kRowNames[row], fs[row].p50, fs[row].p95,
                    fs[row].p99, fs[row].max, fs[row].mean);
        if (peer_row && fs[row].p50 > 0 && fs[row].mean > 0)
            std::printf(" %8.3f %8.3f %8.3f %8.3f %8.3f | %7.1f %7.1f\n", bs[row].p50, bs[row].p95,
                        bs[row].p99, bs[row].max, bs[row].mean, bs[row].p50 / fs[row].p50,
                        bs[row].mean / fs[row].mean);
        else if (peer_row)
            std::printf(" %8.3f %8.3f %8.3f %8.3f %8.3f | %7s %7s\n", bs[row].p50, bs[row].p95, bs[row].p99,
                        bs[row].max, bs[row].mean, "-", "-");
        else
            std::printf(" %8s %8s %8s %8s %8s | %7s %7s\n", "-", "-", "-", "-", "-", "-", "-");
    }
    std::printf(
        "  (ms per frame; 'step' = World::step alone vs the whole Bullet frame; x = Bullet / flak)\n\n");
    const double ratio_p50 = bs[kTotal].p50 / fs[kTotal].p50, ratio_mean = bs[kTotal].mean / fs[kTotal].mean;
    std::printf("Bullet / flak, whole frame: p50 %.2fx, mean %.2fx (target >= 4x: %s)\n", ratio_p50,
                ratio_mean, ratio_p50 >= 4.0 && ratio_mean >= 4.0 ? "met" : "NOT met");
    std::printf("flak p99 / p50: %.3f (target <= 1.25: %s); Bullet p99 / p50: %.3f\n",
                fs[kTotal].p99 / fs[kTotal].p50, fs[kTotal].p99 <= 1.25 * fs[kTotal].p50 ? "met" : "NOT met",
                bs[kTotal].p99 / bs[kTotal].p50);
    std::printf("\nhits over all frames      %10s %10s\n", "flak", "Bullet");
    auto hitRow = [](const char* name, std::uint64_t a, std::uint64_t b) {
        std::printf("  %-22s  %10llu %10llu\n", name, static_cast<unsigned long long>(a),
                    static_cast<unsigned long long>(b));
    };
    hitRow("bullets", flak_hits.bullets, bullet_hits.bullets);
    for (int k = 0; k < kBulletTargetKinds; ++k)
        hitRow((std::string("  on ") + kBulletTargetNames[k]).c_str(), flak_hits.bullets_on[k],
               bullet_hits.bullets_on[k]);
    hitRow("  (start inside walls)", flak_hits.bullets_inside_walls, 0);
    hitRow("beams", flak_hits.beams, bullet_hits.beams);
    hitRow("ship-ship (a player)", flak_hits.ship_ship, bullet_hits.ship_ship);
    hitRow("ship-wall", flak_hits.ship_wall, bullet_hits.ship_wall);
    hitRow("enemy-enemy mesh", flak_hits.enemy_enemy, bullet_hits.enemy_enemy);
    std::printf("flak dropped hits/pairs: %llu; wall triangles (Bullet): %u\n",
                static_cast<unsigned long long>(dropped), pass0.wall_triangles);
    std::printf("flak hit-stream hash: %016llx\n", static_cast<unsigned long long>(pass0.hash));

    if (!json_path.empty()) {
        std::string json = format("{\"scene\": \"%s\", \"seed\": %llu, \"frames\": %ld, \"repeat\": %ld, "
                                  "\"clock\": \"%s\", \"bullet_shots\": \"%s\", ",
                                  scene_name.c_str(), static_cast<unsigned long long>(seed), frames, repeat,
                                  thread_clock ? "thread" : "steady", contact_only ? "contact" : "sweep");
        auto side = [&](const char* name, const Stats* s, bool flak_side) {
            std::string out =
                format("\"%s\": {\"total\": %s, \"phases\": {", name, jsonStats(s[kTotal]).c_str());
            bool first = true;
            for (int row = 0; row < kTotal; ++row) {
                if (!flak_side && (row == kScript || row == kOutput || row == kStep)) continue;
                out += format("%s\"%s\": %s", first ? "" : ", ", kRowNames[row], jsonStats(s[row]).c_str());
                first = false;
            }
            return out + "}}, ";
        };
        json += side("flak", fs, true);
        json += side("bullet", bs, false);
        json += format("\"ratio\": {\"p50\": %.3f, \"mean\": %.3f, \"p50_vs_step\": %.3f}, ", ratio_p50,
                       ratio_mean, bs[kTotal].p50 / fs[kStep].p50);
        json += format("\"flak_p99_over_p50\": %.4f, ", fs[kTotal].p99 / fs[kTotal].p50);
        json +=
            "\"hits\": {\"flak\": " + jsonHits(flak_hits) + ", \"bullet\": " + jsonHits(bullet_hits) + "}, ";
        auto series = [](const std::vector<std::uint64_t>& ns) {
            std::string out = "[";
            for (std::size_t i = 0; i < ns.size(); ++i)
                out += format("%s%.4f", i == 0 ? "" : ", ", static_cast<double>(ns[i]) / 1e6);
            return out + "]";
        };
        json += "\"frame_ms\": {\"flak\": " + series(flak_ns[kTotal]) +
                ", \"bullet\": " + series(bullet_ns[kTotal]) + "}, ";
        json += format("\"mean_live_bullets\": %.1f, \"wall_half_height\": %.1f}\n",
                       static_cast<double>(bullets_seen) / static_cast<double>(frames),
                       static_cast<double>(kWallHalfHeight));
        std::ofstream file(json_path, std::ios::binary);
        file << json;
        if (!file) {
            std::fprintf(stderr, "flak_bench_armada: cannot write %s\n", json_path.c_str());
            return 1;
        }
    }
    return 0;
}
